// SPDX-License-Identifier: MIT
// shared_malloc: large allocations of a rank come from the job's shared heap,
// so that a message sent from (or received into) an ordinary malloc'd buffer
// moves with one copy, straight from the sender's buffer, instead of two
// through staging chunks. MPICH and Open MPI get their single copy from the
// kernel (process_vm_readv); shmpi's data path makes no system call, so the
// buffer itself must be readable by the peer (docs/design.md, "Large
// buffers in the shared heap").
//
// malloc_override.cpp replaces malloc and its relatives in libshmpi (glibc's
// documented way of replacing the allocator). This module is the policy
// behind them: what is served from the shared heap and what is left to
// glibc. Blocks of at least kMinBytes, asked for between MPI_Init and
// MPI_Finalize in a launched job, while the heap keeps a reserve free for
// MPI_Alloc_mem and the collectives' staging. Everything else is glibc's.
//
// Freeing is told apart by address: the heap is one range of the segment,
// which stays mapped until the process exits (after MPI_Finalize too), so a
// block may be freed, or read, at any time. A child of fork() shares the
// heap's pages with its parent: it allocates only from glibc and never frees
// a heap block (the parent still owns it).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace shmpi::segment {
class SharedHeap;
}

namespace shmpi::shared_malloc {

// Smallest request served from the shared heap: below it a message goes
// through the ring or one staging chunk anyway, and glibc is faster.
inline constexpr std::size_t kMinBytes = 64 * 1024;

namespace detail {
// [lo, hi): the heap's address range, set once by enable(), never cleared.
// Relaxed everywhere: a block's address reaches another thread only through
// that thread's own synchronisation with the allocating one.
inline std::atomic<std::uintptr_t> heap_lo{0};
inline std::atomic<std::uintptr_t> heap_hi{0};
}  // namespace detail

// Serves allocations from `heap` (whose memory is [base, base + bytes)) as
// long as `reserve` bytes stay free in it. Called by MPI_Init.
void enable(segment::SharedHeap* heap, const void* base, std::size_t bytes,
            std::size_t reserve) noexcept;
// MPI_Finalize: no new blocks; existing ones stay valid.
void stop_allocating() noexcept;
bool allocating() noexcept;

// A block of at least `bytes` aligned to `alignment` (a power of two), or
// nullptr: too small, not enabled, or the heap would dip into its reserve.
void* allocate(std::size_t bytes, std::size_t alignment) noexcept;

// True if `pointer` is a shared-heap block (or inside one).
inline bool owns(const void* pointer) noexcept {
  const auto p = reinterpret_cast<std::uintptr_t>(pointer);
  const std::uintptr_t lo = detail::heap_lo.load(std::memory_order_relaxed);
  const std::uintptr_t hi = detail::heap_hi.load(std::memory_order_relaxed);
  return p - lo < hi - lo;  // one compare; false while lo == hi == 0
}
// Frees a block owns() accepted (a no-op in a child of fork()).
void release(void* pointer) noexcept;
std::size_t usable_size(const void* pointer) noexcept;

}  // namespace shmpi::shared_malloc
