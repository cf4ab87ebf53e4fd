// SPDX-License-Identifier: MIT
#include "segment/layout.hpp"

#include <algorithm>

#include "base/cache_line.hpp"

namespace shmpi::segment {

bool validate_config(const SegmentConfig& config, const char** why) noexcept {
  auto fail = [why](const char* reason) {
    if (why != nullptr) {
      *why = reason;
    }
    return false;
  };
  if (config.nranks == 0) {
    return fail("the number of ranks must be at least 1");
  }
  if (config.capacity < config.nranks) {
    return fail("the universe size must be at least the number of ranks");
  }
  if (config.capacity > kMaxCapacity) {
    return fail("at most 1024 rank slots are supported");
  }
  if (config.ring_cells < 8 ||
      (config.ring_cells & (config.ring_cells - 1)) != 0) {
    return fail("ring cells must be a power of two, at least 8");
  }
  if (config.chunk_bytes < kPageSize || config.chunk_bytes % kPageSize != 0) {
    return fail("staging chunks must be a multiple of 4 KiB");
  }
  if (config.chunks_per_rank == 0 || config.chunks_per_rank > 64) {
    return fail("staging chunks per rank must be between 1 and 64");
  }
  if (config.rendezvous_slots == 0) {
    return fail("at least one rendezvous slot per rank is needed");
  }
  return true;
}

SegmentLayout compute_layout(const SegmentConfig& config) noexcept {
  SegmentLayout layout;
  layout.config = config;
  const std::size_t capacity = config.capacity;
  std::size_t offset = kPageSize;  // the header owns the first page

  layout.rank_table_offset = offset;
  offset = align_up(offset + capacity * kRankInfoBytes, kPageSize);

  // Collective scratch area: the fixed part (headers, block directory),
  // then per rank one line plus a data area of one staging chunk (at least
  // kScratchRoomPerRank), where the world's block lives (it needs up to 32
  // slots of 384 B and a few words per rank, inside; comm_registry.cpp
  // asserts it).
  const std::size_t room =
      std::max<std::size_t>(config.chunk_bytes, kScratchRoomPerRank);
  layout.scratch_bytes =
      config.scratch_bytes != 0
          ? align_up(config.scratch_bytes, kPageSize)
          : align_up(
                kScratchFixedBytes + capacity * (kFalseSharingRange + room),
                kPageSize);
  layout.scratch_offset = offset;
  offset += layout.scratch_bytes;

  layout.control_in_region = 0;
  layout.rings_in_region = kRankControlBytes;
  layout.ring_bytes = kRingHeaderBytes + config.ring_cells * kCellBytes;
  std::size_t in_region = layout.rings_in_region + capacity * layout.ring_bytes;
  // The pool header sits at the end of its own page so chunks stay page
  // aligned.
  layout.pool_in_region =
      align_up(in_region, kPageSize) + kPageSize - kPoolHeaderBytes;
  layout.pool_bytes = kPoolHeaderBytes +
                      config.chunks_per_rank * std::size_t{config.chunk_bytes};
  in_region = layout.pool_in_region + kPoolHeaderBytes +
              config.chunks_per_rank * std::size_t{config.chunk_bytes};
  layout.slots_in_region = align_up(in_region, kFalseSharingRange);
  in_region =
      layout.slots_in_region + config.rendezvous_slots * kRendezvousSlotBytes;
  layout.region_bytes = align_up(in_region, kPageSize);

  layout.regions_offset = offset;
  offset += capacity * layout.region_bytes;

  layout.heap_offset = offset;
  layout.heap_bytes = align_up(config.heap_bytes, kPageSize);
  offset += layout.heap_bytes;
  layout.total_bytes = offset;
  return layout;
}

}  // namespace shmpi::segment
