// SPDX-License-Identifier: MIT
// Engine::wait_until: spin, then yield, then sleep (docs/design.md#waiting).
// Ranks often outnumber cores, so a waiter must give its core away quickly
// when spinning does not pay; a sleeper parks its rings first, so any push
// rings its doorbell and wakes it.
#pragma once

#include <sched.h>

#include <chrono>

#include "base/tool_event_hook.hpp"
#include "p2p/engine.hpp"
#include "segment/wake_word.hpp"

namespace shmpi::p2p {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// A cheap clock for telling a yield that took a whole time slice from one
// that did not: the time-stamp counter (constant-rate on the CPUs this
// runs on), elsewhere steady_clock in nanoseconds.
inline std::uint64_t cpu_ticks() {
#if defined(__x86_64__)
  return __builtin_ia32_rdtsc();
#else
  return static_cast<std::uint64_t>(
      std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

template <typename Done, typename Hint>
void Engine::wait_until(Done&& done, Hint&& hint) {
  if (done()) {
    return;
  }
  // MPI_T: when a tool listens for sleeps, the wait's start time (one
  // relaxed load of a process-local word otherwise; tool_event_hook.hpp).
  const std::int64_t wait_start_ns =
      base::tool_events::armed(base::tool_events::EventType::kWaitSleep)
          ? base::tool_events::monotonic_ns()
          : 0;
  // Spin budget: long when every rank has its own core, short otherwise:
  // the rank we wait for may share our core and cannot run while we poll
  // (docs/design.md#waiting: 8 rounds instead of 64 halved an 8-byte
  // broadcast at 4 ranks on 2 cores).
  const int spin_rounds = config_.oversubscribed ? 8 : 4096;
  const int yield_rounds = config_.oversubscribed ? 16 : 256;
  PollHint first = config_.oversubscribed ? hint() : PollHint::kAsUsual;
  auto spin = [&] {
    // No pause in the spin: on recent Intel cores one `pause` costs about
    // as much as a cache-line transfer, which is the latency we are after.
    for (int i = 0; i < spin_rounds; ++i) {
      progress();
      if (done()) {
        return true;
      }
    }
    return false;
  };
  if (first == PollHint::kLookThenYield) {
    progress();
    if (done()) {
      return;
    }
    first = PollHint::kYieldAtOnce;
  }
  for (;;) {
    if (first != PollHint::kYieldAtOnce && spin()) {
      return;
    }
    // Once per wait: a yield would hand our core to a rank that can only
    // wait as we do, while the one we wait for runs on another core.
    if (first == PollHint::kLonger) {
      const std::uint64_t until = cpu_ticks() + kPollLongerTicks;
      do {
        if (spin()) {
          return;
        }
      } while (cpu_ticks() < until && hint() == PollHint::kLonger);
    }
    first = PollHint::kAsUsual;
    // Before giving the core away: a sender waiting for chunks that
    // unmatched messages hold must not wait on us.
    relieve_before_waiting();
    if (const std::uint32_t skip = skip_yields_.load(std::memory_order_relaxed);
        skip != 0) {
      // Other programs want the cores: a yield would hand one of them a
      // whole time slice (note_long_yield()).
      skip_yields_.store(skip - 1, std::memory_order_relaxed);
    } else {
      for (int i = 0; i < yield_rounds; ++i) {
        const std::uint64_t before = cpu_ticks();
        ::sched_yield();
        const bool long_yield = cpu_ticks() - before >= kLongYieldTicks;
        progress();
        const bool crowded = long_yield && note_long_yield();
        if (done()) {
          return;
        }
        if (crowded) {
          break;  // to sleep
        }
      }
    }
    if (abort_raised()) {
      abort_wait();
    }
    if (!park_all_rings()) {
      continue;  // a message is already waiting
    }
    // done() is not asked again once it has said true: MPI_Mprobe's takes
    // the message it finds, and a second call found none and waited on
    // (p2p.large_count hung about once in 300 runs under ASan).
    bool finished = false;
    std::int64_t sleep_start_ns = -1;  // >= 0 once we go to sleep
    const bool slept = segment::sleep_until_woken(
        *own_control_, sleep_timeout_ns(),
        [&] {
          // After announcing the sleep: a sender that registered for
          // chunks before it saw us asleep is served here (Dekker, as for
          // messages).
          const bool ready = relieve_before_waiting() || progress() ||
                             (finished = done()) || abort_raised();
          if (!ready &&
              base::tool_events::armed(base::tool_events::EventType::kWaitWake))
              [[unlikely]] {
            sleep_start_ns = base::tool_events::monotonic_ns();
          }
          if (!ready && base::tool_events::armed(
                            base::tool_events::EventType::kWaitSleep))
              [[unlikely]] {
            // Before FUTEX_WAIT: a wake-up meanwhile changes the wake word,
            // so the wait returns at once and none is lost.
            raise_sleep_event(wait_start_ns);
          }
          return ready;
        },
        &segment_.header().sleepers);
    if (slept) {
      // Relaxed: a statistic (sleeps_).
      sleeps_.fetch_add(1, std::memory_order_relaxed);
    }
    if (sleep_start_ns >= 0) [[unlikely]] {
      raise_wake_event(sleep_start_ns);
    }
    if (finished || done()) {
      return;
    }
  }
}

}  // namespace shmpi::p2p
