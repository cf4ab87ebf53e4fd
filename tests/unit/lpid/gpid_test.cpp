// SPDX-License-Identifier: MIT
#include "lpid/gpid.hpp"

#include <gtest/gtest.h>

namespace shmpi::lpid {
namespace {

TEST(Gpid, PacksGroupHighRankLow) {
  EXPECT_EQ(pack(Gpid{0, 0}), 0u);
  EXPECT_EQ(pack(Gpid{0, 5}), 5u);  // what the segment writes for world 0
  EXPECT_EQ(pack(Gpid{1, 0}), 1ULL << 32);
  EXPECT_EQ(pack(Gpid{0xffffffffU, 0xffffffffU}), ~0ULL);
}

TEST(Gpid, UnpackInvertsPack) {
  for (const Gpid g : {Gpid{0, 0}, Gpid{0, 7}, Gpid{3, 0}, Gpid{3, 9},
                       Gpid{0xffffffffU, 1}, Gpid{1, 0xffffffffU}}) {
    EXPECT_EQ(unpack(pack(g)), g);
  }
}

TEST(Gpid, OrdersByGroupThenRank) {
  EXPECT_LT((Gpid{0, 9}), (Gpid{1, 0}));
  EXPECT_LT((Gpid{1, 0}), (Gpid{1, 1}));
  EXPECT_EQ((Gpid{2, 3}), (Gpid{2, 3}));
  EXPECT_NE((Gpid{2, 3}), (Gpid{3, 2}));
  // The packed form sorts the same way.
  EXPECT_LT(pack(Gpid{0, 0xffffffffU}), pack(Gpid{1, 0}));
}

}  // namespace
}  // namespace shmpi::lpid
