// SPDX-License-Identifier: MIT
// The channel record: the shared memory one partitioned request pair works
// on for every iteration. The sender allocates it from the shared heap at
// MPI_Psend_init and names it (by segment offset) in the RTS.
//
//   +0     ChannelHeader    4 lines: sender's constants, receiver's CTS
//                           line (and its direct receive buffer), reference
//                           count, sender's published count
//   +512   ready[P]         one 64-bit flag per send partition, each on its
//                           own 64-byte line: the last iteration whose data
//                           for it is there; partitions of up to 24 bytes
//                           carry their data in that line, after the flag
//                           (one 24-byte area per iteration parity); larger
//                           ones use the start of those areas for their
//                           direct marks (one per parity)
//   +S     staging[2]       two buffers of the whole packed message,
//                           indexed by iteration parity
//
// Iterations count from 1 on each side (one per MPI_Start). The epoch
// protocol (docs/design.md#partitioned-communication):
//  - sender, MPI_Pready(p) in iteration k: pack partition p into
//    staging[k & 1] (or its flag line's area k & 1), then ready[p] = k
//    (release);
//  - receiver, MPI_Start of iteration k: cts_epoch = k (release), which
//    says "everything of iteration k - 1 is out of staging";
//  - receiver: partition p of iteration k is there once ready[p] >= k
//    (acquire); the sender completes iteration k once cts_epoch >= k.
// The sender's iteration k + 1 needs CTS(k), so the sender is at most one
// iteration ahead and staging[(k + 1) & 1] it writes then held iteration
// k - 1, which the receiver finished before it published CTS(k).
//
// Direct path: when the receive buffer is contiguous and in the shared
// heap, the receiver names it in its line before the first CTS. A sender's
// MPI_Pready(p) in iteration k that finds CTS(k) already there (the buffer
// is then the receiver's iteration k's) packs p straight into it and sets
// direct[p][k & 1] = k before ready[p] = k; the receiver, seeing the mark
// equal to k, has nothing to copy. Per parity, because the sender one
// iteration ahead sets ready[p] = k + 1 (staged: CTS(k + 1) cannot be there
// yet) while the receiver still asks how k's data of p travelled.
//
// Memory ordering: ready[p]'s release store pairs with the receiver's
// acquire load and publishes the staged bytes of p; cts_epoch's release
// pairs with the sender's acquire and publishes the receiver's last reads
// of the previous iteration's staging (and msg_part and the direct buffer,
// before the first CTS). A direct mark is stored before its ready flag's
// release and read after its acquire, so relaxed is enough for it.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "base/cache_line.hpp"

namespace shmpi::partitioned {

struct ChannelHeader {
  static constexpr std::uint32_t kMagic = 0x50636831;  // "Pch1"

  // Line 0: written by the sender before it pushes the RTS (the ring's
  // release publishes it); read-only afterwards.
  alignas(kFalseSharingRange) std::uint32_t magic = kMagic;
  std::uint32_t send_partitions = 0;
  std::uint64_t partition_bytes = 0;  // packed bytes of one send partition
  std::uint64_t total_bytes = 0;      // send_partitions * partition_bytes
  std::uint64_t staging_offset = 0;   // from the record's first byte
  std::uint64_t staging_stride = 0;   // bytes from staging[0] to staging[1]
  std::uint32_t sender_slot = 0;
  std::uint32_t receiver_slot = 0;
  // Segment offset of the heap block the record was carved from (the heap
  // aligns to 64 bytes, the record to 128).
  std::uint64_t allocation_offset = 0;

  // Line 1: written by the receiver only, read by the sender.
  alignas(kFalseSharingRange) std::atomic<std::uint64_t> cts_epoch{0};
  // The receiver's choice of messages per iteration (seed 003's msg_part);
  // -1 until it first matched. Stored before the first CTS, whose release
  // publishes it. shmpi's receiver always chooses one message per send
  // partition, which keeps every early partition visible.
  std::atomic<std::int32_t> msg_part{-1};
  // The receive buffer the sender may pack into directly: its segment
  // offset (kNoDirect: stage everything) and size in bytes. Stored once,
  // before the first CTS, whose release publishes them; never changed, as a
  // persistent request keeps its buffer.
  static constexpr std::uint64_t kNoDirect = ~std::uint64_t{0};
  std::atomic<std::uint64_t> direct_offset{kNoDirect};
  std::atomic<std::uint64_t> direct_bytes{0};

  // Line 2: both sides. Starts at 2 (sender, receiver side); whoever drops
  // the last reference frees the record.
  alignas(kFalseSharingRange) std::atomic<std::uint32_t> references{2};

  // Line 3: written by the sender (any thread making partitions ready), read
  // by the receiver. Partitions made ready since the record was made, bumped
  // once per MPI_Pready / _range / _list after their flags: the receiver's
  // progress polls this one line and scans the flags only when it moved,
  // so it does not pull flag lines away from a sender that is setting them.
  alignas(kFalseSharingRange) std::atomic<std::uint64_t> published{0};
};
static_assert(std::is_standard_layout_v<ChannelHeader>,
              "laid out by offset in the shared heap");
static_assert(alignof(ChannelHeader) == kFalseSharingRange,
              "each writer's line starts a 128-byte pair of lines");
static_assert(offsetof(ChannelHeader, cts_epoch) == kFalseSharingRange &&
                  offsetof(ChannelHeader, references) ==
                      2 * kFalseSharingRange &&
                  offsetof(ChannelHeader, published) ==
                      3 * kFalseSharingRange &&
                  sizeof(ChannelHeader) == 4 * kFalseSharingRange,
              "one line per writer: sender constants, receiver, both, sender");
static_assert(offsetof(ChannelHeader, direct_offset) >
                      offsetof(ChannelHeader, cts_epoch) &&
                  offsetof(ChannelHeader, direct_bytes) +
                          sizeof(std::uint64_t) <=
                      2 * kFalseSharingRange,
              "the direct buffer is on the receiver's line, beside the CTS");
static_assert(std::atomic<std::uint64_t>::is_always_lock_free &&
                  std::atomic<std::uint32_t>::is_always_lock_free &&
                  std::atomic<std::int32_t>::is_always_lock_free,
              "shared between processes: must not hide a lock");

inline constexpr std::size_t kReadyFlagsOffset = sizeof(ChannelHeader);
// One line per flag: the receiver polls flags the sender has not set yet
// while the sender sets the next ones; sharing a line made every Pready
// wait for the line to come back (measured: 64 x 1 KiB iterations 31 ->
// 24 us).
inline constexpr std::size_t kReadyFlagStride = kCacheLineSize;
// Send partitions of at most this many packed bytes travel in their flag's
// line instead of staging, one area per iteration parity after the flag:
// the receiver then pulls one line per partition instead of two (the flag,
// then the staged data), which is most of an early-bird partition's latency.
inline constexpr std::size_t kInlinePartitionBytes = 24;
static_assert(sizeof(std::uint64_t) + 2 * kInlinePartitionBytes <=
                  kReadyFlagStride,
              "the flag and both parities' data share one line");
// Larger partitions leave those areas free: each parity's area starts with
// that parity's direct mark (the iteration whose data of the partition the
// sender packed straight into the receive buffer).
inline constexpr std::size_t kDirectMarkOffset = sizeof(std::uint64_t);
static_assert(kDirectMarkOffset % alignof(std::atomic<std::uint64_t>) == 0 &&
                  kInlinePartitionBytes % alignof(std::atomic<std::uint64_t>) ==
                      0 &&
                  kInlinePartitionBytes >= sizeof(std::uint64_t),
              "both direct marks are aligned 64-bit words in the flag line");

constexpr std::size_t staging_offset(std::uint32_t send_partitions) {
  return align_up(kReadyFlagsOffset + kReadyFlagStride * send_partitions,
                  kFalseSharingRange);
}
constexpr std::size_t staging_stride(std::uint64_t total_bytes) {
  return align_up(total_bytes, kFalseSharingRange);
}
constexpr std::size_t channel_bytes(std::uint32_t send_partitions,
                                    std::uint64_t total_bytes) {
  return staging_offset(send_partitions) + 2 * staging_stride(total_bytes);
}
// What to ask the heap for: the record plus room to align it to 128 bytes.
constexpr std::size_t channel_allocation_bytes(std::uint32_t send_partitions,
                                               std::uint64_t total_bytes) {
  return channel_bytes(send_partitions, total_bytes) + kFalseSharingRange;
}
static_assert(channel_bytes(1, 0) == 640 && channel_bytes(18, 90) == 1920,
              "header, 18 flag lines, two 90-byte buffers on 128 bytes");

// A process's view of one record (the record holds no pointers).
class Channel {
 public:
  Channel() = default;
  explicit Channel(std::byte* record) : record_(record) {}

  // Builds the record in freshly allocated memory (sender, at init); the
  // caller aligned `record` to kFalseSharingRange. Plain and relaxed
  // stores: the ring's release, when the RTS naming the record is pushed,
  // publishes all of them to the receiver.
  static Channel create(std::byte* record, std::uint32_t send_partitions,
                        std::uint64_t partition_bytes,
                        std::uint32_t sender_slot, std::uint32_t receiver_slot,
                        std::uint64_t allocation_offset) {
    auto* header = new (record) ChannelHeader();
    header->allocation_offset = allocation_offset;
    header->send_partitions = send_partitions;
    header->partition_bytes = partition_bytes;
    header->total_bytes = partition_bytes * send_partitions;
    header->staging_offset = staging_offset(send_partitions);
    header->staging_stride = staging_stride(header->total_bytes);
    header->sender_slot = sender_slot;
    header->receiver_slot = receiver_slot;
    const bool small = partition_bytes <= kInlinePartitionBytes;
    for (std::uint32_t s = 0; s < send_partitions; ++s) {
      std::byte* line = record + kReadyFlagsOffset + s * kReadyFlagStride;
      new (line) std::atomic<std::uint64_t>(0);
      if (!small) {  // else the areas hold data
        for (std::size_t parity = 0; parity < 2; ++parity) {
          new (line + kDirectMarkOffset + parity * kInlinePartitionBytes)
              std::atomic<std::uint64_t>(0);
        }
      }
    }
    return Channel(record);
  }

  bool valid() const { return record_ != nullptr; }
  std::byte* record() const { return record_; }
  ChannelHeader& header() const {
    return *reinterpret_cast<ChannelHeader*>(  // NOLINT: built in create()
        record_);
  }
  std::atomic<std::uint64_t>& ready(std::uint32_t s) const {
    return *reinterpret_cast<std::atomic<std::uint64_t>*>(  // NOLINT: as above
        record_ + kReadyFlagsOffset + s * kReadyFlagStride);
  }
  std::byte* staging(std::uint64_t iteration) const {
    const ChannelHeader& h = header();
    return record_ + h.staging_offset + (iteration & 1) * h.staging_stride;
  }
  bool inline_partitions() const {
    return header().partition_bytes <= kInlinePartitionBytes;
  }
  // Where send partition s's packed bytes for `iteration` go: beside its
  // flag for small partitions, else at its place in staging. The parities
  // keep iteration k's bytes in place while the sender, one iteration
  // ahead at most, writes k + 1's.
  std::byte* partition_data(std::uint32_t s, std::uint64_t iteration) const {
    if (inline_partitions()) {
      return record_ + kReadyFlagsOffset + s * kReadyFlagStride +
             sizeof(std::uint64_t) + (iteration & 1) * kInlinePartitionBytes;
    }
    return staging(iteration) + header().partition_bytes * s;
  }

  // The mark of send partition s for `iteration`'s parity (partitions
  // larger than kInlinePartitionBytes only).
  std::atomic<std::uint64_t>& direct_mark(std::uint32_t s,
                                          std::uint64_t iteration) const {
    return *reinterpret_cast<std::atomic<std::uint64_t>*>(  // NOLINT: create()
        record_ + kReadyFlagsOffset + s * kReadyFlagStride + kDirectMarkOffset +
        (iteration & 1) * kInlinePartitionBytes);
  }

  // Receiver, before its first CTS: the sender may pack straight into
  // `bytes` bytes at segment offset `offset`. Relaxed: the first CTS's
  // release publishes them (the sender reads them only once cleared()).
  void offer_direct(std::uint64_t offset, std::uint64_t bytes) const {
    ChannelHeader& h = header();
    h.direct_bytes.store(bytes, std::memory_order_relaxed);
    h.direct_offset.store(offset, std::memory_order_relaxed);
  }
  // Sender, after cleared(k) for some k >= 1: the receive buffer's segment
  // offset (ChannelHeader::kNoDirect if none) and size. Relaxed: ordered
  // after offer_direct() by the CTS acquire in cleared().
  std::uint64_t direct_offset() const {
    return header().direct_offset.load(std::memory_order_relaxed);
  }
  std::uint64_t direct_bytes() const {
    return header().direct_bytes.load(std::memory_order_relaxed);
  }
  // Sender, before mark_ready(s, iteration): s's data of `iteration` is
  // in the receive buffer, not in staging. Relaxed: the ready flag's
  // release store that follows publishes it with the data.
  void mark_direct(std::uint32_t s, std::uint64_t iteration) const {
    direct_mark(s, iteration).store(iteration, std::memory_order_relaxed);
  }
  // Receiver, after has_arrived(s, iteration) was true: whether the data
  // went straight into the receive buffer. Relaxed: the ready flag's
  // acquire ordered this load after the mark. The same parity's next use
  // is iteration + 2, which needs CTS(iteration + 1), so the mark cannot
  // change under a receiver that is still in `iteration`.
  bool went_direct(std::uint32_t s, std::uint64_t iteration) const {
    return direct_mark(s, iteration).load(std::memory_order_relaxed) ==
           iteration;
  }

  // Sender: partition s's data for `iteration` is there, staged or direct
  // (release: pairs with the acquire in has_arrived(); publishes the
  // bytes and the direct mark).
  void mark_ready(std::uint32_t s, std::uint64_t iteration) const {
    ready(s).store(iteration, std::memory_order_release);
  }
  // Sender, after a batch of flags: `count` more partitions are ready
  // (release: pairs with the acquire in published(); publishes the flags
  // and data of the batch).
  void publish(std::uint32_t count) const {
    header().published.fetch_add(count, std::memory_order_release);
  }
  std::uint64_t published() const {
    return header().published.load(std::memory_order_acquire);
  }
  // Receiver: partition s of `iteration` is staged. The sender may already
  // be one iteration further (ready == iteration + 1): its data went to the
  // other parity, so this iteration's bytes are still in place.
  bool has_arrived(std::uint32_t s, std::uint64_t iteration) const {
    return ready(s).load(std::memory_order_acquire) >= iteration;
  }
  // Receiver, at MPI_Start: clear to send `iteration` (release: pairs with
  // the acquire in cleared(); publishes that every read of the previous
  // iteration's staging is done).
  void publish_cts(std::uint64_t iteration) const {
    header().cts_epoch.store(iteration, std::memory_order_release);
  }
  bool cleared(std::uint64_t iteration) const {
    return header().cts_epoch.load(std::memory_order_acquire) >= iteration;
  }
  // True when the caller held the last reference (it then frees the record).
  bool drop_reference() const {
    // acq_rel: the last holder sees every access of the other side before
    // the memory goes back to the heap.
    return header().references.fetch_sub(1, std::memory_order_acq_rel) == 1;
  }

 private:
  std::byte* record_ = nullptr;
};

}  // namespace shmpi::partitioned
