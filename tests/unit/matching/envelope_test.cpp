// SPDX-License-Identifier: MIT
// Envelope: packing facts and the eager cell count.
#include "matching/envelope.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace shmpi::matching {
namespace {

static_assert(sizeof(Envelope) == 20, "the head cell keeps 40 payload bytes");
static_assert(alignof(Envelope) == 4, "no 8-byte member: the length is split");
static_assert(std::is_trivially_copyable_v<Envelope>);
static_assert(std::is_standard_layout_v<Envelope>);
static_assert(offsetof(Envelope, context_id) == 2);
static_assert(offsetof(Envelope, source) == 4);
static_assert(offsetof(Envelope, tag) == 8);
static_assert(offsetof(Envelope, length_low) == 12);
static_assert(offsetof(Envelope, length_high) == 16);
static_assert(kHeadPayloadBytes == 40);
static_assert(kContinuationPayloadBytes == 60);
static_assert(sizeof(std::uint32_t) + sizeof(Envelope) + kHeadPayloadBytes ==
                  64,
              "seq + envelope + payload is one cache line");

struct CellsRow {
  std::size_t bytes;
  std::uint32_t cells;
};

TEST(Envelope, EagerCellsTable) {
  const CellsRow rows[] = {
      {0, 1},     {1, 1},     {40, 1},       {41, 2},  {100, 2},
      {101, 3},   {160, 3},   {161, 4},      {220, 4}, {221, 5},
      {1024, 18}, {4000, 67}, {65536, 1093},
  };
  for (const CellsRow& row : rows) {
    EXPECT_EQ(eager_cells(row.bytes), row.cells) << row.bytes << " bytes";
  }
}

TEST(Envelope, EagerCellsIsTheFewestThatHoldTheMessage) {
  for (std::size_t bytes = 0; bytes <= 20000; ++bytes) {
    const std::uint32_t cells = eager_cells(bytes);
    const std::size_t capacity =
        kHeadPayloadBytes + (cells - 1) * kContinuationPayloadBytes;
    ASSERT_GE(capacity, bytes) << bytes;
    if (cells > 1) {
      ASSERT_LT(capacity - kContinuationPayloadBytes, bytes)
          << bytes << ": one cell too many";
    }
  }
}

TEST(Envelope, LengthRoundTripsAbove4GiB) {
  Envelope envelope{};
  for (std::uint64_t bytes :
       {std::uint64_t{0}, std::uint64_t{40}, std::uint64_t{0xffffffff},
        std::uint64_t{0x100000000}, std::uint64_t{0x123456789abcdef0}}) {
    envelope.set_length(bytes);
    EXPECT_EQ(envelope.length(), bytes);
  }
}

TEST(Envelope, WriteAndReadThroughAHeadCell) {
  shm_queues::Cell cell{};
  cell.seq.store(77);
  Envelope written{};
  written.protocol = Protocol::kRendezvous;
  written.flags = kFlagSync | kFlagEagerRendezvous;
  written.context_id = 0xbeef;
  written.source = 12;
  written.tag = -2;
  written.set_length(5000000000ULL);
  write_envelope(cell, written);
  head_payload(cell)[0] = std::byte{0x42};

  const Envelope read = read_envelope(cell);
  EXPECT_EQ(read.protocol, Protocol::kRendezvous);
  EXPECT_EQ(read.flags, kFlagSync | kFlagEagerRendezvous);
  EXPECT_EQ(read.context_id, 0xbeef);
  EXPECT_EQ(read.source, 12);
  EXPECT_EQ(read.tag, -2);
  EXPECT_EQ(read.length(), 5000000000ULL);
  EXPECT_EQ(cell.seq.load(), 77u)
      << "the envelope leaves the sequence word alone";

  const shm_queues::Cell& view = cell;
  auto* cell_bytes = reinterpret_cast<const std::byte*>(&cell);
  EXPECT_EQ(head_payload(view) - cell_bytes, 24) << "seq:4 + envelope:20";
  EXPECT_EQ(*head_payload(view), std::byte{0x42});
}

}  // namespace
}  // namespace shmpi::matching
