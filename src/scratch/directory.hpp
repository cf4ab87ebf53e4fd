// SPDX-License-Identifier: MIT
// The scratch directory: where members find a communicator's block. A
// communicator's key is a digest of (segment slot of its lowest member,
// context ID without Z, generation), the generation being a counter of that
// lowest member's process that the creation round hands to every member:
// context IDs are reused as soon as they are freed, the generation makes
// the key unique for ever, so a slow member can never find a newer block.
// MPI_Comm_create_group's rendezvous blocks use a digest of (lowest slot,
// parent context, tag, members, count of earlier such calls). Open
// addressing over a fixed table in the scratch area, linear probing: a
// removed entry becomes a tombstone, never empty again, so a lookup stops
// at the first empty entry (an insert takes the first empty or tombstone
// entry of its probe, so its key never lies beyond an empty one). Members
// waiting for a block poll find(); with removed entries left empty it read
// all 16384 entries (256 KiB) for each miss. A key's probe starts at its
// leader's home entries (homed_key()): starting anywhere, inserts used up
// every entry after some 10^5 communicators and misses read the whole table
// again; from a home, a leader's inserts take its own tombstones again, and
// a miss reads about as many entries as were ever live there at once.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "base/cache_line.hpp"
#include "segment/layout.hpp"
#include "segment/segment.hpp"

namespace shmpi::scratch {

inline constexpr std::size_t kDirectoryInScratch = segment::kScratchHeaderBytes;
inline constexpr unsigned kDirectoryEntries = 16384;

// An entry's key: 0 while never used, kTombstone once removed.
inline constexpr std::uint64_t kTombstone = ~std::uint64_t{0};

struct DirectoryEntry {
  std::atomic<std::uint64_t> key;     // 0: empty, kTombstone: removed
  std::atomic<std::uint64_t> offset;  // 0 until the block is ready
};
static_assert(sizeof(DirectoryEntry) == 16);
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);
static_assert(kDirectoryEntries * sizeof(DirectoryEntry) <=
              segment::kScratchDirectoryBytes);

// Entries between one home and the next (homed_key()).
inline constexpr unsigned kHomeEntries = 64;
static_assert((kDirectoryEntries & (kDirectoryEntries - 1)) == 0,
              "a key's low bits are its first entry");

class Directory {
 public:
  explicit Directory(const segment::Segment& segment);

  // The creator publishes `offset` under `key`; false if the table is full.
  bool insert(std::uint64_t key, std::uint64_t offset);
  // The offset published under `key`, or 0 if not (yet) there.
  std::uint64_t find(std::uint64_t key) const;
  // The block's last user removes its entry before recycling the block.
  void remove(std::uint64_t key);
  // How many entries have ever been used (live or removed), for tests.
  std::size_t used_entries() const;

 private:
  DirectoryEntry* entries_;
};

// A 64-bit mix of several words (splitmix64 steps); never returns 0 or
// kTombstone.
std::uint64_t digest(const std::uint64_t* words, std::size_t count);

// A key made of `digest`'s high bits whose probe starts at the home entry
// of segment slot `home` (the communicator's leader); never 0 or
// kTombstone.
std::uint64_t homed_key(std::uint64_t digest, std::uint32_t home);

}  // namespace shmpi::scratch
