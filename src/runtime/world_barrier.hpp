// SPDX-License-Identifier: MIT
// The world barrier block at the start of the segment's scratch area: a
// sense counter that the last arriving rank resets. Used at start-up and in
// MPI_Finalize, where the world's communicator block is not (yet, or any
// more) in use; MPI_Barrier runs on the communicator's block like every
// other collective.
#pragma once

#include <atomic>
#include <cstdint>
#include <type_traits>

#include "base/cache_line.hpp"

namespace shmpi::runtime {

struct WorldBarrierBlock {
  // Arrival line: every rank increments; the last arrival resets it.
  alignas(kFalseSharingRange) std::atomic<std::uint32_t> arrived;
  // Release line: written by the last arrival (epoch + 1), read by all.
  alignas(kFalseSharingRange) std::atomic<std::uint64_t> epoch;
};
static_assert(std::is_standard_layout_v<WorldBarrierBlock>, "shared by offset");
static_assert(sizeof(WorldBarrierBlock) == 2 * kFalseSharingRange,
              "one writer per line");

}  // namespace shmpi::runtime
