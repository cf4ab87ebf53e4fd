// SPDX-License-Identifier: MIT
// The lpid table, including the worked example of seed 002: P0 and P1 in
// one world, P1 spawning P2, and P0 meeting P2 through Intercomm_create.
#include "lpid/lpid_table.hpp"

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace shmpi::lpid {
namespace {

// The seed's processes as gpids; P2 lives in spare segment slot 2.
constexpr Gpid kP0{0, 0};
constexpr Gpid kP1{0, 1};
constexpr Gpid kP2{1, 0};

// A resolver over a fixed "rank table" that counts its calls.
struct FakeRankTable {
  std::map<Gpid, std::uint32_t> slots{{kP0, 0}, {kP1, 1}, {kP2, 2}};
  int calls = 0;
  SlotResolver resolver() {
    return [this](Gpid gpid) -> Result<std::uint32_t> {
      ++calls;
      auto found = slots.find(gpid);
      if (found == slots.end()) {
        return Err{16, "no such process"};
      }
      return found->second;
    };
  }
};

// "lpid[i] -> P" lines of the seed, as gpids in lpid order.
std::vector<Gpid> entries(const LpidTable& table) {
  std::vector<Gpid> out;
  for (Lpid lpid = 0; static_cast<std::size_t>(lpid) < table.size(); ++lpid) {
    out.push_back(table.gpid(lpid));
  }
  return out;
}

TEST(LpidTable, WorldLpidsAreWorldRanks) {
  LpidTable table;
  table.init_world(7, 4, 0);
  ASSERT_EQ(table.size(), 4u);
  for (Lpid lpid = 0; lpid < 4; ++lpid) {
    EXPECT_EQ(table.gpid(lpid), (Gpid{7, static_cast<std::uint32_t>(lpid)}));
    EXPECT_EQ(table.slot(lpid), static_cast<std::uint32_t>(lpid));
    EXPECT_EQ(table.find(Gpid{7, static_cast<std::uint32_t>(lpid)}), lpid);
  }
  EXPECT_FALSE(table.contains(4));
  EXPECT_FALSE(table.contains(-1));
  EXPECT_EQ(table.find(Gpid{7, 4}), std::nullopt);
  EXPECT_EQ(table.find(Gpid{0, 0}), std::nullopt);
}

TEST(LpidTable, WorldMayStartAtAnySlot) {
  // A spawned world lives in spare slots after the first world.
  LpidTable table;
  table.init_world(3, 2, 10);
  EXPECT_EQ(table.slot(0), 10u);
  EXPECT_EQ(table.slot(1), 11u);
  EXPECT_EQ(table.gpid(1), (Gpid{3, 1}));
}

TEST(LpidTableSeedExample, P0AndP1StartWithTheSameTable) {
  LpidTable p0;
  LpidTable p1;
  p0.init_world(0, 2, 0);
  p1.init_world(0, 2, 0);
  EXPECT_EQ(entries(p0), (std::vector<Gpid>{kP0, kP1}));
  EXPECT_EQ(entries(p1), entries(p0));
}

TEST(LpidTableSeedExample, P1SpawningP2AddsOneEntry) {
  FakeRankTable ranks;
  LpidTable p1;
  p1.init_world(0, 2, 0);
  const std::vector<Gpid> children{kP2};
  std::vector<Lpid> lpids(1);
  ASSERT_TRUE(p1.to_lpids(children, lpids, ranks.resolver()));
  EXPECT_EQ(lpids[0], 2);
  EXPECT_EQ(entries(p1), (std::vector<Gpid>{kP0, kP1, kP2}));
  EXPECT_EQ(p1.slot(2), 2u);
}

TEST(LpidTableSeedExample, P2LearnsItsParentThenTheParentsWorld) {
  // The seed's first ordering: P2's world, then the spawning process, then
  // every other process the parent knows.
  FakeRankTable ranks;
  LpidTable p2;
  p2.init_world(1, 1, 2);
  std::vector<Lpid> parent(1);
  ASSERT_TRUE(p2.to_lpids(std::vector<Gpid>{kP1}, parent, ranks.resolver()));
  EXPECT_EQ(parent[0], 1);
  std::vector<Lpid> known(3);
  ASSERT_TRUE(
      p2.to_lpids(std::vector<Gpid>{kP0, kP1, kP2}, known, ranks.resolver()));
  EXPECT_EQ(known, (std::vector<Lpid>{2, 1, 0}));
  EXPECT_EQ(entries(p2), (std::vector<Gpid>{kP2, kP1, kP0}));
}

TEST(LpidTableSeedExample, P2AlternateOrderAppendsTheParentsLpids) {
  // The seed's "alternate" ordering: the parent's lpids after the new world.
  FakeRankTable ranks;
  LpidTable p2;
  p2.init_world(1, 1, 2);
  std::vector<Lpid> lpids(2);
  ASSERT_TRUE(
      p2.to_lpids(std::vector<Gpid>{kP0, kP1}, lpids, ranks.resolver()));
  EXPECT_EQ(lpids, (std::vector<Lpid>{1, 2}));
  EXPECT_EQ(entries(p2), (std::vector<Gpid>{kP2, kP0, kP1}));
  EXPECT_EQ(p2.slot(1), 0u);  // P0's rings
  EXPECT_EQ(p2.slot(2), 1u);  // P1's rings
}

TEST(LpidTableSeedExample, P0AddsP2ThroughIntercommCreate) {
  FakeRankTable ranks;
  LpidTable p0;
  p0.init_world(0, 2, 0);
  // Spawning P2 did not involve P0: it still has two lpids.
  EXPECT_EQ(p0.size(), 2u);
  EXPECT_EQ(p0.find(kP2), std::nullopt);
  // The remote leader sent the remote group's gpids: just P2.
  std::vector<Lpid> remote(1);
  ASSERT_TRUE(p0.to_lpids(std::vector<Gpid>{kP2}, remote, ranks.resolver()));
  EXPECT_EQ(remote[0], 2);
  EXPECT_EQ(entries(p0), (std::vector<Gpid>{kP0, kP1, kP2}));
  // The same lpid value names different processes on different processes:
  // lpid 2 is P2 here and P0 on P2 (first ordering above).
  EXPECT_EQ(p0.gpid(2), kP2);
}

TEST(LpidTable, KnownProcessesAreNotResolvedAgain) {
  FakeRankTable ranks;
  LpidTable table;
  table.init_world(0, 2, 0);
  std::vector<Lpid> lpids(3);
  ASSERT_TRUE(table.to_lpids(std::vector<Gpid>{kP1, kP0, kP1}, lpids,
                             ranks.resolver()));
  EXPECT_EQ(lpids, (std::vector<Lpid>{1, 0, 1}));
  EXPECT_EQ(ranks.calls, 0);
  EXPECT_EQ(table.size(), 2u);
}

TEST(LpidTable, ARepeatedNewProcessGetsOneEntry) {
  FakeRankTable ranks;
  LpidTable table;
  table.init_world(0, 2, 0);
  std::vector<Lpid> lpids(3);
  ASSERT_TRUE(table.to_lpids(std::vector<Gpid>{kP2, kP0, kP2}, lpids,
                             ranks.resolver()));
  EXPECT_EQ(lpids, (std::vector<Lpid>{2, 0, 2}));
  EXPECT_EQ(ranks.calls, 1);
  EXPECT_EQ(table.size(), 3u);
}

TEST(LpidTable, UnknownProcessFailsAndLeavesTheTableAlone) {
  FakeRankTable ranks;
  LpidTable table;
  table.init_world(0, 2, 0);
  std::vector<Lpid> lpids{-7, -7, -7};
  // P2 is resolvable, (5, 5) is not: neither may be added.
  auto result = table.to_lpids(std::vector<Gpid>{kP2, Gpid{5, 5}, kP0}, lpids,
                               ranks.resolver());
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().mpi_class, 16);
  EXPECT_EQ(result.error().what, "no such process");
  EXPECT_EQ(table.size(), 2u);
  EXPECT_EQ(table.find(kP2), std::nullopt);
  EXPECT_EQ(lpids, (std::vector<Lpid>{-7, -7, -7}));
}

TEST(LpidTable, EmptyArrayTranslatesToNothing) {
  FakeRankTable ranks;
  LpidTable table;
  table.init_world(0, 1, 0);
  std::vector<Lpid> none;
  EXPECT_TRUE(table.to_lpids(std::vector<Gpid>{}, none, ranks.resolver()));
  EXPECT_EQ(ranks.calls, 0);
}

TEST(LpidTable, AddKeepsTheLpidOfAKnownProcess) {
  LpidTable table;
  table.init_world(0, 2, 0);
  EXPECT_EQ(table.add(kP1, 1), 1);
  EXPECT_EQ(table.add(kP2, 2), 2);
  EXPECT_EQ(table.add(kP2, 2), 2);
  EXPECT_EQ(table.size(), 3u);
}

TEST(LpidTable, SeveralProcessGroupsCoexist) {
  // Worlds 0 (4 ranks), 1 (2 ranks, slots 4-5) and 2 (1 rank, slot 6) seen
  // from a process of world 1.
  std::map<Gpid, std::uint32_t> slots;
  for (std::uint32_t r = 0; r < 4; ++r) {
    slots[Gpid{0, r}] = r;
  }
  slots[Gpid{1, 0}] = 4;
  slots[Gpid{1, 1}] = 5;
  slots[Gpid{2, 0}] = 6;
  SlotResolver resolve = [&](Gpid g) -> Result<std::uint32_t> {
    return slots.at(g);
  };
  LpidTable table;
  table.init_world(1, 2, 4);
  std::vector<Gpid> gpids{Gpid{2, 0}, Gpid{0, 3}, Gpid{1, 1}, Gpid{0, 0}};
  std::vector<Lpid> lpids(gpids.size());
  ASSERT_TRUE(table.to_lpids(gpids, lpids, resolve));
  EXPECT_EQ(lpids, (std::vector<Lpid>{2, 3, 1, 4}));
  for (std::size_t i = 0; i < gpids.size(); ++i) {
    EXPECT_EQ(table.gpid(lpids[i]), gpids[i]);
    EXPECT_EQ(table.slot(lpids[i]), slots.at(gpids[i]));
  }
}

}  // namespace
}  // namespace shmpi::lpid
