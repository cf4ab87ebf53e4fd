// SPDX-License-Identifier: MIT
// The wake-word protocol: sleep_until_woken() / wake_if_sleeping() between
// threads and between processes, and no lost wake-up under stress.
#include "segment/wake_word.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <new>
#include <thread>
#include <vector>

#include "segment/header.hpp"
#include "segment/segment.hpp"
#include "support/test_env.hpp"

namespace shmpi::segment {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr std::int64_t kMs = 1000 * 1000;  // nanoseconds

std::uint32_t sleepers(const RankControl& control) {
  return control.wake_word.load(std::memory_order_relaxed) & kSleeperMask;
}

// Waits (polling) until `control` has `count` announced sleepers.
bool await_sleepers(const RankControl& control, std::uint32_t count,
                    milliseconds timeout = milliseconds(5000)) {
  auto deadline = Clock::now() + timeout;
  while (sleepers(control) < count) {
    if (Clock::now() > deadline) {
      return false;
    }
    std::this_thread::yield();
  }
  return true;
}

// One page of MAP_SHARED anonymous memory: survives fork as shared memory.
struct SharedPage {
  SharedPage() {
    memory = ::mmap(nullptr, kPageSize, PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  }
  ~SharedPage() { ::munmap(memory, kPageSize); }
  SharedPage(const SharedPage&) = delete;
  SharedPage& operator=(const SharedPage&) = delete;
  void* memory;
};

// A rank's control block and an event flag, laid out as in the segment.
struct WakePair {
  RankControl control;
  alignas(kFalseSharingRange) std::atomic<std::uint32_t> flag;
};

TEST(WakeWord, ReturnsAtOnceWhenAlreadyReady) {
  RankControl control{};
  const auto start = Clock::now();
  sleep_until_woken(control, 10000 * kMs, [] { return true; });
  EXPECT_LT(Clock::now() - start, milliseconds(1000));
  EXPECT_EQ(sleepers(control), 0u) << "the announcement is withdrawn";
}

TEST(WakeWord, RespectsTheTimeout) {
  RankControl control{};
  const auto start = Clock::now();
  sleep_until_woken(control, 50 * kMs, [] { return false; });
  const auto elapsed = Clock::now() - start;
  EXPECT_GE(elapsed, milliseconds(45));
  EXPECT_LT(elapsed, milliseconds(2000));
  EXPECT_EQ(sleepers(control), 0u);
}

TEST(WakeWord, WakeIfSleepingLeavesAnIdleWordAlone) {
  RankControl control{};
  wake_if_sleeping(control);
  EXPECT_EQ(control.wake_word.load(), 0u)
      << "no sleeper: no sequence bump, no syscall";
}

TEST(WakeWord, WakeNowBumpsTheSequenceNotTheCount) {
  RankControl control{};
  wake_now(control);
  EXPECT_EQ(control.wake_word.load(), kWakeIncrement);
  EXPECT_EQ(sleepers(control), 0u);
}

TEST(WakeWord, AnotherThreadWakesTheSleeper) {
  WakePair pair{};
  std::atomic<bool> saw_flag{false};
  Clock::duration slept{};
  std::thread sleeper([&] {
    const auto start = Clock::now();
    sleep_until_woken(pair.control, 10000 * kMs, [&] {
      return pair.flag.load(std::memory_order_acquire) != 0;
    });
    slept = Clock::now() - start;
    saw_flag.store(pair.flag.load(std::memory_order_acquire) != 0);
  });
  ASSERT_TRUE(await_sleepers(pair.control, 1));
  std::this_thread::sleep_for(milliseconds(20));  // let it reach FUTEX_WAIT
  pair.flag.store(1, std::memory_order_release);
  wake_if_sleeping(pair.control);
  sleeper.join();
  EXPECT_TRUE(saw_flag.load());
  EXPECT_LT(slept, milliseconds(5000)) << "woken, not timed out";
  EXPECT_EQ(sleepers(pair.control), 0u);
}

TEST(WakeWord, OneWakeReachesEverySleeper) {
  WakePair pair{};
  constexpr int kSleepers = 3;
  std::atomic<int> timed_out{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kSleepers; ++i) {
    threads.emplace_back([&] {
      const auto start = Clock::now();
      while (pair.flag.load(std::memory_order_acquire) == 0) {
        sleep_until_woken(pair.control, 5000 * kMs, [&] {
          return pair.flag.load(std::memory_order_acquire) != 0;
        });
        if (Clock::now() - start > milliseconds(4000)) {
          timed_out.fetch_add(1);
          return;
        }
      }
    });
  }
  ASSERT_TRUE(await_sleepers(pair.control, kSleepers));
  std::this_thread::sleep_for(milliseconds(20));
  pair.flag.store(1, std::memory_order_release);
  wake_if_sleeping(pair.control);
  for (auto& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(timed_out.load(), 0);
  EXPECT_EQ(sleepers(pair.control), 0u);
}

// One side of a ping-pong: its own wake word and flag, and its peer's.
struct Endpoint {
  RankControl* control;
  std::atomic<std::uint32_t>* flag;
};

// Counts the waits of one side of a ping-pong that needed their timeout.
struct PingPongSide {
  Endpoint own;
  Endpoint peer;
  std::int64_t timeout_ns;
  std::uint32_t rounds;
  std::uint32_t timeouts = 0;

  void run(bool starts) {
    for (std::uint32_t round = 1; round <= rounds; ++round) {
      if (starts) {
        post(round);
        wait_for(round);
      } else {
        wait_for(round);
        post(round);
      }
    }
  }
  void post(std::uint32_t round) {
    peer.flag->store(round, std::memory_order_release);
    wake_if_sleeping(*peer.control);
  }
  void wait_for(std::uint32_t round) {
    auto ready = [&] {
      return own.flag->load(std::memory_order_acquire) >= round;
    };
    int timeouts_here = 0;
    while (!ready() && timeouts_here < 3) {  // three in a row: the peer is gone
      const auto start = Clock::now();
      sleep_until_woken(*own.control, timeout_ns, ready);
      if (!ready() &&
          Clock::now() - start >= std::chrono::nanoseconds(timeout_ns)) {
        ++timeouts;  // a lost wake-up: only the timeout got us out
        ++timeouts_here;
      }
    }
  }
};

TEST(WakeWord, NoLostWakeUpBetweenThreads) {
  WakePair a{};
  WakePair b{};
  const auto rounds = static_cast<std::uint32_t>(test::scaled(100000));
  const Endpoint ea{&a.control, &a.flag};
  const Endpoint eb{&b.control, &b.flag};
  PingPongSide ping{ea, eb, 2000 * kMs, rounds};
  PingPongSide pong{eb, ea, 2000 * kMs, rounds};
  std::thread other([&] { pong.run(false); });
  ping.run(true);
  other.join();
  EXPECT_EQ(ping.timeouts, 0u);
  EXPECT_EQ(pong.timeouts, 0u);
  EXPECT_EQ(a.flag.load(), rounds);
  EXPECT_EQ(b.flag.load(), rounds);
}

TEST(WakeWord, AChildProcessIsWokenThroughASharedMapping) {
  SharedPage page;
  ASSERT_NE(page.memory, MAP_FAILED);
  auto* pair = new (page.memory) WakePair{};
  pid_t child = test::fork_child([pair] {
    const auto start = Clock::now();
    while (pair->flag.load(std::memory_order_acquire) == 0) {
      sleep_until_woken(pair->control, 10000 * kMs, [pair] {
        return pair->flag.load(std::memory_order_acquire) != 0;
      });
      if (Clock::now() - start > milliseconds(5000)) {
        return 3;  // the parent's wake never arrived
      }
    }
    return 0;
  });
  ASSERT_GT(child, 0);
  ASSERT_TRUE(await_sleepers(pair->control, 1));
  std::this_thread::sleep_for(milliseconds(20));  // let it reach FUTEX_WAIT
  pair->flag.store(1, std::memory_order_release);
  wake_if_sleeping(pair->control);
  EXPECT_EQ(test::wait_child(child), 0);
}

TEST(WakeWord, NoLostWakeUpBetweenProcesses) {
  // The ping-pong of the thread test, across fork, on a segment's control
  // blocks (memfd, MAP_SHARED), as ranks use them.
  SegmentConfig config;
  config.nranks = 2;
  config.capacity = 2;
  config.heap_bytes = 1 << 20;
  auto created = Segment::create(config, 0);
  ASSERT_TRUE(created) << created.error().what;
  Segment& segment = created.value();
  // The ranks' wake words are their RankControls; their flags sit in
  // separate scratch lines.
  const SegmentLayout& layout = segment.layout();
  Endpoint ends[2];
  for (std::uint32_t rank = 0; rank < 2; ++rank) {
    ends[rank].control = segment.at<RankControl>(layout.control_offset(rank));
    ends[rank].flag =
        new (segment.base() + layout.scratch_offset + rank * kFalseSharingRange)
            std::atomic<std::uint32_t>(0);
  }
  const auto rounds = static_cast<std::uint32_t>(test::scaled(50000));
  pid_t child = test::fork_child([&] {
    PingPongSide pong{ends[1], ends[0], 2000 * kMs, rounds};
    pong.run(false);
    return pong.timeouts == 0 ? 0 : 4;
  });
  ASSERT_GT(child, 0);
  PingPongSide ping{ends[0], ends[1], 2000 * kMs, rounds};
  ping.run(true);
  EXPECT_EQ(test::wait_child(child), 0) << "the child needed a timeout";
  EXPECT_EQ(ping.timeouts, 0u);
}

}  // namespace
}  // namespace shmpi::segment
