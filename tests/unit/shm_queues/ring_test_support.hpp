// SPDX-License-Identifier: MIT
// Ring memory and a checked message format for the SpscRing tests.
//
// A test message of `cells` cells carries a 64-bit id: the head body holds
// [cells:4][id:8] followed by bytes derived from (id, position), the
// continuation bodies hold derived bytes only. check_message() verifies all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "base/cache_line.hpp"
#include "shm_queues/spsc_ring.hpp"

namespace shmpi::test {

using shm_queues::Cell;
using shm_queues::kContinuation;
using shm_queues::RingConsumer;
using shm_queues::RingProducer;

// Zeroed, line-aligned memory for one ring of `cells` cells, as a fresh
// segment provides it.
class RingMemory {
 public:
  explicit RingMemory(std::uint32_t cells)
      : cells_(cells),
        blocks_((segment::kRingHeaderBytes + cells * kCellBytes) / kBlock) {}
  std::byte* data() { return blocks_.front().bytes; }
  std::uint32_t cells() const { return cells_; }
  const Cell& raw_cell(std::uint32_t slot) {
    return *reinterpret_cast<const Cell*>(data() + segment::kRingHeaderBytes +
                                          slot * kCellBytes);
  }

 private:
  static constexpr std::size_t kBlock = kFalseSharingRange;
  static constexpr std::size_t kCellBytes = segment::kCellBytes;
  struct alignas(kBlock) Block {
    std::byte bytes[kBlock];
  };
  std::uint32_t cells_;
  std::vector<Block> blocks_;
};

inline std::byte pattern(std::uint64_t id, std::size_t position) {
  return static_cast<std::byte>((id * 131 + position * 7 + (id >> 8)) & 0xff);
}

constexpr std::size_t kHeadFixed = 12;  // [cells:4][id:8]

// Pushes a `cells`-cell message with `id` if it fits. Returns false when
// full; otherwise stores publish()'s answer in *was_parked.
inline bool try_push(RingProducer& producer, std::uint32_t cells,
                     std::uint64_t id, bool* was_parked) {
  if (!producer.has_room(cells)) {
    return false;
  }
  Cell& head = producer.cell(0);
  std::memcpy(head.body, &cells, 4);
  std::memcpy(head.body + 4, &id, 8);
  std::size_t position = 0;
  for (std::size_t i = kHeadFixed; i < Cell::kBodyBytes; ++i) {
    head.body[i] = pattern(id, position++);
  }
  for (std::uint32_t k = 1; k < cells; ++k) {
    Cell& cell = producer.cell(k);
    cell.seq.store(kContinuation, std::memory_order_relaxed);
    for (std::size_t i = 0; i < Cell::kBodyBytes; ++i) {
      cell.body[i] = pattern(id, position++);
    }
  }
  bool parked = producer.publish(cells);
  if (was_parked != nullptr) {
    *was_parked = parked;
  }
  return true;
}

struct Popped {
  bool present = false;
  bool intact = false;
  std::uint32_t cells = 0;
  std::uint64_t id = 0;
};

// Checks the message at the consumer's position without consuming it.
inline Popped check_message(const RingConsumer& consumer) {
  Popped result;
  const Cell* head = consumer.peek();
  if (head == nullptr) {
    return result;
  }
  result.present = true;
  std::memcpy(&result.cells, head->body, 4);
  std::memcpy(&result.id, head->body + 4, 8);
  result.intact = result.cells >= 1;
  std::size_t position = 0;
  for (std::size_t i = kHeadFixed; i < Cell::kBodyBytes; ++i) {
    result.intact =
        result.intact && head->body[i] == pattern(result.id, position++);
  }
  for (std::uint32_t k = 1; k < result.cells && result.intact; ++k) {
    const Cell& cell = consumer.cell(k);
    result.intact = cell.seq.load(std::memory_order_relaxed) == kContinuation;
    for (std::size_t i = 0; i < Cell::kBodyBytes; ++i) {
      result.intact =
          result.intact && cell.body[i] == pattern(result.id, position++);
    }
  }
  return result;
}

// Consumes the next message if there is one.
inline Popped try_pop(RingConsumer& consumer) {
  Popped result = check_message(consumer);
  if (result.present) {
    // (void): no test producer waits for room through want_room().
    (void)consumer.release(result.cells);
  }
  return result;
}

}  // namespace shmpi::test
