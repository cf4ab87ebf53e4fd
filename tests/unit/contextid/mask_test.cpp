// SPDX-License-Identifier: MIT
#include "contextid/mask.hpp"

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <vector>

namespace shmpi::contextid {
namespace {

TEST(ContextIdFields, BitDiagramVWWWWWWXXXXXLYYZ) {
  // V=1 W=0b101010 X=0b10011 L=1 YY=0b10 Z=1
  const ContextId id = 0b1'101010'10011'1'10'1;
  EXPECT_TRUE(is_dynamic(id));
  EXPECT_EQ(mask_word(id), 0b101010u);
  EXPECT_EQ(mask_bit(id), 0b10011u);
  EXPECT_TRUE(is_localcomm(id));
  EXPECT_EQ(subcomm(id), SubComm::kInternode);
  EXPECT_EQ(suffix(id), Suffix::kCollective);
  EXPECT_FALSE(owns_mask_bit(id));
}

TEST(ContextIdFields, DerivedIdsKeepTheMaskBit) {
  const ContextId parent = from_mask_index(7 * 32 + 9);
  EXPECT_EQ(mask_index(localcomm(parent)), mask_index(parent));
  EXPECT_EQ(mask_index(with_subcomm(parent, SubComm::kIntranode)),
            mask_index(parent));
  EXPECT_EQ(subcomm(with_subcomm(parent, SubComm::kInternode)),
            SubComm::kInternode);
  EXPECT_EQ(collective(parent), parent | 1);
  EXPECT_EQ(without_suffix(collective(parent)), parent);
  EXPECT_TRUE(owns_mask_bit(parent));
  EXPECT_FALSE(owns_mask_bit(localcomm(parent)));
  EXPECT_FALSE(owns_mask_bit(with_subcomm(parent, SubComm::kIntranode)));
  // Z does not change ownership: the collective twin is the same ID.
  EXPECT_TRUE(owns_mask_bit(collective(parent)));
}

TEST(Mask, InitReservesThePredefinedCommunicators) {
  Mask mask;
  EXPECT_EQ(mask.free_count(), 2045u);
  EXPECT_FALSE(mask.is_free(0));                   // MPI_COMM_WORLD
  EXPECT_FALSE(mask.is_free(from_mask_index(1)));  // MPI_COMM_SELF
  EXPECT_FALSE(mask.is_free(from_mask_index(2)));  // third predefined
  EXPECT_TRUE(mask.is_free(from_mask_index(3)));
  EXPECT_EQ(mask.to_hex().substr(0, 16), "fffffff8ffffffff");
  EXPECT_EQ(mask.to_hex().size(), 512u);
}

TEST(Mask, AllocatesLowestWordHighestBit) {
  Mask mask;
  std::vector<unsigned> order;
  for (int i = 0; i < 31; ++i) {
    order.push_back(mask_index(*mask.allocate_any()));
  }
  // Word 0: bits 31 down to 3, then word 1 from bit 31.
  for (unsigned i = 0; i < 29; ++i) {
    EXPECT_EQ(order[i], 31 - i);
  }
  EXPECT_EQ(order[29], 32u + 31u);
  EXPECT_EQ(order[30], 32u + 30u);
  EXPECT_EQ(from_mask_index(order[0]), 496);  // the first ID after init
}

TEST(Mask, LocateTakesTheAndOfSeveralMasks) {
  std::array<std::uint32_t, kMaskWords> a{}, b{};
  a.fill(0xffffffffu);
  b.fill(0xffffffffu);
  a[0] = 0x0000ff00u;
  b[0] = 0x00000f00u;
  std::array<std::uint32_t, kMaskWords> both{};
  for (unsigned w = 0; w < kMaskWords; ++w) {
    both[w] = a[w] & b[w];
  }
  EXPECT_EQ(Mask::locate(both), from_mask_index(11));
  b[0] = 0;
  for (unsigned w = 0; w < kMaskWords; ++w) {
    both[w] = a[w] & b[w];
  }
  EXPECT_EQ(Mask::locate(both), from_mask_index(32 + 31));
  both.fill(0);
  EXPECT_FALSE(Mask::locate(both).has_value());
}

TEST(Mask, ExhaustionAndReuse) {
  Mask mask;
  std::set<ContextId> ids;
  while (auto id = mask.allocate_any()) {
    EXPECT_TRUE(ids.insert(*id).second) << "ID handed out twice";
  }
  EXPECT_EQ(ids.size(), 2045u);
  EXPECT_EQ(mask.free_count(), 0u);
  const ContextId some = from_mask_index(40 * 32 + 17);
  EXPECT_TRUE(mask.release(some));
  EXPECT_FALSE(mask.release(some)) << "double free is reported";
  EXPECT_EQ(mask.allocate_any(), some);
}

TEST(Mask, DerivedIdsDoNotReleaseTheParentBit) {
  Mask mask;
  const ContextId parent = *mask.allocate_any();
  EXPECT_TRUE(mask.release(localcomm(parent)));
  EXPECT_TRUE(mask.release(with_subcomm(parent, SubComm::kIntranode)));
  EXPECT_FALSE(mask.is_free(parent));
  EXPECT_TRUE(mask.release(parent));
  EXPECT_TRUE(mask.is_free(parent));
}

TEST(Mask, FragmentationLeavesNoCommonId) {
  // Two processes whose free IDs are disjoint: each has free IDs, the AND
  // has none.
  Mask p, q;
  while (p.allocate_any()) {
  }
  while (q.allocate_any()) {
  }
  p.release(from_mask_index(100));
  q.release(from_mask_index(200));
  std::array<std::uint32_t, kMaskWords> both{};
  for (unsigned w = 0; w < kMaskWords; ++w) {
    both[w] = p.words()[w] & q.words()[w];
  }
  EXPECT_EQ(p.free_count(), 1u);
  EXPECT_EQ(q.free_count(), 1u);
  EXPECT_FALSE(Mask::locate(both).has_value());
}

}  // namespace
}  // namespace shmpi::contextid
