// SPDX-License-Identifier: MIT
#include "segment/shared_heap.hpp"

#include <boost/interprocess/creation_tags.hpp>
#include <boost/interprocess/indexes/iset_index.hpp>
#include <boost/interprocess/managed_external_buffer.hpp>
#include <boost/interprocess/mem_algo/rbtree_best_fit.hpp>
#include <new>

#include "segment/robust_mutex.hpp"

namespace shmpi::segment {

namespace bip = boost::interprocess;

// managed_external_buffer's default allocator takes no lock
// (null_mutex_family): every rank allocates from this heap, so it takes a
// process-shared mutex, a robust one (segment/robust_mutex.hpp).
using LockedExternalBuffer = bip::basic_managed_external_buffer<
    char, bip::rbtree_best_fit<RobustMutexFamily>, bip::iset_index>;

struct SharedHeap::Impl {
  LockedExternalBuffer buffer;
  const std::byte* base;
  std::size_t bytes;
};

SharedHeap::SharedHeap(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)), tsan_token_(impl_->base) {}
SharedHeap::~SharedHeap() = default;

std::unique_ptr<SharedHeap> SharedHeap::create(void* base, std::size_t bytes) {
  auto impl = std::make_unique<Impl>(
      Impl{LockedExternalBuffer(bip::create_only, base, bytes),
           static_cast<const std::byte*>(base), bytes});
  return std::unique_ptr<SharedHeap>(new SharedHeap(std::move(impl)));
}

std::unique_ptr<SharedHeap> SharedHeap::open(void* base, std::size_t bytes) {
  auto impl = std::make_unique<Impl>(
      Impl{LockedExternalBuffer(bip::open_only, base, bytes),
           static_cast<const std::byte*>(base), bytes});
  return std::unique_ptr<SharedHeap>(new SharedHeap(std::move(impl)));
}

void* SharedHeap::allocate(std::size_t bytes) noexcept {
  return allocate_aligned(bytes, 64);
}

void* SharedHeap::allocate_aligned(std::size_t bytes,
                                   std::size_t alignment) noexcept {
  base::tsan_acquire(tsan_token_);  // after ForeignUse scopes
  void* memory = nullptr;
  try {
    memory = impl_->buffer.allocate_aligned(
        bytes == 0 ? 1 : bytes, alignment < 64 ? 64 : alignment, std::nothrow);
  } catch (...) {
    memory = nullptr;
  }
  base::tsan_release(tsan_token_);  // see order_after_allocations()
  return memory;
}

std::size_t SharedHeap::usable_size(const void* pointer) const noexcept {
  return impl_->buffer.get_segment_manager()->size(pointer);
}

void SharedHeap::deallocate(void* pointer) noexcept {
  if (pointer != nullptr) {
    base::tsan_acquire(tsan_token_);  // after ForeignUse scopes
    impl_->buffer.deallocate(pointer);
    base::tsan_release(tsan_token_);  // see order_after_allocations()
  }
}

bool SharedHeap::owns(const void* pointer) const noexcept {
  auto p = static_cast<const std::byte*>(pointer);
  return p >= impl_->base && p < impl_->base + impl_->bytes;
}

std::size_t SharedHeap::free_bytes() const noexcept {
  return impl_->buffer.get_free_memory();
}

}  // namespace shmpi::segment
