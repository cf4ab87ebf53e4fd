// SPDX-License-Identifier: MIT
// compute_layout() and validate_config(): every offset the launcher and the
// ranks agree on, checked for alignment, containment and overlap.
#include "segment/layout.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/cache_line.hpp"
#include "scratch/comm_block.hpp"
#include "segment/header.hpp"

namespace shmpi::segment {
namespace {

struct Span {
  const char* name;
  std::size_t begin;
  std::size_t bytes;
  std::size_t end() const { return begin + bytes; }
};

// Sorts the spans and checks that each ends before the next begins.
void expect_disjoint(std::vector<Span> spans, const std::string& where) {
  std::sort(spans.begin(), spans.end(),
            [](const Span& a, const Span& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < spans.size(); ++i) {
    EXPECT_LE(spans[i - 1].end(), spans[i].begin)
        << where << ": " << spans[i - 1].name << " overlaps " << spans[i].name;
  }
}

void expect_inside(const Span& inner, const Span& outer,
                   const std::string& where) {
  EXPECT_GE(inner.begin, outer.begin)
      << where << ": " << inner.name << " starts before " << outer.name;
  EXPECT_LE(inner.end(), outer.end())
      << where << ": " << inner.name << " ends after " << outer.name;
}

SegmentConfig config_for(std::uint32_t capacity) {
  SegmentConfig config;
  config.nranks = capacity;
  config.capacity = capacity;
  return config;
}

// The ranks whose offsets each check samples: the ends and the middle.
std::vector<std::uint32_t> sample_ranks(std::uint32_t capacity) {
  std::vector<std::uint32_t> ranks{0, capacity / 2, capacity - 1};
  if (capacity > 1) {
    ranks.push_back(1);
  }
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  return ranks;
}

// All the structural checks for one configuration.
void check_layout(const SegmentConfig& config) {
  ASSERT_TRUE(validate_config(config, nullptr));
  const SegmentLayout layout = compute_layout(config);
  const std::uint32_t capacity = config.capacity;
  const std::string where = "capacity " + std::to_string(capacity) +
                            ", ring_cells " +
                            std::to_string(config.ring_cells) + ", chunks " +
                            std::to_string(config.chunks_per_rank) + " x " +
                            std::to_string(config.chunk_bytes);

  // Top-level areas: page aligned, in order, disjoint, and the total is the
  // end of the last one.
  EXPECT_GE(layout.rank_table_offset, kPageSize)
      << where << ": the header owns page 0";
  for (std::size_t offset :
       {layout.rank_table_offset, layout.scratch_offset, layout.regions_offset,
        layout.heap_offset, layout.region_bytes, layout.scratch_bytes,
        layout.heap_bytes, layout.total_bytes}) {
    EXPECT_EQ(offset % kPageSize, 0u) << where;
  }
  const Span header{"header", 0, sizeof(SegmentHeader)};
  const Span rank_table{"rank table", layout.rank_table_offset,
                        capacity * kRankInfoBytes};
  const Span scratch{"scratch", layout.scratch_offset, layout.scratch_bytes};
  const Span regions{"regions", layout.regions_offset,
                     capacity * layout.region_bytes};
  const Span heap{"heap", layout.heap_offset, layout.heap_bytes};
  expect_disjoint({header, rank_table, scratch, regions, heap}, where);
  EXPECT_LE(header.end(), kPageSize) << where;
  EXPECT_GT(layout.scratch_bytes, 0u) << where;
  EXPECT_GE(layout.heap_bytes, config.heap_bytes) << where;
  EXPECT_EQ(layout.total_bytes, heap.end()) << where;
  EXPECT_EQ(layout.config.capacity, capacity) << where;

  // Inside one region: control block, rings, pool header, chunks, slots.
  const std::size_t chunk_area =
      std::size_t{config.chunks_per_rank} * config.chunk_bytes;
  const Span control{"control", layout.control_in_region, kRankControlBytes};
  const Span rings{"rings", layout.rings_in_region,
                   capacity * layout.ring_bytes};
  const Span pool_header{"pool header", layout.pool_in_region,
                         kPoolHeaderBytes};
  const Span chunks{"chunks", layout.pool_in_region + kPoolHeaderBytes,
                    chunk_area};
  const Span slots{"slots", layout.slots_in_region,
                   config.rendezvous_slots * kRendezvousSlotBytes};
  const Span region{"region", 0, layout.region_bytes};
  expect_disjoint({control, rings, pool_header, chunks, slots}, where);
  for (const Span& part : {control, rings, pool_header, chunks, slots}) {
    expect_inside(part, region, where);
  }
  EXPECT_EQ(layout.ring_bytes,
            kRingHeaderBytes + config.ring_cells * kCellBytes)
      << where;
  EXPECT_EQ(layout.ring_bytes % kFalseSharingRange, 0u) << where;
  EXPECT_EQ(layout.rings_in_region % kFalseSharingRange, 0u) << where;
  EXPECT_EQ(layout.slots_in_region % kFalseSharingRange, 0u) << where;
  EXPECT_EQ(chunks.begin % kPageSize, 0u)
      << where << ": chunks must be page aligned";

  // Per-rank accessors land in the right area of the right region.
  for (std::uint32_t rank : sample_ranks(capacity)) {
    const std::string at = where + ", rank " + std::to_string(rank);
    const std::size_t base = layout.region_offset(rank);
    EXPECT_EQ(base % kPageSize, 0u) << at;
    const Span this_region{"this region", base, layout.region_bytes};
    expect_inside(this_region, regions, at);

    EXPECT_EQ(layout.control_offset(rank), base + control.begin) << at;
    EXPECT_EQ(layout.control_offset(rank) % kFalseSharingRange, 0u) << at;

    const Span info{"rank info", layout.rank_info_offset(rank), kRankInfoBytes};
    expect_inside(info, rank_table, at);
    EXPECT_EQ(info.begin % kFalseSharingRange, 0u) << at;

    for (std::uint32_t sender : sample_ranks(capacity)) {
      const Span ring{"ring", layout.ring_offset(sender, rank),
                      layout.ring_bytes};
      expect_inside(ring, {"rings", base + rings.begin, rings.bytes}, at);
      EXPECT_EQ(ring.begin % kFalseSharingRange, 0u) << at;
      EXPECT_EQ(ring.begin, base + rings.begin + sender * layout.ring_bytes)
          << at;
    }

    EXPECT_EQ(layout.pool_offset(rank), base + pool_header.begin) << at;
    const Span this_chunks{"chunks", base + chunks.begin, chunks.bytes};
    for (std::uint32_t chunk : {0u, config.chunks_per_rank - 1}) {
      const Span one{"chunk", layout.chunk_offset(rank, chunk),
                     config.chunk_bytes};
      expect_inside(one, this_chunks, at);
      EXPECT_EQ(one.begin % kPageSize, 0u) << at << ", chunk " << chunk;
    }

    const Span this_slots{"slots", base + slots.begin, slots.bytes};
    for (std::uint32_t slot : {0u, config.rendezvous_slots - 1}) {
      const Span one{"slot", layout.slot_offset(rank, slot),
                     kRendezvousSlotBytes};
      expect_inside(one, this_slots, at);
      EXPECT_EQ(one.begin % kFalseSharingRange, 0u) << at << ", slot " << slot;
    }
  }
  // Consecutive regions follow each other with no gap and no overlap.
  if (capacity > 1) {
    EXPECT_EQ(layout.region_offset(1) - layout.region_offset(0),
              layout.region_bytes);
  }
}

class ComputeLayoutCapacity : public testing::TestWithParam<std::uint32_t> {};

TEST_P(ComputeLayoutCapacity, OffsetsAreAlignedContainedAndDisjoint) {
  check_layout(config_for(GetParam()));
}

TEST_P(ComputeLayoutCapacity, SpareSlotsBeyondTheWorldAreLaidOutToo) {
  SegmentConfig config = config_for(GetParam());
  config.nranks = 1;
  check_layout(config);
}

INSTANTIATE_TEST_SUITE_P(Capacities, ComputeLayoutCapacity,
                         testing::Values(1u, 2u, 8u, 128u, 1024u));

TEST(ComputeLayout, OtherConfigurationsAreConsistent) {
  // Boundary values of each knob, and sizes that are not page multiples.
  std::vector<std::function<void(SegmentConfig&)>> variants{
      [](SegmentConfig& c) { c.ring_cells = 8; },
      [](SegmentConfig& c) { c.ring_cells = 1024; },
      [](SegmentConfig& c) { c.chunks_per_rank = 1; },
      [](SegmentConfig& c) { c.chunks_per_rank = 64; },
      [](SegmentConfig& c) { c.chunk_bytes = 4096; },
      [](SegmentConfig& c) { c.chunk_bytes = 1u << 20; },
      [](SegmentConfig& c) { c.rendezvous_slots = 1; },
      [](SegmentConfig& c) { c.rendezvous_slots = 1000; },
      [](SegmentConfig& c) { c.scratch_bytes = 5000; },
      [](SegmentConfig& c) { c.heap_bytes = 12345; },
      [](SegmentConfig& c) { c.heap_bytes = 0; },
  };
  for (std::uint32_t capacity : {1u, 3u, 17u}) {
    for (const auto& change : variants) {
      SegmentConfig config = config_for(capacity);
      change(config);
      check_layout(config);
    }
  }
}

TEST(ComputeLayout, ScratchAndHeapSizesRoundUpToPages) {
  SegmentConfig config = config_for(4);
  config.scratch_bytes = 5000;
  config.heap_bytes = 4097;
  const SegmentLayout layout = compute_layout(config);
  EXPECT_EQ(layout.scratch_bytes, 2 * kPageSize);
  EXPECT_EQ(layout.heap_bytes, 2 * kPageSize);
}

// The world's communicator block lives in the scratch area after its
// fixed part (mpi/comm_registry.cpp); a small world's has 32 slots of 384
// bytes per member, more than a 4 KiB staging chunk.
TEST(ComputeLayout, ScratchHoldsTheWorldBlock) {
  for (std::uint32_t chunk : {4096u, 8192u, 65536u}) {
    for (std::uint32_t capacity : {1u, 2u, 16u, 17u, 64u, 128u}) {
      SegmentConfig config;
      config.nranks = 1;
      config.capacity = capacity;
      config.chunk_bytes = chunk;
      const SegmentLayout layout = compute_layout(config);
      EXPECT_GE(layout.scratch_bytes,
                kScratchFixedBytes + scratch::CommBlock::bytes_for(capacity))
          << "capacity " << capacity << ", chunk " << chunk;
    }
  }
}

TEST(ComputeLayout, IsDeterministic) {
  // Ranks recompute the layout from the header's config: same input, same
  // offsets.
  SegmentConfig config = config_for(24);
  config.nranks = 20;
  const SegmentLayout a = compute_layout(config);
  const SegmentLayout b = compute_layout(config);
  EXPECT_EQ(a.total_bytes, b.total_bytes);
  EXPECT_EQ(a.ring_offset(3, 17), b.ring_offset(3, 17));
  EXPECT_EQ(a.chunk_offset(19, 7), b.chunk_offset(19, 7));
  EXPECT_EQ(a.slot_offset(5, 63), b.slot_offset(5, 63));
}

TEST(ComputeLayout, HundredTwentyEightRanksFitWellUnderOneGiB) {
  const SegmentLayout layout = compute_layout(config_for(128));
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  // The whole mapping but the heap, which is sparse until used (1 GiB by
  // default: it also holds large malloc'd blocks).
  EXPECT_LT(layout.total_bytes - layout.heap_bytes, 1024 * kMiB)
      << "total " << layout.total_bytes / kMiB << " MiB";
  // What the ranks populate: everything but the heap.
  EXPECT_LT(layout.heap_offset, 512 * kMiB)
      << "populated part " << layout.heap_offset / kMiB << " MiB";
}

TEST(ComputeLayout, PoolBytesEndsBeforeTheSlots) {
  // pool_bytes is the size of the pool that starts at pool_in_region, so the
  // pool must end before the rendezvous slots start.
  for (std::uint32_t capacity : {1u, 2u, 8u, 128u}) {
    const SegmentLayout layout = compute_layout(config_for(capacity));
    EXPECT_LE(layout.pool_in_region + layout.pool_bytes, layout.slots_in_region)
        << "capacity " << capacity;
  }
}

// validate_config: one row per bad input, with a word its reason must name.
struct BadConfig {
  const char* name;
  std::function<void(SegmentConfig&)> change;
  const char* reason_mentions;
};

class ValidateConfigRejects : public testing::TestWithParam<BadConfig> {};

TEST_P(ValidateConfigRejects, WithAReason) {
  SegmentConfig config = config_for(4);
  GetParam().change(config);
  const char* why = nullptr;
  EXPECT_FALSE(validate_config(config, &why));
  ASSERT_NE(why, nullptr);
  EXPECT_NE(std::string(why).find(GetParam().reason_mentions),
            std::string::npos)
      << why;
  EXPECT_FALSE(validate_config(config, nullptr))
      << "a null reason pointer is allowed";
}

INSTANTIATE_TEST_SUITE_P(
    BadInputs, ValidateConfigRejects,
    testing::Values(
        BadConfig{"ZeroRanks", [](SegmentConfig& c) { c.nranks = 0; }, "ranks"},
        BadConfig{"CapacityBelowRanks",
                  [](SegmentConfig& c) { c.capacity = 3; }, "universe"},
        BadConfig{
            "CapacityAboveMax",
            [](SegmentConfig& c) { c.nranks = c.capacity = kMaxCapacity + 1; },
            "1024"},
        BadConfig{"RingCellsZero", [](SegmentConfig& c) { c.ring_cells = 0; },
                  "ring"},
        BadConfig{"RingCellsFour", [](SegmentConfig& c) { c.ring_cells = 4; },
                  "ring"},
        BadConfig{"RingCellsNotPowerOfTwo",
                  [](SegmentConfig& c) { c.ring_cells = 96; }, "power of two"},
        BadConfig{"ChunkBytesZero", [](SegmentConfig& c) { c.chunk_bytes = 0; },
                  "4 KiB"},
        BadConfig{"ChunkBytesSmall",
                  [](SegmentConfig& c) { c.chunk_bytes = 1000; }, "4 KiB"},
        BadConfig{"ChunkBytesNotPageMultiple",
                  [](SegmentConfig& c) { c.chunk_bytes = 6000; }, "4 KiB"},
        BadConfig{"ZeroChunks", [](SegmentConfig& c) { c.chunks_per_rank = 0; },
                  "chunks"},
        BadConfig{"TooManyChunks",
                  [](SegmentConfig& c) { c.chunks_per_rank = 65; }, "chunks"},
        BadConfig{"ZeroSlots", [](SegmentConfig& c) { c.rendezvous_slots = 0; },
                  "slot"}),
    [](const testing::TestParamInfo<BadConfig>& row) {
      return row.param.name;
    });

TEST(ValidateConfig, AcceptsBoundaryValues) {
  SegmentConfig config = config_for(kMaxCapacity);
  config.ring_cells = 8;
  config.chunk_bytes = 4096;
  config.chunks_per_rank = 64;
  config.rendezvous_slots = 1;
  const char* why = nullptr;
  EXPECT_TRUE(validate_config(config, &why)) << (why != nullptr ? why : "");
  EXPECT_TRUE(validate_config(SegmentConfig{}, &why))
      << "the defaults are valid";
}

TEST(ValidateConfig, LeavesTheReasonAloneOnSuccess) {
  const char* why = "untouched";
  EXPECT_TRUE(validate_config(config_for(2), &why));
  EXPECT_STREQ(why, "untouched");
}

}  // namespace
}  // namespace shmpi::segment
