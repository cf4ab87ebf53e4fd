// SPDX-License-Identifier: MIT
#include "scratch/block_pool.hpp"

#include <bit>
#include <cstring>

#include "segment/shared_heap.hpp"

namespace shmpi::scratch {

namespace {
constexpr std::uint64_t pack(std::uint64_t tag, std::uint64_t units) {
  return tag << 32 | units;
}
constexpr std::uint32_t units_of(std::uint64_t entry) {
  return static_cast<std::uint32_t>(entry);
}
constexpr std::uint64_t tag_of(std::uint64_t entry) { return entry >> 32; }
constexpr std::uint32_t kClassMinMembers = 2;
}  // namespace

BlockPool::BlockPool(const segment::Segment& segment)
    : segment_(segment),
      heads_(segment.at<PoolHeads>(segment.layout().scratch_offset +
                                   kPoolHeadsInScratch)) {}

unsigned BlockPool::size_class(std::uint32_t members) {
  const std::uint32_t capacity =
      std::bit_ceil(members < kClassMinMembers ? kClassMinMembers : members);
  return static_cast<unsigned>(std::countr_zero(capacity)) - 1;
}

CommBlock* BlockPool::pop(unsigned size_class) {
  std::atomic<std::uint64_t>& head = heads_->head[size_class];
  // Acquire: the block's contents (its link) were released by its push.
  std::uint64_t entry = head.load(std::memory_order_acquire);
  while (units_of(entry) != 0) {
    CommBlock* block = at(std::uint64_t{units_of(entry)} * kCacheLineSize);
    // Relaxed: a stale link only makes the CAS below fail (the tag moved).
    const std::uint64_t next =
        block->header.next_free.load(std::memory_order_relaxed);
    if (head.compare_exchange_weak(entry, pack(tag_of(entry) + 1, next),
                                   std::memory_order_acquire,
                                   std::memory_order_acquire)) {
      return block;
    }
  }
  return nullptr;
}

void BlockPool::push(CommBlock* block) {
  std::atomic<std::uint64_t>& head = heads_->head[block->header.size_class];
  const std::uint64_t units = offset_of(block) / kCacheLineSize;
  std::uint64_t entry = head.load(std::memory_order_relaxed);
  do {
    block->header.next_free.store(units_of(entry), std::memory_order_relaxed);
    // Release: the link above (and the block's last use) before the push.
  } while (!head.compare_exchange_weak(entry, pack(tag_of(entry) + 1, units),
                                       std::memory_order_release,
                                       std::memory_order_relaxed));
}

CommBlock* BlockPool::acquire(std::uint32_t members, std::uint32_t references) {
  const unsigned cls = size_class(members);
  if (cls >= kSizeClasses) {
    return nullptr;
  }
  const std::uint32_t capacity = 2u << cls;
  CommBlock* block = pop(cls);
  if (block == nullptr) {
    // The heap aligns to 64 bytes; blocks want 128 (one writer per line
    // pair). Blocks never go back to the heap, so the slack is not tracked.
    void* memory = segment_.heap().allocate(CommBlock::bytes_for(capacity) +
                                            alignof(CommBlock));
    if (memory == nullptr) {
      return nullptr;
    }
    const auto address = reinterpret_cast<std::uintptr_t>(memory);
    block = reinterpret_cast<CommBlock*>(  // NOLINT: aligned heap memory
        (address + alignof(CommBlock) - 1) & ~(alignof(CommBlock) - 1));
    block->header.magic = kBlockMagic;
    block->header.capacity = capacity;
    block->header.size_class = cls;
    // Heap memory may be recycled: start every round word at 0.
    // Relaxed: the block is private until its offset is published with a
    // release.
    const std::uint32_t slots = slots_per_member(capacity);
    for (std::uint32_t m = 0; m < capacity; ++m) {
      for (std::uint32_t k = 0; k < slots; ++k) {
        block->slot(slots, m, k).round.store(0, std::memory_order_relaxed);
      }
      block->bulk_words(capacity)[m].store(0, std::memory_order_relaxed);
      block->progress(capacity)[m].store(0, std::memory_order_relaxed);
      block->arrivals(capacity)[2 * m].round.store(0,
                                                   std::memory_order_relaxed);
      block->arrivals(capacity)[2 * m + 1].round.store(
          0, std::memory_order_relaxed);
    }
    block->header.base_round.store(0, std::memory_order_relaxed);
  }
  block->header.key = 0;
  block->header.references.store(references, std::memory_order_relaxed);
  base::tsan_acquire(block);  // pairs with drop() / release()
  return block;
}

bool BlockPool::drop(CommBlock* block) {
  // The block may come back to this process through other ranks (the
  // recycling and the directory are in shared memory): tell TSan.
  base::tsan_release(block);
  // acq_rel: as in release().
  return block->header.references.fetch_sub(1, std::memory_order_acq_rel) == 1;
}

void BlockPool::release(CommBlock* block) {
  base::tsan_release(block);  // as in drop()
  // acq_rel: our last reads of the block happen before the push, and the
  // last releaser sees every other member's.
  if (block->header.references.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    push(block);
  }
}

}  // namespace shmpi::scratch
