// SPDX-License-Identifier: MIT
// The scratch directory: blocks that members must find without a parent
// block to tell them where (MPI_Comm_create_group agrees among the group's
// members only). Keys are 64-bit digests of (lowest member's slot, parent
// context ID without Z, tag, member slots, generation); the generation
// counts earlier creations with the same arguments on each member, which is
// the same number on all of them, so a key is never reused while a slow
// member may still look for an earlier block. Open addressing over a fixed
// table in the scratch area's second page.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "base/cache_line.hpp"
#include "segment/segment.hpp"

namespace shmpi::scratch {

inline constexpr std::size_t kDirectoryInScratch = kPageSize;
inline constexpr unsigned kDirectoryEntries = 256;

struct DirectoryEntry {
  std::atomic<std::uint64_t> key;     // 0: empty
  std::atomic<std::uint64_t> offset;  // 0 until the block is ready
};
static_assert(sizeof(DirectoryEntry) == 16);
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);
static_assert(kDirectoryEntries * sizeof(DirectoryEntry) <= kPageSize);

class Directory {
 public:
  explicit Directory(const segment::Segment& segment);

  // The creator publishes `offset` under `key`; false if the table is full.
  bool insert(std::uint64_t key, std::uint64_t offset);
  // The offset published under `key`, or 0 if not (yet) there.
  std::uint64_t find(std::uint64_t key) const;
  // The block's last user removes its entry before recycling the block.
  void remove(std::uint64_t key);

 private:
  DirectoryEntry* entries_;
};

// A 64-bit mix of several words (splitmix64 steps); never returns 0.
std::uint64_t digest(const std::uint64_t* words, std::size_t count);

}  // namespace shmpi::scratch
