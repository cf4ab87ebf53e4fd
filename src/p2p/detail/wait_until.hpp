// SPDX-License-Identifier: MIT
// Engine::wait_until: spin, then yield, then sleep (docs/design.md#waiting).
// Ranks often outnumber cores, so a waiter must give its core away quickly
// when spinning does not pay; a sleeper parks its rings first, so any push
// rings its doorbell and wakes it.
#pragma once

#include <sched.h>

#include <chrono>

#include "p2p/engine.hpp"
#include "segment/wake_word.hpp"

namespace shmpi::p2p {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

template <typename Done>
void Engine::wait_until(Done&& done) {
  if (done()) {
    return;
  }
  // Spin budget: long when every rank has its own core, short otherwise:
  // the rank we wait for may share our core and cannot run while we poll
  // (docs/design.md#waiting: 8 rounds instead of 64 halved an 8-byte
  // broadcast at 4 ranks on 2 cores).
  const int spin_rounds = config_.oversubscribed ? 8 : 4096;
  const int yield_rounds = config_.oversubscribed ? 16 : 256;
  constexpr std::int64_t kSleepTimeoutNs = 100'000'000;  // safety net only
  for (;;) {
    // No pause in the spin: on recent Intel cores one `pause` costs about
    // as much as a cache-line transfer, which is the latency we are after.
    for (int i = 0; i < spin_rounds; ++i) {
      progress();
      if (done()) {
        return;
      }
    }
    // Before giving the core away: a sender waiting for chunks that
    // unmatched messages hold must not wait on us.
    relieve_before_waiting();
    for (int i = 0; i < yield_rounds; ++i) {
      ::sched_yield();
      progress();
      if (done()) {
        return;
      }
    }
    if (abort_raised()) {
      abort_wait();
    }
    if (!park_all_rings()) {
      continue;  // a message is already waiting
    }
    bool ready = false;
    segment::sleep_until_woken(*own_control_, kSleepTimeoutNs, [&] {
      // After announcing the sleep: a sender that registered for chunks
      // before it saw us asleep is served here (Dekker, as for messages).
      ready =
          relieve_before_waiting() || progress() || done() || abort_raised();
      return ready;
    });
    if (done()) {
      return;
    }
  }
}

}  // namespace shmpi::p2p
