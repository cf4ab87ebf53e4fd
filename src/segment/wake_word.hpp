// SPDX-License-Identifier: MIT
// The sleep/wake protocol on a rank's wake word (RankControl::wake_word).
//
// Every event source (ring push, chunk publish, flag for a waiting peer,
// barrier release, abort) does: release store of the event, then
// wake_if_sleeping(target). A waiter does sleep_until_woken(): announce,
// fence, re-check, FUTEX_WAIT. The two seq_cst fences forbid the
// store->load reorderings that would lose a wake-up (Dekker): either the
// waiter's re-check sees the event, or the waker sees the sleeper count.
#pragma once

#include <atomic>
#include <cstdint>

#include "base/futex.hpp"
#include "base/membarrier.hpp"
#include "segment/header.hpp"

namespace shmpi::segment {

inline constexpr std::uint32_t kSleeperMask = 0xff;
inline constexpr std::uint32_t kWakeIncrement = 0x100;

[[gnu::cold]] inline void wake_now(RankControl& target) noexcept {
  // Relaxed: the futex syscall orders it; the change makes a sleeper that
  // has not entered FUTEX_WAIT yet return at once.
  target.wake_word.fetch_add(kWakeIncrement, std::memory_order_relaxed);
  base::futex_wake_all(target.wake_word);
}

// Call after the release store that publishes an event `target` may wait for.
inline void wake_if_sleeping(RankControl& target) noexcept {
  // seq_cst fence: our event store must be visible before we read the
  // sleeper count (pairs with the fence in sleep_until_woken()).
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if ((target.wake_word.load(std::memory_order_relaxed) & kSleeperMask) != 0)
      [[unlikely]] {
    wake_now(target);
  }
}

// wake_if_sleeping() for a caller that has just run a seq_cst fence (or
// RMW) after its event store: the same check without a second fence.
inline void wake_if_sleeping_fenced(RankControl& target) noexcept {
  // Relaxed: ordered by the caller's fence.
  if ((target.wake_word.load(std::memory_order_relaxed) & kSleeperMask) != 0)
      [[unlikely]] {
    wake_now(target);
  }
}

// Sleeps on the caller's own wake word until woken or timeout_ns passes,
// unless ready() is already true after announcing the sleep. With
// `job_sleepers` (SegmentHeader::sleepers) the sleep is also counted
// there, for wakers that run a light fence.
// True if it slept (called FUTEX_WAIT), false if ready() said no need.
template <typename Ready>
bool sleep_until_woken(
    RankControl& own, std::int64_t timeout_ns, Ready&& ready,
    std::atomic<std::uint32_t>* job_sleepers = nullptr) noexcept {
  if (job_sleepers != nullptr) {
    // Relaxed: ordered before the re-check by the fences below.
    job_sleepers->fetch_add(1, std::memory_order_relaxed);
  }
  // seq_cst RMW + fence: the announcement is visible before we re-check
  // (pairs with the fence in wake_if_sleeping()). Heavy: also pairs with
  // wakers that run only a light fence (base/membarrier.hpp;
  // coll/rounds.cpp).
  std::uint32_t seen =
      own.wake_word.fetch_add(1, std::memory_order_seq_cst) + 1;
  base::heavy_fence();
  const bool sleep = !ready();
  if (sleep) {
    base::futex_wait(own.wake_word, seen, timeout_ns);
  }
  // Relaxed: only the counts matter; nobody synchronises on the decrements.
  own.wake_word.fetch_sub(1, std::memory_order_relaxed);
  if (job_sleepers != nullptr) {
    job_sleepers->fetch_sub(1, std::memory_order_relaxed);
  }
  return sleep;
}

}  // namespace shmpi::segment
