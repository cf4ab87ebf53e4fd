// SPDX-License-Identifier: MIT
// The scratch directory: entries found through removed ones, removed
// entries taken again, and keys that never look like a removed entry.
#include "scratch/directory.hpp"

#include <gtest/gtest.h>

#include <cstdint>

#include "segment/segment.hpp"
#include "support/small_segment.hpp"

namespace shmpi::scratch {
namespace {

// Keys whose probes all start at the same entry.
constexpr std::uint64_t colliding(std::uint64_t k) {
  return 5 + k * kDirectoryEntries;
}

TEST(Directory, FindsWhatWasInsertedAndNothingElse) {
  segment::Segment segment = test::small_segment(1, 1, 1 << 20);
  Directory directory(segment);
  EXPECT_EQ(directory.find(42), 0u);
  ASSERT_TRUE(directory.insert(42, 4096));
  EXPECT_EQ(directory.find(42), 4096u);
  EXPECT_EQ(directory.find(43), 0u);
  directory.remove(42);
  EXPECT_EQ(directory.find(42), 0u);
}

TEST(Directory, FindsAKeyBeyondARemovedOne) {
  // Three keys in a row from one start; removing the middle one leaves a
  // tombstone that lookups of the third must pass.
  segment::Segment segment = test::small_segment(1, 1, 1 << 20);
  Directory directory(segment);
  for (std::uint64_t k = 0; k < 3; ++k) {
    ASSERT_TRUE(directory.insert(colliding(k), 64 * (k + 1)));
  }
  directory.remove(colliding(1));
  EXPECT_EQ(directory.find(colliding(0)), 64u);
  EXPECT_EQ(directory.find(colliding(1)), 0u);
  EXPECT_EQ(directory.find(colliding(2)), 192u);
  // The removed entry is taken again, before the third key's.
  ASSERT_TRUE(directory.insert(colliding(3), 256));
  EXPECT_EQ(directory.find(colliding(3)), 256u);
  EXPECT_EQ(directory.find(colliding(2)), 192u);
  directory.remove(colliding(2));
  directory.remove(colliding(0));
  EXPECT_EQ(directory.find(colliding(3)), 256u);
  // Removing a key that is not there changes nothing.
  directory.remove(colliding(7));
  EXPECT_EQ(directory.find(colliding(3)), 256u);
}

TEST(Directory, ChurnNeverLosesALiveKey) {
  // Many generations through a few entries' worth of colliding keys: each
  // round inserts two and removes the older, so removed entries pile up
  // in front of the live ones and are taken again.
  segment::Segment segment = test::small_segment(1, 1, 1 << 20);
  Directory directory(segment);
  ASSERT_TRUE(directory.insert(colliding(0), 8));
  for (std::uint64_t k = 1; k < 2000; ++k) {
    ASSERT_TRUE(directory.insert(colliding(k), 8 * (k + 1)));
    directory.remove(colliding(k - 1));
    ASSERT_EQ(directory.find(colliding(k)), 8 * (k + 1)) << "key " << k;
    ASSERT_EQ(directory.find(colliding(k - 1)), 0u) << "key " << k - 1;
  }
}

TEST(Directory, OneLeadersChurnStaysAtItsHome) {
  // 100000 communicators of one leader, at most two live at a time: its
  // inserts take its own removed entries again, so the table's used part
  // stays as small as what was ever live at once. With probes starting
  // anywhere, nearly every entry was used after this many.
  segment::Segment segment = test::small_segment(1, 1, 1 << 20);
  Directory directory(segment);
  std::uint64_t previous = homed_key(1, 3);
  ASSERT_TRUE(directory.insert(previous, 8));
  for (std::uint64_t k = 2; k < 100000; ++k) {
    const std::uint64_t words[1] = {k};
    const std::uint64_t key = homed_key(digest(words, 1), 3);
    ASSERT_TRUE(directory.insert(key, 8 * k));
    directory.remove(previous);
    ASSERT_EQ(directory.find(key), 8 * k);
    previous = key;
  }
  EXPECT_LE(directory.used_entries(), 2u);
}

TEST(HomedKey, StartsAtTheHomeAndIsNeverZeroOrATombstone) {
  for (std::uint32_t home = 0; home < 600; ++home) {
    for (const std::uint64_t d :
         {std::uint64_t{0}, ~std::uint64_t{0}, std::uint64_t{12345} << 20}) {
      const std::uint64_t key = homed_key(d, home);
      ASSERT_NE(key, 0u);
      ASSERT_NE(key, kTombstone);
      ASSERT_EQ(key % kDirectoryEntries,
                (std::uint64_t{home} * kHomeEntries) % kDirectoryEntries);
    }
  }
}

TEST(Digest, NeverZeroOrATombstone) {
  for (std::uint64_t w = 0; w < 100000; ++w) {
    const std::uint64_t words[2] = {w, w * 7};
    const std::uint64_t h = digest(words, 2);
    ASSERT_NE(h, 0u);
    ASSERT_NE(h, kTombstone);
  }
}

}  // namespace
}  // namespace shmpi::scratch
