// SPDX-License-Identifier: MIT
// Asymmetric fences over membarrier(2): where one side of a Dekker pair
// runs on every call and the other rarely, the frequent side needs only a
// compiler barrier if the rare side makes every running thread of every
// registered process execute a full barrier (MEMBARRIER_CMD_GLOBAL_
// EXPEDITED). On x86 the frequent side then no longer waits for its store
// to leave the store buffer.
#pragma once

#include <atomic>

namespace shmpi::base {

// Registers this process for expedited global membarriers. True when the
// kernel has them (Linux 4.16 and later); then light_fence() may replace a
// seq_cst fence on the frequent side. Call before the first light_fence().
bool register_light_fences() noexcept;

namespace detail {
// Set by register_light_fences(). Relaxed: written once at start-up,
// before the threads that read it exist or after they synchronised with
// MPI_Init.
inline std::atomic<bool> light_fences_registered{false};
}  // namespace detail

// True once register_light_fences() succeeded in this process.
inline bool light_fences_on() noexcept {
  return detail::light_fences_registered.load(std::memory_order_relaxed);
}

// The frequent side: a compiler barrier when this process is registered,
// else a seq_cst fence.
inline void light_fence() noexcept {
  if (light_fences_on()) {
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
}

// The rare side: a seq_cst fence, then, where the kernel has them, an
// expedited global membarrier, after which every registered process's
// stores before its light_fence() are visible, or its loads after it see
// ours.
void heavy_fence() noexcept;

}  // namespace shmpi::base
