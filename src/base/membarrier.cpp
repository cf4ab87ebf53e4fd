// SPDX-License-Identifier: MIT
#include "base/membarrier.hpp"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace shmpi::base {

namespace {

long membarrier(int command) noexcept {
  return ::syscall(__NR_membarrier, command, 0, 0);
}

// -1 not asked yet, 0 no expedited global membarrier, 1 there is one.
// Relaxed: every thread that asks gets the same answer.
std::atomic<int> g_available{-1};

bool expedited_available() noexcept {
  int available = g_available.load(std::memory_order_relaxed);
  if (available < 0) {
    const long commands = membarrier(MEMBARRIER_CMD_QUERY);
    available =
        commands > 0 && (commands & MEMBARRIER_CMD_GLOBAL_EXPEDITED) != 0 ? 1
                                                                          : 0;
    g_available.store(available, std::memory_order_relaxed);
  }
  return available > 0;
}

}  // namespace

bool register_light_fences() noexcept {
  if (!expedited_available() ||
      membarrier(MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED) != 0) {
    return false;
  }
  detail::light_fences_registered.store(true, std::memory_order_relaxed);
  return true;
}

void heavy_fence() noexcept {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (expedited_available()) {
    membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED);
  }
}

}  // namespace shmpi::base
