// SPDX-License-Identifier: MIT
#include "lpid/members.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace shmpi::lpid {
namespace {

// World 0 with 4 ranks in slots 0-3, plus world 1 (two spawned ranks) in
// slots 4-5.
LpidTable two_groups() {
  LpidTable table;
  table.init_world(0, 4, 0);
  table.add(Gpid{1, 0}, 4);
  table.add(Gpid{1, 1}, 5);
  return table;
}

TEST(GpidsOf, OneProcessGroupIsSinglePg) {
  const LpidTable table = two_groups();
  const std::vector<Lpid> members{3, 1, 2};
  MemberGpids result = gpids_of(table, members);
  EXPECT_EQ(result.gpids,
            (std::vector<Gpid>{Gpid{0, 3}, Gpid{0, 1}, Gpid{0, 2}}));
  EXPECT_TRUE(result.single_pg);
}

TEST(GpidsOf, MixedProcessGroupsAreNotSinglePg) {
  const LpidTable table = two_groups();
  const std::vector<Lpid> members{0, 5, 4};
  MemberGpids result = gpids_of(table, members);
  EXPECT_EQ(result.gpids,
            (std::vector<Gpid>{Gpid{0, 0}, Gpid{1, 1}, Gpid{1, 0}}));
  EXPECT_FALSE(result.single_pg);
}

TEST(GpidsOf, AllOfAnotherGroupIsSinglePg) {
  const LpidTable table = two_groups();
  MemberGpids result = gpids_of(table, std::vector<Lpid>{5, 4});
  EXPECT_TRUE(result.single_pg);
}

TEST(GpidsOf, NoMembers) {
  const LpidTable table = two_groups();
  MemberGpids result = gpids_of(table, std::vector<Lpid>{});
  EXPECT_TRUE(result.gpids.empty());
  EXPECT_TRUE(result.single_pg);
}

TEST(ConnectionTable, RankToSlot) {
  const LpidTable table = two_groups();
  EXPECT_EQ(connection_table(table, std::vector<Lpid>{4, 0, 5, 2}),
            (std::vector<std::uint32_t>{4, 0, 5, 2}));
  EXPECT_TRUE(connection_table(table, std::vector<Lpid>{}).empty());
}

TEST(ConnectionTable, GpidsRoundTripThroughAnotherTable) {
  // Intercomm_create: a leader sends its members' gpids, the receiver turns
  // them into its own lpids and then into slots, and gets the same slots.
  const LpidTable sender = two_groups();
  const std::vector<Lpid> members{5, 0, 4};
  MemberGpids sent = gpids_of(sender, members);

  LpidTable receiver;
  receiver.init_world(1, 2, 4);  // a process of world 1
  SlotResolver resolve = [&](Gpid g) -> Result<std::uint32_t> {
    return sender.slot(*sender.find(g));
  };
  std::vector<Lpid> lpids(sent.gpids.size());
  ASSERT_TRUE(receiver.to_lpids(sent.gpids, lpids, resolve));
  EXPECT_EQ(lpids, (std::vector<Lpid>{1, 2, 0}));
  EXPECT_EQ(connection_table(receiver, lpids),
            connection_table(sender, members));
}

TEST(FindDuplicate, NoneInDistinctGpids) {
  const std::vector<Gpid> gpids{Gpid{0, 0}, Gpid{0, 1}, Gpid{1, 0}, Gpid{1, 1}};
  EXPECT_EQ(find_duplicate(gpids), std::nullopt);
  EXPECT_EQ(find_duplicate(std::vector<Gpid>{}), std::nullopt);
}

TEST(FindDuplicate, ReportsTheSecondOccurrence) {
  const std::vector<Gpid> gpids{Gpid{0, 0}, Gpid{1, 0}, Gpid{0, 1}, Gpid{1, 0},
                                Gpid{0, 0}};
  EXPECT_EQ(find_duplicate(gpids), 3u);
}

TEST(FindDuplicate, SameRankInDifferentGroupsIsNoDuplicate) {
  EXPECT_EQ(find_duplicate(std::vector<Gpid>{Gpid{0, 3}, Gpid{1, 3}}),
            std::nullopt);
}

TEST(FindDuplicate, OverlappingIntercommGroups) {
  // Local group {P0, P1}, remote group {P2, P1}: P1 is in both.
  std::vector<Gpid> both{Gpid{0, 0}, Gpid{0, 1}, Gpid{1, 0}, Gpid{0, 1}};
  EXPECT_EQ(find_duplicate(both), 3u);
}

}  // namespace
}  // namespace shmpi::lpid
