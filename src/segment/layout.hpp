// SPDX-License-Identifier: MIT
// The segment's layout: one function, compute_layout(), is the source of
// truth for every offset, shared by the launcher (which creates the segment)
// and the ranks (which attach to it). Offsets only, never pointers.
//
//   0                 SegmentHeader              one page
//   rank_table        RankInfo[capacity]         128 B each, written by its
//   rank scratch           collective scratch area    (world block for now)
//   regions           RankRegion[capacity]       page aligned, one per rank
//   slot:
//        +0             RankControl              wake word + doorbell bitmap
//        +rings         Ring[capacity]           incoming ring from each sender
//        +pool          chunk bitmap + chunks    staging chunks owned by this
//        rank +slots         RendezvousSlot[slots]    large sends by this rank
//   heap              shared heap (Boost.Interprocess managed buffer)
//
// Each rank first-touches (MADV_POPULATE_WRITE) its own region, so the rings
// it receives on and its staging pool sit on its NUMA node. Slots beyond the
// first world (universe size) are never touched and cost no memory.
#pragma once

#include <cstddef>
#include <cstdint>

namespace shmpi::segment {

inline constexpr std::uint64_t kSegmentMagic =
    0x73686d70692d7367ULL;  // "shmpi-sg"
inline constexpr std::uint32_t kLayoutVersion = 2;
inline constexpr std::uint32_t kMaxCapacity = 1024;  // doorbell bitmap width

// Fixed sizes of the shared structures the layout places; the modules that
// define those structures static_assert against these numbers.
inline constexpr std::size_t kRankInfoBytes = 128;
inline constexpr std::size_t kRankControlBytes = 256;
inline constexpr std::size_t kRingHeaderBytes = 128;
inline constexpr std::size_t kCellBytes = 64;
inline constexpr std::size_t kPoolHeaderBytes = 256;
inline constexpr std::size_t kRendezvousSlotBytes = 1024;
// The scratch area's fixed part: one page of headers (world barrier, block
// free lists) and the block directory (src/scratch/directory.hpp); the
// world's communicator block and the per-rank data area follow.
inline constexpr std::size_t kScratchHeaderBytes = 4096;
inline constexpr std::size_t kScratchDirectoryBytes = 256 * 1024;
inline constexpr std::size_t kScratchFixedBytes =
    kScratchHeaderBytes + kScratchDirectoryBytes;
// Per rank, the scratch area holds a line and a data area of one staging
// chunk, but at least this much: the world's block lives there, and a
// small world's block has 32 slots of 384 bytes per member
// (scratch/comm_block.hpp).
inline constexpr std::size_t kScratchRoomPerRank = 16 * 1024;

struct SegmentConfig {
  std::uint32_t nranks = 1;        // ranks of the first world
  std::uint32_t capacity = 1;      // rank slots (universe size), >= nranks
  std::uint32_t ring_cells = 128;  // cells per ring (power of two)
  std::uint32_t chunk_bytes =
      64 * 1024;                       // staging chunk size (multiple of 4 KiB)
  std::uint32_t chunks_per_rank = 32;  // staging chunks per receiver (<= 64)
  std::uint32_t rendezvous_slots = 64;  // in-segment large-send slots per rank
  std::uint64_t scratch_bytes = 0;      // 0: computed from capacity
  // Shared heap, sparse until used: MPI_Alloc_mem, collective buffers and
  // large malloc'd blocks (src/shared_malloc), so it is generous.
  std::uint64_t heap_bytes = 1ULL << 30;
};

struct SegmentLayout {
  SegmentConfig config;
  std::size_t rank_table_offset = 0;
  std::size_t scratch_offset = 0;
  std::size_t scratch_bytes = 0;
  std::size_t regions_offset = 0;
  std::size_t region_bytes = 0;  // stride between rank regions
  // Offsets inside one rank region.
  std::size_t control_in_region = 0;
  std::size_t rings_in_region = 0;
  std::size_t ring_bytes = 0;  // stride between rings
  std::size_t pool_in_region = 0;
  std::size_t pool_bytes = 0;
  std::size_t slots_in_region = 0;
  std::size_t heap_offset = 0;
  std::size_t heap_bytes = 0;
  std::size_t total_bytes = 0;

  std::size_t region_offset(std::uint32_t rank) const {
    return regions_offset + static_cast<std::size_t>(rank) * region_bytes;
  }
  std::size_t control_offset(std::uint32_t rank) const {
    return region_offset(rank) + control_in_region;
  }
  // The ring that carries messages from `sender` to `receiver` lives in the
  // receiver's region.
  std::size_t ring_offset(std::uint32_t sender, std::uint32_t receiver) const {
    return region_offset(receiver) + rings_in_region +
           static_cast<std::size_t>(sender) * ring_bytes;
  }
  std::size_t pool_offset(std::uint32_t rank) const {
    return region_offset(rank) + pool_in_region;
  }
  std::size_t chunk_offset(std::uint32_t rank, std::uint32_t chunk) const {
    return pool_offset(rank) + kPoolHeaderBytes +
           static_cast<std::size_t>(chunk) * config.chunk_bytes;
  }
  std::size_t slot_offset(std::uint32_t rank, std::uint32_t slot) const {
    return region_offset(rank) + slots_in_region +
           static_cast<std::size_t>(slot) * kRendezvousSlotBytes;
  }
  std::size_t rank_info_offset(std::uint32_t rank) const {
    return rank_table_offset + static_cast<std::size_t>(rank) * kRankInfoBytes;
  }
};

// Returns false (and leaves `out` untouched) if the config is invalid.
bool validate_config(const SegmentConfig& config, const char** why) noexcept;
SegmentLayout compute_layout(const SegmentConfig& config) noexcept;

}  // namespace shmpi::segment
