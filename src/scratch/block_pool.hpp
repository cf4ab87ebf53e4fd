// SPDX-License-Identifier: MIT
// Communicator blocks come from size classes (member capacity 2, 4, 8, ...)
// carved from the shared heap and recycled through one lock-free free list
// per class, so creating and freeing communicators does not take the heap's
// mutex once warm. The list heads live in the scratch area's header; a list
// entry is a 32-bit tag plus the block's offset / 64 (the tag defeats ABA).
// Blocks are never returned to the heap, so a racing pop may read a stale
// link but never unmapped memory.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "base/cache_line.hpp"
#include "base/tsan.hpp"
#include "scratch/comm_block.hpp"
#include "segment/segment.hpp"
#include "segment/shared_heap.hpp"

namespace shmpi::scratch {

inline constexpr unsigned kSizeClasses = 12;  // capacity up to 4096

struct alignas(kFalseSharingRange) PoolHeads {
  std::atomic<std::uint64_t> head[kSizeClasses];
};
static_assert(sizeof(PoolHeads) == kFalseSharingRange);
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

// Where the scratch area's shared bookkeeping sits (after the world barrier
// block at its start).
inline constexpr std::size_t kPoolHeadsInScratch = 2 * kFalseSharingRange;

class BlockPool {
 public:
  BlockPool(const segment::Segment& segment);

  // A block with room for `members`, its round words zeroed and its
  // reference count set to `references`; nullptr when the heap is full.
  CommBlock* acquire(std::uint32_t members, std::uint32_t references);
  // Drops one reference; the last one puts the block back on its list.
  void release(CommBlock* block);
  // Drops one reference without recycling; true for the last one, which
  // must then call recycle() (after removing a directory entry).
  bool drop(CommBlock* block);
  void recycle(CommBlock* block) { push(block); }

  std::uint64_t offset_of(const CommBlock* block) const {
    return segment_.offset_of(block);
  }
  // The block at a directory offset; a member attaching to it (TSan: pairs
  // with drop() / release() of its earlier users in this process).
  CommBlock* at(std::uint64_t offset) const {
    CommBlock* block = segment_.at<CommBlock>(static_cast<std::size_t>(offset));
    base::tsan_acquire(block);
    // Another process may have taken the block from the heap where this
    // one's allocator bookkeeping was.
    segment_.heap().order_after_allocations();
    return block;
  }
  static unsigned size_class(std::uint32_t members);

 private:
  CommBlock* pop(unsigned size_class);
  void push(CommBlock* block);

  const segment::Segment& segment_;
  PoolHeads* heads_;
};

}  // namespace shmpi::scratch
