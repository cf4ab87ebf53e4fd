// SPDX-License-Identifier: MIT
#include "scratch/directory.hpp"

namespace shmpi::scratch {

Directory::Directory(const segment::Segment& segment)
    : entries_(segment.at<DirectoryEntry>(segment.layout().scratch_offset +
                                          kDirectoryInScratch)) {}

bool Directory::insert(std::uint64_t key, std::uint64_t offset) {
  const unsigned start = static_cast<unsigned>(key % kDirectoryEntries);
  for (unsigned i = 0; i < kDirectoryEntries; ++i) {
    DirectoryEntry& entry = entries_[(start + i) % kDirectoryEntries];
    std::uint64_t empty = 0;
    // Relaxed claim: readers only trust the entry once offset is non-zero.
    if (entry.key.compare_exchange_strong(empty, key,
                                          std::memory_order_relaxed)) {
      // Release: the block's initialisation before its offset.
      entry.offset.store(offset, std::memory_order_release);
      return true;
    }
  }
  return false;
}

std::uint64_t Directory::find(std::uint64_t key) const {
  const unsigned start = static_cast<unsigned>(key % kDirectoryEntries);
  for (unsigned i = 0; i < kDirectoryEntries; ++i) {
    const DirectoryEntry& entry = entries_[(start + i) % kDirectoryEntries];
    if (entry.key.load(std::memory_order_relaxed) == key) {
      // Acquire: pairs with the release in insert().
      return entry.offset.load(std::memory_order_acquire);
    }
  }
  return 0;
}

void Directory::remove(std::uint64_t key) {
  const unsigned start = static_cast<unsigned>(key % kDirectoryEntries);
  for (unsigned i = 0; i < kDirectoryEntries; ++i) {
    DirectoryEntry& entry = entries_[(start + i) % kDirectoryEntries];
    if (entry.key.load(std::memory_order_relaxed) == key) {
      entry.offset.store(0, std::memory_order_relaxed);
      // Release: the entry is reusable only after every member is done,
      // which the block's reference count already ordered before us.
      entry.key.store(0, std::memory_order_release);
      return;
    }
  }
}

std::uint64_t digest(const std::uint64_t* words, std::size_t count) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t z = h + words[i] + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    h = z ^ (z >> 31);
  }
  return h == 0 ? 1 : h;
}

}  // namespace shmpi::scratch
