// SPDX-License-Identifier: MIT
// Light and heavy fences (base/membarrier.hpp) on the store-buffering
// litmus test: each side stores its flag, fences, and loads the other's.
// Without fences x86 lets both loads see 0 (each store still in its core's
// store buffer); a light fence on one side and a heavy one on the other
// must forbid that, as two seq_cst fences do.
#include "base/membarrier.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>

namespace {

using shmpi::base::heavy_fence;
using shmpi::base::light_fence;
using shmpi::base::light_fences_on;
using shmpi::base::register_light_fences;

struct alignas(64) Word {
  std::atomic<std::uint32_t> value{0};
};

// Spins for `n` steps: each side waits a pseudo-random while before its
// store, so that in some rounds the two sides' stores and loads overlap.
void spin(std::uint32_t n) {
  for (std::uint32_t i = 0; i < n; ++i) {
    std::atomic_signal_fence(std::memory_order_seq_cst);
  }
}

std::uint32_t next_delay(std::uint32_t& state) {
  state = state * 1664525u + 1013904223u;
  return (state >> 16) % 256;
}

// Runs `rounds` rounds; returns how many ended with both loads seeing 0.
int both_missed(int rounds) {
  Word x;
  Word y;
  Word go;    // the round the light side may start
  Word done;  // rounds the light side has finished
  std::atomic<std::uint32_t> light_saw{0};
  std::thread light([&] {
    std::uint32_t state = 1;
    for (int r = 1; r <= rounds; ++r) {
      // Acquire: the heavy side's reset of x and y happened before.
      while (go.value.load(std::memory_order_acquire) !=
             static_cast<std::uint32_t>(r)) {
      }
      spin(next_delay(state));
      // Relaxed store and load: the fence under test orders them.
      x.value.store(1, std::memory_order_relaxed);
      light_fence();
      light_saw.store(y.value.load(std::memory_order_relaxed),
                      std::memory_order_relaxed);
      // Release: light_saw before the round counts as done.
      done.value.store(static_cast<std::uint32_t>(r),
                       std::memory_order_release);
    }
  });
  int missed = 0;
  std::uint32_t state = 2;
  for (int r = 1; r <= rounds; ++r) {
    x.value.store(0, std::memory_order_relaxed);
    y.value.store(0, std::memory_order_relaxed);
    // Release: the resets before the light side starts the round.
    go.value.store(static_cast<std::uint32_t>(r), std::memory_order_release);
    // The light side sees `go` a line transfer later: start later too.
    spin(64 + next_delay(state));
    y.value.store(1, std::memory_order_relaxed);
    heavy_fence();
    const std::uint32_t heavy_saw = x.value.load(std::memory_order_relaxed);
    // Acquire: pairs with the light side's release of done.
    while (done.value.load(std::memory_order_acquire) !=
           static_cast<std::uint32_t>(r)) {
    }
    if (heavy_saw == 0 && light_saw.load(std::memory_order_relaxed) == 0) {
      ++missed;
    }
  }
  light.join();
  return missed;
}

TEST(Membarrier, LightAndHeavyFencesForbidStoreBuffering) {
  // Where the kernel lacks expedited global membarriers both sides are
  // seq_cst fences, and the test still holds.
  register_light_fences();
  EXPECT_EQ(both_missed(20000), 0)
      << "light fences " << (light_fences_on() ? "on" : "off");
}

TEST(Membarrier, RegisteringTwiceIsHarmless) {
  const bool first = register_light_fences();
  EXPECT_EQ(register_light_fences(), first);
  EXPECT_EQ(light_fences_on(), first);
}

}  // namespace
