// SPDX-License-Identifier: MIT
// The runtime's tuning knobs as this process will start with them: the
// engine's defaults overridden by the environment (SHMPI_EAGER_MAX and
// friends), and the shared-heap size of the job. Runtime::initialize() builds
// the engine from them; MPI_T reports them before MPI_Init (src/mpi/
// tool_cvars.cpp), so both read the environment the same way.
#pragma once

#include <cstddef>
#include <cstdint>

#include "segment/layout.hpp"

namespace shmpi::runtime {

struct Knobs {
  std::size_t eager_max = 0;  // SHMPI_EAGER_MAX
  // SHMPI_RING_EAGER_MAX, clamped to half a ring as the engine does
  std::size_t ring_eager_max = 0;
  std::int64_t sleep_timeout_ns = 0;  // SHMPI_SLEEP_TIMEOUT_MS, in ns
  bool light_fences = true;           // unless SHMPI_NO_LIGHT_FENCES is set
  bool launched = false;              // started by shmpirun (SHMPI_SEGMENT_FD)
  bool shared_malloc = false;         // launched, unless SHMPI_SHARED_MALLOC=0
  // The job's segment configuration: what the launcher chose (read from
  // the segment header), or a singleton's (private 64 MiB heap). When the
  // header is unreadable, the defaults with heap_bytes 0.
  segment::SegmentConfig segment;
};

// The heap of a program started without shmpirun.
inline constexpr std::uint64_t kSingletonHeapBytes = 64ULL << 20;

// Reads the environment (and, when launched, the segment header) now.
// Safe from any thread; allocates nothing.
Knobs knobs_from_environment() noexcept;

}  // namespace shmpi::runtime
