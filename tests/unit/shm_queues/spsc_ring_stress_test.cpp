// SPDX-License-Identifier: MIT
// SpscRing under concurrency: a producer and a consumer thread (visible to
// TSan), and a producer and a consumer process on a segment using the real
// doorbell and wake-word protocol.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <new>
#include <thread>

#include "ring_test_support.hpp"
#include "segment/header.hpp"
#include "segment/segment.hpp"
#include "segment/wake_word.hpp"
#include "shm_queues/spsc_ring.hpp"
#include "support/test_env.hpp"

namespace shmpi::shm_queues {
namespace {

using Clock = std::chrono::steady_clock;
using test::check_message;
using test::try_pop;
using test::try_push;

// Message sizes: mostly small, up to `max_cells`, fixed by the id so both
// sides know them.
std::uint32_t size_of(std::uint64_t id, std::uint32_t max_cells) {
  std::uint64_t x = id * 0x9e3779b97f4a7c15ULL;
  x ^= x >> 29;
  const auto roll = static_cast<std::uint32_t>(x % 16);
  return roll < 10 ? 1 : 1 + roll % max_cells;
}

// Busy-wait step: a pause, and every 64th time a yield, so the test also
// progresses when both threads share one core.
void relax(std::uint32_t& spins) {
  if (++spins % 64 == 0) {
    std::this_thread::yield();
  } else {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
}

struct StressResult {
  std::uint64_t received = 0;
  std::uint64_t corrupt = 0;
  std::uint64_t out_of_order = 0;
  std::uint64_t parks = 0;
  std::uint64_t rings = 0;
  std::uint64_t untold = 0;       // parked and never told
  std::uint64_t not_visible = 0;  // told, but the message was not there
};

TEST(SpscRing, ProducerAndConsumerThreadsWithParking) {
  constexpr std::uint32_t kCells = 16;
  constexpr std::uint32_t kMaxMessage = 8;
  const std::uint64_t messages = test::scaled(2000000);
  test::RingMemory memory(kCells);
  RingProducer producer(memory.data(), kCells);
  RingConsumer consumer(memory.data(), kCells);
  std::atomic<bool> doorbell{false};
  // What the producer sent in the end: it stops early when the time budget
  // runs out (a loaded machine, a sanitizer), so the run time stays bounded.
  std::atomic<std::uint64_t> total{UINT64_MAX};
  StressResult result;
  std::uint64_t final_parks = 0;  // parked after the last message: no bell due

  std::thread producer_thread([&] {
    const auto stop_at = Clock::now() + std::chrono::seconds(4);
    std::uint32_t spins = 0;
    std::uint64_t id = 0;
    for (; id < messages; ++id) {
      if (id % 1024 == 0 && Clock::now() > stop_at) {
        break;
      }
      bool parked = false;
      while (!try_push(producer, size_of(id, kMaxMessage), id, &parked)) {
        relax(spins);
      }
      if (parked) {
        ++result.rings;
        // Release: pairs with the consumer's acquire exchange; the message
        // that found the ring parked is visible to whoever sees the bell.
        doorbell.store(true, std::memory_order_release);
      }
      if (id % 4096 == 0) {
        // Go quiet for a moment so the consumer runs dry and parks.
        const auto until = Clock::now() + std::chrono::microseconds(200);
        while (Clock::now() < until) {
          relax(spins);
        }
      }
    }
    total.store(id, std::memory_order_release);
  });

  std::uint32_t idle = 0;
  std::uint32_t spins = 0;
  while (result.received != total.load(std::memory_order_acquire)) {
    test::Popped popped = try_pop(consumer);
    if (popped.present) {
      idle = 0;
      result.corrupt += popped.intact ? 0 : 1;
      result.out_of_order += popped.id == result.received ? 0 : 1;
      result.corrupt +=
          popped.cells == size_of(result.received, kMaxMessage) ? 0 : 1;
      ++result.received;
      continue;
    }
    // Park after 1 to 16 empty polls: sometimes at once, sometimes later.
    if (++idle < 1 + result.received % 16) {
      relax(spins);
      continue;
    }
    idle = 0;
    if (!consumer.try_park()) {
      continue;  // a message arrived just now
    }
    ++result.parks;
    const auto deadline = Clock::now() + std::chrono::seconds(5);
    bool told = false;
    bool finished = false;
    while (!(told = doorbell.exchange(false, std::memory_order_acquire)) &&
           Clock::now() < deadline) {
      if (total.load(std::memory_order_acquire) == result.received) {
        finished = true;
        break;
      }
      relax(spins);
    }
    if (finished) {
      ++final_parks;
      break;
    }
    if (!told) {
      ++result.untold;
      break;
    }
    result.not_visible += check_message(consumer).present ? 0 : 1;
  }
  if (result.untold != 0) {
    // Unblock the producer so it can finish: drain whatever it still sends.
    while (result.received != total.load(std::memory_order_acquire)) {
      if (try_pop(consumer).present) {
        ++result.received;
      }
    }
  }
  producer_thread.join();

  EXPECT_EQ(result.received, total.load());
  // Not a speed test: on a loaded machine the time budget may end the run
  // early; one quiet period (4096 messages) is enough to exercise parking.
  EXPECT_GE(result.received, std::min<std::uint64_t>(messages, 4097))
      << "the run ended before the first quiet period";
  EXPECT_EQ(result.corrupt, 0u);
  EXPECT_EQ(result.out_of_order, 0u);
  EXPECT_EQ(result.untold, 0u) << "a parked consumer was never told";
  EXPECT_EQ(result.not_visible, 0u)
      << "the doorbell rang before the message was visible";
  EXPECT_EQ(result.rings + final_parks, result.parks)
      << "each park is reported exactly once";
  EXPECT_GT(result.parks, 0u) << "the test should exercise parking";
}

// Both directions of a two-rank segment. Each side sends on its ring to the
// peer and receives on the peer's ring; an idle side parks its incoming ring
// and sleeps on its wake word until the peer rings its doorbell.
struct RankSide {
  segment::Segment* segment;
  std::uint32_t rank;
  std::uint32_t peer;
  RingProducer out;
  RingConsumer in;
  std::uint64_t parks = 0;
  std::uint64_t timeouts = 0;
  std::uint64_t errors = 0;

  RankSide(segment::Segment& seg, std::uint32_t me, std::uint32_t other)
      : segment(&seg), rank(me), peer(other) {
    const segment::SegmentLayout& layout = seg.layout();
    const std::uint32_t cells = layout.config.ring_cells;
    out = RingProducer(seg.base() + layout.ring_offset(me, other), cells);
    in = RingConsumer(seg.base() + layout.ring_offset(other, me), cells);
  }
  segment::RankControl& control(std::uint32_t of) const {
    return *segment->at<segment::RankControl>(
        segment->layout().control_offset(of));
  }
  void send(std::uint64_t id, std::uint32_t cells) {
    bool parked = false;
    while (!try_push(out, cells, id, &parked)) {
      std::this_thread::yield();
    }
    if (parked) {
      segment::RankControl& target = control(peer);
      // Release: the message is visible to the peer once it sees the bit.
      target.doorbell[0].fetch_or(std::uint64_t{1} << rank,
                                  std::memory_order_release);
      segment::wake_if_sleeping(target);
    }
  }
  // Called when there is nothing to do: park, then sleep until told.
  void idle_wait() {
    if (!in.try_park()) {
      return;
    }
    ++parks;
    segment::RankControl& own = control(rank);
    const std::uint64_t bit = std::uint64_t{1} << peer;
    auto told = [&] {
      return (own.doorbell[0].load(std::memory_order_acquire) & bit) != 0;
    };
    constexpr std::int64_t kTimeoutNs = 2'000'000'000;
    int timeouts_here = 0;
    while (!told() && timeouts_here < 3) {
      const auto start = Clock::now();
      segment::sleep_until_woken(own, kTimeoutNs, told);
      if (!told() &&
          Clock::now() - start >= std::chrono::nanoseconds(kTimeoutNs)) {
        ++timeouts;
        ++timeouts_here;
      }
    }
    // Acquire: pairs with the peer's release fetch_or. A bell may be left
    // over from the start-up park (park_initial), so being told does not
    // promise a message here.
    own.doorbell[0].fetch_and(~bit, std::memory_order_acquire);
  }
  bool check(const test::Popped& popped, std::uint64_t expected_id,
             std::uint32_t max_cells) {
    if (!popped.intact || popped.id != expected_id ||
        popped.cells != size_of(expected_id, max_cells)) {
      ++errors;
      return false;
    }
    return true;
  }
};

TEST(SpscRing, ProducerAndConsumerProcessesEchoThroughASegment) {
  segment::SegmentConfig config;
  config.nranks = 2;
  config.capacity = 2;
  config.ring_cells = 16;
  config.heap_bytes = 1 << 20;
  auto created = segment::Segment::create(config, 0);
  ASSERT_TRUE(created) << created.error().what;
  segment::Segment& segment = created.value();
  const segment::SegmentLayout& layout = segment.layout();
  for (std::uint32_t rank = 0; rank < 2; ++rank) {
    new (segment.base() + layout.control_offset(rank)) segment::RankControl{};
    for (std::uint32_t sender = 0; sender < 2; ++sender) {
      RingConsumer::park_initial(segment.base() +
                                 layout.ring_offset(sender, rank));
    }
  }
  constexpr std::uint32_t kMaxMessage = 6;
  const std::uint64_t messages = test::scaled(200000);

  // Rank 1 (child): echo every message back.
  pid_t child = test::fork_child([&] {
    RankSide side(segment, 1, 0);
    for (std::uint64_t id = 0; id < messages && side.errors == 0;) {
      test::Popped popped = try_pop(side.in);
      if (!popped.present) {
        side.idle_wait();
        continue;
      }
      side.check(popped, id, kMaxMessage);
      side.send(id, popped.cells);
      ++id;
    }
    if (side.errors != 0) {
      return 3;
    }
    return side.timeouts == 0 ? 0 : 4;
  });
  ASSERT_GT(child, 0);

  // Rank 0 (parent): stream messages and take the echoes as they come.
  RankSide side(segment, 0, 1);
  std::uint64_t sent = 0;
  std::uint64_t echoed = 0;
  while (echoed < messages && side.errors == 0 && side.timeouts < 3) {
    bool progress = false;
    if (sent < messages && side.out.has_room(size_of(sent, kMaxMessage))) {
      side.send(sent, size_of(sent, kMaxMessage));
      ++sent;
      progress = true;
    }
    for (test::Popped popped = try_pop(side.in); popped.present;
         popped = try_pop(side.in)) {
      side.check(popped, echoed, kMaxMessage);
      ++echoed;
      progress = true;
    }
    if (!progress) {
      side.idle_wait();
    }
  }
  EXPECT_EQ(test::wait_child(child), 0)
      << "3: bad message, 4: lost wake-up, -1: hung";
  EXPECT_EQ(echoed, messages);
  EXPECT_EQ(side.errors, 0u);
  EXPECT_EQ(side.timeouts, 0u)
      << "a lost wake-up: only the timeout woke rank 0";
  EXPECT_GT(side.parks, 0u);
}

}  // namespace
}  // namespace shmpi::shm_queues
