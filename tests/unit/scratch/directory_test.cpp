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
