// SPDX-License-Identifier: MIT
// Finding a process's segment slot from its gpid in the rank table: the
// resolver of the MPI layer's lpid table.
#include "lpid/rank_table.hpp"

#include <gtest/gtest.h>

#include "lpid/lpid_table.hpp"
#include "segment/header.hpp"
#include "segment/segment.hpp"
#include "support/small_segment.hpp"

namespace shmpi::lpid {
namespace {

using segment::RankState;

// A job of 4 ranks (world 0) with 3 spare slots, as shmpirun makes it
// with --universe-size 7.
segment::Segment make_segment() {
  segment::Segment segment = test::small_segment(4, 7, 1 << 20);
  for (std::uint32_t slot = 0; slot < 4; ++slot) {
    segment.rank_info(slot).state.store(
        static_cast<std::uint32_t>(RankState::kRunning),
        std::memory_order_relaxed);
  }
  return segment;
}

// What a spawn would do: fill spare `slot` with process `gpid`.
void occupy(const segment::Segment& segment, std::uint32_t slot, Gpid gpid) {
  segment::RankInfo& info = segment.rank_info(slot);
  info.gpid = pack(gpid);
  info.state.store(static_cast<std::uint32_t>(RankState::kStarting),
                   std::memory_order_release);
}

TEST(RankTable, FirstWorldIsProcessGroupZero) {
  const segment::Segment segment = make_segment();
  for (std::uint32_t slot = 0; slot < 4; ++slot) {
    EXPECT_EQ(gpid_in_slot(segment, slot), (Gpid{0, slot}));
    auto found = find_slot(segment, Gpid{0, slot});
    ASSERT_TRUE(found);
    EXPECT_EQ(*found, slot);
  }
}

TEST(RankTable, SpareSlotsNameNobody) {
  // A spare slot's table entry still reads (0, slot): it must not resolve.
  const segment::Segment segment = make_segment();
  auto found = find_slot(segment, Gpid{0, 5});
  ASSERT_FALSE(found);
  EXPECT_EQ(found.error().mpi_class, 16);  // MPI_ERR_OTHER
  EXPECT_FALSE(find_slot(segment, Gpid{1, 0}));
}

TEST(RankTable, FindsASpawnedProcessGroup) {
  const segment::Segment segment = make_segment();
  occupy(segment, 4, Gpid{1, 0});
  occupy(segment, 5, Gpid{1, 1});
  auto first = find_slot(segment, Gpid{1, 0});
  auto second = find_slot(segment, Gpid{1, 1});
  ASSERT_TRUE(first && second);
  EXPECT_EQ(*first, 4u);
  EXPECT_EQ(*second, 5u);
  EXPECT_FALSE(find_slot(segment, Gpid{1, 2}));
}

TEST(RankTable, DeadProcessesStillResolve) {
  // Its slot is still where its rings are; failing sends is p2p's job.
  const segment::Segment segment = make_segment();
  segment.rank_info(2).state.store(static_cast<std::uint32_t>(RankState::kDead),
                                   std::memory_order_relaxed);
  auto found = find_slot(segment, Gpid{0, 2});
  ASSERT_TRUE(found);
  EXPECT_EQ(*found, 2u);
}

TEST(RankTable, ResolvesForAnLpidTable) {
  // The seed's P0 meeting P2 (spawned into spare slot 6) through the table.
  const segment::Segment segment = make_segment();
  occupy(segment, 6, Gpid{1, 0});
  LpidTable table;
  table.init_world(0, 4, 0);
  const std::vector<Gpid> remote{Gpid{1, 0}};
  std::vector<Lpid> lpids(1);
  ASSERT_TRUE(table.to_lpids(
      remote, lpids, [&](Gpid gpid) { return find_slot(segment, gpid); }));
  EXPECT_EQ(lpids[0], 4);
  EXPECT_EQ(table.slot(4), 6u);
}

}  // namespace
}  // namespace shmpi::lpid
