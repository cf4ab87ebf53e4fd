// SPDX-License-Identifier: MIT
// SpscRing, single-threaded: index arithmetic around the wrap points of an
// eight-cell ring, sequence words at lap boundaries, and parking.
#include "shm_queues/spsc_ring.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>
#include <string>

#include "base/prefetch.hpp"
#include "ring_test_support.hpp"

namespace shmpi::shm_queues {
namespace {

using test::check_message;
using test::RingMemory;
using test::try_pop;
using test::try_push;

constexpr std::uint32_t kCells = 8;
constexpr unsigned kLog2Cells = 3;

// A ring of eight cells with both ends attached.
struct Ring {
  explicit Ring(std::uint32_t cells = kCells)
      : memory(cells),
        producer(memory.data(), cells),
        consumer(memory.data(), cells) {}
  // Moves both ends `cells` cells forward with one-cell messages.
  void advance(std::uint32_t cells) {
    for (std::uint32_t i = 0; i < cells; ++i) {
      bool parked = true;
      ASSERT_TRUE(try_push(producer, 1, next_id, &parked));
      ASSERT_FALSE(parked);
      test::Popped popped = try_pop(consumer);
      ASSERT_TRUE(popped.present && popped.intact);
      ASSERT_EQ(popped.id, next_id);
      ++next_id;
    }
  }
  RingMemory memory;
  RingProducer producer;
  RingConsumer consumer;
  std::uint64_t next_id = 1000;
};

struct SeqRow {
  std::uint64_t index;
  unsigned log2_cells;
  std::uint32_t full;
  std::uint32_t parked;
};

TEST(SpscRing, SequenceWordsAtLapBoundaries) {
  constexpr std::uint64_t kLastLap =
      (std::uint64_t{1} << 31) - 1;  // last lap before wrap
  const SeqRow rows[] = {
      {0, 3, 1, 2},
      {7, 3, 1, 2},
      {8, 3, 3, 4},
      {15, 3, 3, 4},
      {16, 3, 5, 6},
      {63, 6, 1, 2},
      {64, 6, 3, 4},
      {1023, 10, 1, 2},
      {1024, 10, 3, 4},
      // 32-bit sequence words wrap after 2^31 laps: the last lap's parked
      // value is 0, the value of kContinuation, and the next lap restarts at 1.
      {kLastLap << 3, 3, 0xffffffffu, 0},
      {(kLastLap << 3) + 7, 3, 0xffffffffu, 0},
      {(kLastLap + 1) << 3, 3, 1, 2},
  };
  for (const SeqRow& row : rows) {
    EXPECT_EQ(seq_full(row.index, row.log2_cells), row.full)
        << "index " << row.index;
    EXPECT_EQ(seq_parked(row.index, row.log2_cells), row.parked)
        << "index " << row.index;
  }
  EXPECT_EQ(seq_parked(kLastLap << 3, 3), kContinuation);
}

TEST(SpscRing, SequenceWordsNeverCollideAcrossNeighbouringLaps) {
  // A cell's stale value is from the previous lap (full or continuation) or
  // a park in this lap; none of them may equal this lap's full value, and
  // the previous lap's values may not equal this lap's parked value.
  for (std::uint64_t lap = 1; lap < 1000; ++lap) {
    const std::uint64_t index = lap << kLog2Cells;
    const std::uint64_t previous = index - kCells;
    const std::uint32_t full = seq_full(index, kLog2Cells);
    const std::uint32_t parked = seq_parked(index, kLog2Cells);
    EXPECT_EQ(full % 2, 1u) << "only the producer writes odd values";
    EXPECT_EQ(parked % 2, 0u);
    EXPECT_NE(full, kContinuation);
    EXPECT_NE(parked, kContinuation);
    EXPECT_NE(full, seq_full(previous, kLog2Cells));
    EXPECT_NE(full, seq_parked(previous, kLog2Cells));
    EXPECT_NE(parked, seq_full(previous, kLog2Cells));
    EXPECT_EQ(full, seq_parked(previous, kLog2Cells) + 1);
  }
}

TEST(SpscRing, FreshRingIsEmptyWithFullRoom) {
  Ring ring;
  EXPECT_EQ(ring.consumer.peek(), nullptr);
  EXPECT_TRUE(ring.producer.has_room(kCells));
  EXPECT_FALSE(ring.producer.has_room(kCells + 1));
  EXPECT_EQ(ring.producer.capacity(), kCells);
  EXPECT_TRUE(ring.producer.attached());
  EXPECT_TRUE(ring.consumer.attached());
  EXPECT_FALSE(RingProducer{}.attached());
  EXPECT_FALSE(RingConsumer{}.attached());
}

TEST(SpscRing, TryPushFailsWhenFull) {
  Ring ring;
  for (std::uint32_t i = 0; i < kCells; ++i) {
    ASSERT_TRUE(try_push(ring.producer, 1, i, nullptr)) << i;
  }
  EXPECT_FALSE(ring.producer.has_room(1));
  EXPECT_FALSE(try_push(ring.producer, 1, 99, nullptr));
  ASSERT_TRUE(try_pop(ring.consumer).present);
  EXPECT_TRUE(ring.producer.has_room(1))
      << "the producer reloads the read index";
  EXPECT_FALSE(ring.producer.has_room(2));
  EXPECT_TRUE(try_push(ring.producer, 1, 99, nullptr));
}

// own_next() is a hint: at any fill level, around the wrap, it changes
// nothing a producer or consumer can see. Its callers check the CPU.
TEST(SpscRing, OwnNextChangesNothingVisible) {
  if (!base::has_prefetchw()) {
    GTEST_SKIP() << "no PREFETCHW on this CPU";
  }
  Ring ring;
  ring.advance(kCells - 2);  // next cells straddle the wrap
  for (std::uint32_t i = 0; i < kCells; ++i) {
    ring.producer.own_next();
    ASSERT_TRUE(try_push(ring.producer, 1, i, nullptr)) << i;
  }
  ring.producer.own_next();  // full: nothing is asked for
  EXPECT_FALSE(ring.producer.has_room(1));
  for (std::uint32_t i = 0; i < kCells; ++i) {
    test::Popped popped = try_pop(ring.consumer);
    ASSERT_TRUE(popped.present && popped.intact) << i;
    EXPECT_EQ(popped.id, i);
  }
  EXPECT_FALSE(try_pop(ring.consumer).present);
}

// has_room() at every fill level, from every start offset over two laps.
TEST(SpscRing, HasRoomExactBoundaries) {
  for (std::uint32_t start = 0; start <= 2 * kCells; ++start) {
    for (std::uint32_t fill = 0; fill <= kCells; ++fill) {
      Ring ring;
      ring.advance(start);
      for (std::uint32_t i = 0; i < fill; ++i) {
        ASSERT_TRUE(try_push(ring.producer, 1, i, nullptr));
      }
      const std::string where =
          "start " + std::to_string(start) + ", fill " + std::to_string(fill);
      EXPECT_TRUE(ring.producer.has_room(kCells - fill)) << where;
      EXPECT_FALSE(ring.producer.has_room(kCells - fill + 1)) << where;
      if (fill > 0) {
        ASSERT_TRUE(try_pop(ring.consumer).present) << where;
        EXPECT_TRUE(ring.producer.has_room(kCells - fill + 1))
            << where << ", after a pop";
        EXPECT_FALSE(ring.producer.has_room(kCells - fill + 2))
            << where << ", after a pop";
      }
    }
  }
}

// One message of each size 1..8 pushed and popped from every start offset
// over two laps, so every message crosses every wrap point; then a second
// message of the same size that starts where the first ended.
TEST(SpscRing, MessagesCrossTheWrapIntact) {
  for (std::uint32_t start = 0; start <= 2 * kCells; ++start) {
    for (std::uint32_t size = 1; size <= kCells; ++size) {
      Ring ring;
      ring.advance(start);
      const std::string where =
          "start " + std::to_string(start) + ", size " + std::to_string(size);
      for (std::uint64_t id : {std::uint64_t{1}, std::uint64_t{2}}) {
        bool parked = true;
        ASSERT_TRUE(try_push(ring.producer, size, id, &parked)) << where;
        EXPECT_FALSE(parked) << where;
        EXPECT_EQ(ring.producer.has_room(kCells - size + 1), false) << where;
        const Cell* head = ring.consumer.peek();
        ASSERT_NE(head, nullptr) << where;
        EXPECT_EQ(head->seq.load(),
                  seq_full(start + (id - 1) * size, kLog2Cells))
            << where;
        test::Popped popped = try_pop(ring.consumer);
        EXPECT_TRUE(popped.intact) << where;
        EXPECT_EQ(popped.id, id) << where;
        EXPECT_EQ(popped.cells, size) << where;
        EXPECT_EQ(ring.consumer.peek(), nullptr) << where;
      }
    }
  }
}

// Random interleavings of pushes and pops of 1..8-cell messages, checked
// against a model FIFO; has_room() must agree exactly with the model.
TEST(SpscRing, RandomSequencesMatchAModelQueue) {
  std::mt19937 random(12345);
  Ring ring;
  std::deque<std::pair<std::uint64_t, std::uint32_t>> model;  // id, cells
  std::uint32_t used = 0;
  std::uint64_t next_id = 0;
  for (int step = 0; step < 200000; ++step) {
    if (random() % 2 == 0) {
      const auto size = static_cast<std::uint32_t>(1 + random() % kCells);
      ASSERT_EQ(ring.producer.has_room(size), used + size <= kCells)
          << "step " << step;
      if (used + size <= kCells) {
        ASSERT_TRUE(try_push(ring.producer, size, next_id, nullptr));
        model.emplace_back(next_id++, size);
        used += size;
      }
    } else {
      test::Popped popped = try_pop(ring.consumer);
      ASSERT_EQ(popped.present, !model.empty()) << "step " << step;
      if (popped.present) {
        ASSERT_TRUE(popped.intact) << "step " << step;
        ASSERT_EQ(popped.id, model.front().first);
        ASSERT_EQ(popped.cells, model.front().second);
        used -= popped.cells;
        model.pop_front();
      }
    }
  }
}

TEST(SpscRing, ContinuationCellsFollowTheHead) {
  Ring ring;
  ring.advance(6);  // the five-cell message spans slots 6, 7, 0, 1, 2
  ASSERT_TRUE(try_push(ring.producer, 5, 42, nullptr));
  EXPECT_EQ(ring.memory.raw_cell(6).seq.load(), seq_full(6, kLog2Cells));
  for (std::uint32_t slot : {7u, 0u, 1u, 2u}) {
    EXPECT_EQ(ring.memory.raw_cell(slot).seq.load(), kContinuation)
        << "slot " << slot;
  }
  const Cell* head = ring.consumer.peek();
  ASSERT_NE(head, nullptr);
  EXPECT_EQ(head, &ring.memory.raw_cell(6));
  EXPECT_EQ(&ring.consumer.cell(2), &ring.memory.raw_cell(0)) << "cell() wraps";
  EXPECT_EQ(&ring.consumer.cell(4), &ring.memory.raw_cell(2));
  test::Popped popped = try_pop(ring.consumer);
  EXPECT_TRUE(popped.intact);
  EXPECT_EQ(popped.cells, 5u);
  // The next head lands on slot 3; slot 0 now holds a continuation, which
  // must not look like a message when the consumer gets there next lap.
  ring.advance(5);
  EXPECT_EQ(ring.consumer.peek(), nullptr);
}

TEST(SpscRing, PeekDoesNotConsume) {
  Ring ring;
  ASSERT_TRUE(try_push(ring.producer, 2, 7, nullptr));
  const Cell* first = ring.consumer.peek();
  EXPECT_EQ(ring.consumer.peek(), first);
  EXPECT_EQ(check_message(ring.consumer).id, 7u);
  EXPECT_FALSE(ring.producer.has_room(kCells - 1));
  (void)ring.consumer.release(2);
  EXPECT_EQ(ring.consumer.peek(), nullptr);
  EXPECT_TRUE(ring.producer.has_room(kCells));
}

TEST(SpscRing, PublishWithoutParkNeverReportsParked) {
  // Over many laps of mixed sizes, stale cells never look parked.
  std::mt19937 random(99);
  Ring ring;
  for (std::uint64_t id = 0; id < 20000; ++id) {
    const auto size = static_cast<std::uint32_t>(1 + random() % kCells);
    bool parked = true;
    ASSERT_TRUE(try_push(ring.producer, size, id, &parked));
    ASSERT_FALSE(parked) << "message " << id;
    ASSERT_TRUE(try_pop(ring.consumer).intact);
  }
}

// Park on an empty ring, from every start offset, after a message of every
// size (so the parked slot held a stale head or a stale continuation): the
// next publish reports the park exactly once.
TEST(SpscRing, TryParkOnEmptyRingThenPublishReportsItOnce) {
  for (std::uint32_t start = 0; start <= 2 * kCells; ++start) {
    for (std::uint32_t size = 1; size <= kCells; ++size) {
      Ring ring;
      ring.advance(start);
      ASSERT_TRUE(try_push(ring.producer, size, 5, nullptr));
      ASSERT_TRUE(try_pop(ring.consumer).intact);
      const std::string where =
          "start " + std::to_string(start) + ", size " + std::to_string(size);
      EXPECT_TRUE(ring.consumer.try_park()) << where;
      EXPECT_EQ(ring.consumer.peek(), nullptr)
          << where << ": a park is not a message";
      bool parked = false;
      ASSERT_TRUE(try_push(ring.producer, 1, 6, &parked));
      EXPECT_TRUE(parked) << where;
      ASSERT_TRUE(try_push(ring.producer, 1, 7, &parked));
      EXPECT_FALSE(parked) << where << ": only the first publish after a park";
      EXPECT_EQ(try_pop(ring.consumer).id, 6u) << where;
      EXPECT_EQ(try_pop(ring.consumer).id, 7u) << where;
    }
  }
}

TEST(SpscRing, TryParkFailsWhenAMessageIsPresent) {
  Ring ring;
  ring.advance(5);
  ASSERT_TRUE(try_push(ring.producer, 4, 8, nullptr));
  EXPECT_FALSE(ring.consumer.try_park());
  EXPECT_TRUE(check_message(ring.consumer).intact)
      << "a failed park leaves the message alone";
  ASSERT_TRUE(try_pop(ring.consumer).intact);
  EXPECT_TRUE(ring.consumer.try_park()) << "empty again";
}

TEST(SpscRing, TryParkTwiceIsOnePark) {
  Ring ring;
  ring.advance(3);
  EXPECT_TRUE(ring.consumer.try_park());
  EXPECT_TRUE(ring.consumer.try_park());
  bool parked = false;
  ASSERT_TRUE(try_push(ring.producer, 1, 1, &parked));
  EXPECT_TRUE(parked);
  ASSERT_TRUE(try_push(ring.producer, 1, 2, &parked));
  EXPECT_FALSE(parked);
}

TEST(SpscRing, ParkAgainAfterEachMessage) {
  Ring ring;
  for (std::uint64_t id = 0; id < 5 * kCells; ++id) {
    ASSERT_TRUE(ring.consumer.try_park()) << id;
    bool parked = false;
    ASSERT_TRUE(try_push(ring.producer, static_cast<std::uint32_t>(1 + id % 3),
                         id, &parked));
    EXPECT_TRUE(parked) << id;
    EXPECT_EQ(try_pop(ring.consumer).id, id);
  }
}

TEST(SpscRing, ParkInitialThenFirstPublishReportsIt) {
  RingMemory memory(kCells);
  RingConsumer::park_initial(memory.data());
  RingProducer producer(memory.data(), kCells);
  RingConsumer consumer(memory.data(), kCells);
  EXPECT_EQ(consumer.peek(), nullptr);
  EXPECT_TRUE(consumer.try_park()) << "already parked";
  bool parked = false;
  ASSERT_TRUE(try_push(producer, 2, 1, &parked));
  EXPECT_TRUE(parked);
  ASSERT_TRUE(try_push(producer, 1, 2, &parked));
  EXPECT_FALSE(parked);
  EXPECT_EQ(try_pop(consumer).id, 1u);
  EXPECT_EQ(try_pop(consumer).id, 2u);
}

TEST(SpscRing, ParkInitialWorksForEveryRingSize) {
  for (std::uint32_t cells : {8u, 16u, 64u, 1024u}) {
    RingMemory memory(cells);
    RingConsumer::park_initial(memory.data());
    RingProducer producer(memory.data(), cells);
    bool parked = false;
    ASSERT_TRUE(try_push(producer, 1, 1, &parked));
    EXPECT_TRUE(parked) << cells << " cells";
  }
}

TEST(SpscRing, AMessageAsLargeAsTheRingNeedsAnEmptyRing) {
  Ring ring;
  ring.advance(3);
  ASSERT_TRUE(try_push(ring.producer, 1, 1, nullptr));
  EXPECT_FALSE(ring.producer.has_room(kCells));
  ASSERT_TRUE(try_pop(ring.consumer).present);
  ASSERT_TRUE(try_push(ring.producer, kCells, 2, nullptr));
  test::Popped popped = try_pop(ring.consumer);
  EXPECT_TRUE(popped.intact);
  EXPECT_EQ(popped.cells, kCells);
}

}  // namespace
}  // namespace shmpi::shm_queues
