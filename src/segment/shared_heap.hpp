// SPDX-License-Identifier: MIT
// SharedHeap: the segment's heap region managed by Boost.Interprocess (the
// only user of it). Blocks are identified across processes by segment
// offset. Allocation takes a robust process-shared mutex: it is for
// MPI_Alloc_mem and cold-path staging, never the small-message path.
#pragma once

#include <cstddef>
#include <memory>

#include "base/tsan.hpp"

namespace shmpi::segment {

class SharedHeap {
 public:
  // create: builds the allocator's bookkeeping in [base, base + bytes).
  // open: attaches to bookkeeping another process built.
  static std::unique_ptr<SharedHeap> create(void* base, std::size_t bytes);
  static std::unique_ptr<SharedHeap> open(void* base, std::size_t bytes);
  ~SharedHeap();
  SharedHeap(const SharedHeap&) = delete;
  SharedHeap& operator=(const SharedHeap&) = delete;

  // nullptr when the heap is exhausted. Blocks are 64-byte aligned.
  void* allocate(std::size_t bytes) noexcept;
  // The same with a larger alignment (a power of two).
  void* allocate_aligned(std::size_t bytes, std::size_t alignment) noexcept;
  // Bytes usable in a block this heap returned (at least those asked for).
  std::size_t usable_size(const void* pointer) const noexcept;
  void deallocate(void* pointer) noexcept;
  bool owns(const void* pointer) const noexcept;
  std::size_t free_bytes() const noexcept;

  // For ThreadSanitizer, which sees one process (base/tsan.hpp): a thread
  // about to use heap memory that another process allocated calls this
  // first. The allocator's bookkeeping, written by any thread of this
  // process while it allocated or freed nearby, then happens before that
  // use; the real order runs through the heap's mutex and the other
  // process, which TSan cannot see. Nothing outside TSan builds.
  void order_after_allocations() const noexcept {
    base::tsan_acquire(tsan_token_);
  }

  // The other half: a thread done with heap memory another process
  // allocated calls this before it says so (that process may then free
  // the memory, and this one allocate it next): the use happens before
  // this process's later allocations. Nothing outside TSan builds.
  void order_before_allocations() const noexcept {
    base::tsan_release(tsan_token_);
  }

  // Both, for a scope that reads or writes heap memory another process
  // allocated, both ways: what this process did there before happens
  // before the scope, and the scope happens before this process's later
  // allocations (the other process may free that memory once we say we
  // are done, and this process may get it next). Nothing outside TSan
  // builds.
  class ForeignUse {
   public:
    explicit ForeignUse(const SharedHeap& heap) noexcept : heap_(heap) {
      heap_.order_after_allocations();
    }
    ~ForeignUse() { heap_.order_before_allocations(); }
    ForeignUse(const ForeignUse&) = delete;
    ForeignUse& operator=(const ForeignUse&) = delete;

   private:
    const SharedHeap& heap_;
  };

 private:
  struct Impl;
  explicit SharedHeap(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  const void* tsan_token_ = nullptr;  // the heap's first byte
};

}  // namespace shmpi::segment
