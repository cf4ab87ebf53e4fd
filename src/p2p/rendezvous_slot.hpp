// SPDX-License-Identifier: MIT
// RendezvousSlot: the shared record of one large transfer, in the sender's
// region (SegmentLayout::slot_offset). The sender fills staging chunks taken
// from the receiver's pool and publishes them here in order; the receiver
// copies them out and returns them to its pool.
//
// Protocol: the sender writes the description line, then pushes a
// rendezvous envelope through the ring naming the slot and its generation.
// Chunk k carries packed bytes [k * chunk_bytes, ...); its pool index is
// chunk_ids[k % kChunkWindow], written before `published` moves past k.
// The receiver raises `matched` when a receive takes the message, advances
// `consumed` as it copies, and raises `done` once it has every byte (or has
// copied straight out of the sender's shared-heap buffer: contiguous, or a
// padded pair type's elements, source_pair). When both buffers are in the
// heap, contiguous, and the message is large, the two sides split the one
// copy (split_at): a large ping-pong has both cores copying, as
// the pipelined double copy through chunks had.
//
// Memory ordering: published (release, sender) pairs with the receiver's
// acquire: chunk_ids and the chunks' data are visible. matched/done
// (release, receiver) pair with the sender's acquire loads. Each store is
// followed by wake_if_sleeping() on the other side.
#pragma once

#include <atomic>
#include <cstdint>
#include <type_traits>

#include "base/cache_line.hpp"
#include "segment/layout.hpp"

namespace shmpi::p2p {

inline constexpr std::uint32_t kChunkWindow = 64;  // >= chunks per pool
inline constexpr std::uint64_t kNoHeapOffset = ~std::uint64_t{0};
inline constexpr std::uint64_t kNotDirect = ~std::uint64_t{0};
// Values of RendezvousSlot::matched.
inline constexpr std::uint32_t kUnmatched = 0;
inline constexpr std::uint32_t kMatched = 1;
// Matched, and the receive buffer is in the shared heap: the sender copies
// what it has not yet published straight into it.
inline constexpr std::uint32_t kMatchedDirect = 2;
// A split copy (split_at) from this size on; the claims on direct_from.
// Measured (2-rank ping-pong, heap buffers, 6 alternating runs): 32 KiB
// 5.80 -> 4.00 us, 64 KiB 9.54 -> 6.55, 128 KiB 16.4 -> 9.4 against the
// receiver copying alone; bandwidth (window of 64) 64 KiB 17 -> 29 GB/s.
// From 8 or 16 KiB, 12-24 KiB ping-pongs gained 20-25% but their
// bandwidth lost 5-30%. A two-way MPI_Sendrecv of 128 KiB-1 MiB stayed
// within 5% (docs/bench.md).
inline constexpr std::uint64_t kSplitMin = 32 * 1024;
inline constexpr std::uint64_t kSenderCopying = kNotDirect - 1;
inline constexpr std::uint64_t kReceiverCopying = kNotDirect - 2;

struct RendezvousSlot {
  // Description line: written by the sender before the envelope is pushed
  // (published to the receiver by the ring's release).
  alignas(kFalseSharingRange) std::uint64_t total_bytes;
  std::uint64_t
      source_heap_offset;  // kNoHeapOffset unless the buffer is in the heap
  std::uint32_t generation;
  std::uint32_t chunk_bytes;
  // With a source in the heap: 0 when it is the packed bytes themselves,
  // else the padded pair type it holds, as C structs (TypeMap::pair_id):
  // the receiver copies through that type's map.
  std::uint16_t source_pair;
  // Publish line: written by the sender.
  alignas(kFalseSharingRange) std::atomic<std::uint64_t> published;
  // After kMatchedDirect: the number of chunks published before the sender
  // copied the rest straight into the receive buffer; stored (release) once
  // that copy is complete. kNotDirect until then.
  std::atomic<std::uint64_t> direct_from;
  std::uint8_t chunk_ids[kChunkWindow];
  // Receiver line: written by the receiver. The destination fields are
  // written before matched = kMatchedDirect (release).
  alignas(kFalseSharingRange) std::atomic<std::uint32_t> matched;
  std::atomic<std::uint32_t> done;
  std::atomic<std::uint64_t> consumed;
  std::uint64_t destination_heap_offset;
  std::uint64_t destination_bytes;
  // Both buffers in the heap and at least kSplitMin bytes: the receiver
  // copies [0, split_at) and whoever claims direct_from first (CAS from
  // kNotDirect) the rest; a sender that does stores 0 there when done.
  std::uint64_t split_at;
};
static_assert(sizeof(RendezvousSlot) <= segment::kRendezvousSlotBytes,
              "layout.hpp reserves 1 KiB per slot");
static_assert(std::is_standard_layout_v<RendezvousSlot>, "shared by offset");
static_assert(segment::SegmentConfig{}.chunks_per_rank <= kChunkWindow,
              "a transfer never has more chunks in flight than a pool holds");

}  // namespace shmpi::p2p
