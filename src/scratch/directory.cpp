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
    // Relaxed: only a claim; readers trust the entry once offset is set.
    std::uint64_t seen = entry.key.load(std::memory_order_relaxed);
    // Relaxed claim, as above; a lost race moves on to the next entry.
    if ((seen == 0 || seen == kTombstone) &&
        entry.key.compare_exchange_strong(seen, key,
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
    // Relaxed: the offset's acquire below is what orders the block.
    const std::uint64_t seen = entry.key.load(std::memory_order_relaxed);
    if (seen == key) {
      // Acquire: pairs with the release in insert().
      return entry.offset.load(std::memory_order_acquire);
    }
    if (seen == 0) {
      // Never used. An insert takes the first empty or removed entry of
      // its probe, and entries never become empty again, so `key` is not
      // beyond this one.
      return 0;
    }
  }
  return 0;
}

void Directory::remove(std::uint64_t key) {
  const unsigned start = static_cast<unsigned>(key % kDirectoryEntries);
  for (unsigned i = 0; i < kDirectoryEntries; ++i) {
    DirectoryEntry& entry = entries_[(start + i) % kDirectoryEntries];
    const std::uint64_t seen = entry.key.load(std::memory_order_relaxed);
    if (seen == key) {
      entry.offset.store(0, std::memory_order_relaxed);
      // Release: the entry is reusable only after every member is done,
      // which the block's reference count already ordered before us.
      entry.key.store(kTombstone, std::memory_order_release);
      return;
    }
    if (seen == 0) {
      return;  // not there (find()'s rule)
    }
  }
}

std::size_t Directory::used_entries() const {
  std::size_t used = 0;
  for (unsigned i = 0; i < kDirectoryEntries; ++i) {
    // Relaxed: a count for tests, taken while nobody inserts.
    used += entries_[i].key.load(std::memory_order_relaxed) != 0 ? 1 : 0;
  }
  return used;
}

std::uint64_t homed_key(std::uint64_t digest, std::uint32_t home) {
  const std::uint64_t first =
      (std::uint64_t{home} * kHomeEntries) % kDirectoryEntries;
  // The low bits are `first`, a multiple of kHomeEntries, so never all
  // ones: never kTombstone.
  const std::uint64_t key =
      (digest & ~std::uint64_t{kDirectoryEntries - 1}) | first;
  return key != 0 ? key : std::uint64_t{1} << 63;
}

std::uint64_t digest(const std::uint64_t* words, std::size_t count) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t z = h + words[i] + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    h = z ^ (z >> 31);
  }
  return h == 0 || h == kTombstone ? 1 : h;
}

}  // namespace shmpi::scratch
