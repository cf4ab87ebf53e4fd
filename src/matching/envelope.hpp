// SPDX-License-Identifier: MIT
// Envelope: the message header that rides in the first cell of every ring
// message, next to the cell's sequence word. With the 20-byte envelope the
// head cell has 40 bytes left, so a message of up to 40 bytes is one cache
// line end to end.
//
// Head cell:   [seq:4][envelope:20][payload or protocol data:40]
// Later cells: [seq = kContinuation:4][payload:60]
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "shm_queues/spsc_ring.hpp"

namespace shmpi::matching {

enum class Protocol : std::uint8_t {
  kEager = 1,       // payload inline in this cell and continuation cells
  kRendezvous = 2,  // request to send: data follows through a rendezvous slot
  kSyncAck = 3,     // receiver matched a synchronous eager send (not matched)
  // Partitioned communication (src/partitioned). Matched on their own queue
  // pair, so ordinary receives and probes never see them and partitioned
  // receives never see ordinary messages.
  kPartRts = 4,       // MPI_Psend_init: payload = channel record offset
  kPartWithdraw = 5,  // request freed before any MPI_Start: drop its RTS
  // Eager through one staging chunk of the receiver's pool, already filled
  // when the envelope is pushed: payload = the chunk's index. No rendezvous
  // slot: the receiver copies the chunk out and returns it to its pool.
  kChunk = 6,
};

enum EnvelopeFlags : std::uint8_t {
  kFlagSync = 1,  // synchronous send: the sender waits for the match
  kFlagEagerRendezvous =
      2,  // the sender completes without a match: drain at once
};

struct Envelope {
  Protocol protocol;
  std::uint8_t flags;
  std::uint16_t context_id;
  std::int32_t source;  // rank of the sender in the communicator's group
  std::int32_t tag;
  std::uint32_t length_low;   // message length in bytes, split so the
  std::uint32_t length_high;  // struct stays 4-byte aligned and 20 bytes

  std::uint64_t length() const {
    return (std::uint64_t{length_high} << 32) | length_low;
  }
  void set_length(std::uint64_t bytes) {
    length_low = static_cast<std::uint32_t>(bytes);
    length_high = static_cast<std::uint32_t>(bytes >> 32);
  }
};
static_assert(std::is_trivially_copyable_v<Envelope>,
              "copied into cells with memcpy");
static_assert(sizeof(Envelope) == 20,
              "the envelope leaves 40 bytes in the head cell");

inline constexpr std::size_t kHeadPayloadBytes =
    shm_queues::Cell::kBodyBytes - sizeof(Envelope);
inline constexpr std::size_t kContinuationPayloadBytes =
    shm_queues::Cell::kBodyBytes;
static_assert(kHeadPayloadBytes == 40 && kContinuationPayloadBytes == 60);

// Cells an eager message of `bytes` bytes occupies.
constexpr std::uint32_t eager_cells(std::size_t bytes) {
  return bytes <= kHeadPayloadBytes
             ? 1
             : 1 + static_cast<std::uint32_t>((bytes - kHeadPayloadBytes +
                                               kContinuationPayloadBytes - 1) /
                                              kContinuationPayloadBytes);
}
static_assert(eager_cells(0) == 1 && eager_cells(40) == 1 &&
              eager_cells(41) == 2 && eager_cells(100) == 2 &&
              eager_cells(101) == 3);

// Stores the envelope as two 8-byte words and a 4-byte one, composed in
// registers: copying the struct made the compiler build it on the stack
// with narrow stores and read it back 16 bytes at a time, a load that
// cannot take its data from those stores and waits for them to reach the
// cache, on every send. The words hold the struct's own layout
// (little-endian; the offsets are asserted in tests/unit/matching).
inline void write_envelope(shm_queues::Cell& cell, const Envelope& envelope) {
  static_assert(std::endian::native == std::endian::little);
  const std::uint64_t first =
      std::uint64_t{static_cast<std::uint8_t>(envelope.protocol)} |
      std::uint64_t{envelope.flags} << 8U |
      std::uint64_t{envelope.context_id} << 16U |
      std::uint64_t{static_cast<std::uint32_t>(envelope.source)} << 32U;
  const std::uint64_t second =
      std::uint64_t{static_cast<std::uint32_t>(envelope.tag)} |
      std::uint64_t{envelope.length_low} << 32U;
  std::memcpy(cell.body, &first, sizeof first);
  std::memcpy(cell.body + sizeof first, &second, sizeof second);
  std::memcpy(cell.body + 2 * sizeof first, &envelope.length_high,
              sizeof envelope.length_high);
}
inline Envelope read_envelope(const shm_queues::Cell& cell) {
  Envelope envelope;
  std::memcpy(&envelope, cell.body, sizeof envelope);
  return envelope;
}
inline std::byte* head_payload(shm_queues::Cell& cell) {
  return cell.body + sizeof(Envelope);
}
inline const std::byte* head_payload(const shm_queues::Cell& cell) {
  return cell.body + sizeof(Envelope);
}

}  // namespace shmpi::matching
