// SPDX-License-Identifier: MIT
#include "shared_malloc/shared_malloc.hpp"

#include <pthread.h>

#include <cerrno>

#include "segment/shared_heap.hpp"

namespace shmpi::shared_malloc {

namespace {

// Relaxed: each is written once at MPI_Init (heap before allocating_) or
// in a fork child before it runs any user code; a thread that races with
// MPI_Init only misses the shared heap for that one allocation.
std::atomic<segment::SharedHeap*> heap_{nullptr};
std::atomic<std::size_t> reserve_{0};
std::atomic<bool> allocating_{false};
std::atomic<bool> forked_child_{false};

void after_fork_in_child() noexcept {
  forked_child_.store(true, std::memory_order_relaxed);
  allocating_.store(false, std::memory_order_relaxed);
}

}  // namespace

void enable(segment::SharedHeap* heap, const void* base, std::size_t bytes,
            std::size_t reserve) noexcept {
  static const bool registered =
      ::pthread_atfork(nullptr, nullptr, after_fork_in_child) == 0;
  if (!registered || forked_child_.load(std::memory_order_relaxed)) {
    return;
  }
  heap_.store(heap, std::memory_order_relaxed);
  reserve_.store(reserve, std::memory_order_relaxed);
  const auto lo = reinterpret_cast<std::uintptr_t>(base);
  detail::heap_hi.store(lo + bytes, std::memory_order_relaxed);
  detail::heap_lo.store(lo, std::memory_order_relaxed);
  allocating_.store(true, std::memory_order_relaxed);
}

void stop_allocating() noexcept {
  allocating_.store(false, std::memory_order_relaxed);
}

bool allocating() noexcept {
  return allocating_.load(std::memory_order_relaxed);
}

void* allocate(std::size_t bytes, std::size_t alignment) noexcept {
  if (bytes < kMinBytes || !allocating_.load(std::memory_order_relaxed)) {
    return nullptr;
  }
  segment::SharedHeap* heap = heap_.load(std::memory_order_relaxed);
  const std::size_t reserve = reserve_.load(std::memory_order_relaxed);
  // A hint, read without the heap's lock: two ranks may both pass it and
  // dip a little into the reserve, which only makes the reserve smaller.
  const std::size_t free_bytes = heap->free_bytes();
  if (free_bytes < bytes || free_bytes - bytes < reserve) {
    return nullptr;
  }
  const int saved = errno;  // a failed attempt falls back to glibc silently
  void* block = heap->allocate_aligned(bytes, alignment);
  errno = saved;
  return block;
}

void release(void* pointer) noexcept {
  if (forked_child_.load(std::memory_order_relaxed)) {
    return;  // the parent's block: leave it to the parent
  }
  const int saved = errno;  // free() preserves errno
  heap_.load(std::memory_order_relaxed)->deallocate(pointer);
  errno = saved;
}

std::size_t usable_size(const void* pointer) noexcept {
  return heap_.load(std::memory_order_relaxed)->usable_size(pointer);
}

}  // namespace shmpi::shared_malloc
