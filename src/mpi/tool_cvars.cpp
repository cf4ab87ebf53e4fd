// SPDX-License-Identifier: MIT
// The control variables: the runtime's knobs. Each reads the value in
// effect from where the runtime keeps it once MPI (or a session) has
// initialized this process, and before that the value initialization will
// use (runtime::knobs_from_environment(), which the runtime reads too).
// Only the sleep limit may change while running: it is process-local and
// every waiter reads it afresh before each sleep. The others are fixed when
// the engine is built, or by the launcher for the whole job.
#include <mpi.h>

#include <array>
#include <cstdint>
#include <limits>

#include "base/membarrier.hpp"
#include "io/sieve.hpp"
#include "mpi/tool_vars.hpp"
#include "runtime/knobs.hpp"
#include "runtime/runtime.hpp"
#include "segment/layout.hpp"
#include "shared_malloc/shared_malloc.hpp"

namespace shmpi::mpi::tool {
namespace {

constexpr std::int64_t kNsPerMs = 1'000'000;

runtime::Runtime* running() { return runtime::Runtime::published(); }

std::uint64_t read_eager_max() {
  if (runtime::Runtime* rt = running()) {
    return rt->engine().config().eager_max;
  }
  return runtime::knobs_from_environment().eager_max;
}

std::uint64_t read_ring_eager_max() {
  if (runtime::Runtime* rt = running()) {
    return rt->engine().config().ring_eager_max;
  }
  return runtime::knobs_from_environment().ring_eager_max;
}

std::uint64_t read_sleep_timeout_ms() {
  if (runtime::Runtime* rt = running()) {
    return static_cast<std::uint64_t>(rt->engine().sleep_timeout_ns() /
                                      kNsPerMs);
  }
  return static_cast<std::uint64_t>(
      runtime::knobs_from_environment().sleep_timeout_ns / kNsPerMs);
}

int write_sleep_timeout_ms(std::uint64_t value) {
  runtime::Runtime* rt = running();
  if (rt == nullptr) {
    // The engine that keeps it does not exist yet (SHMPI_SLEEP_TIMEOUT_MS
    // sets the first value).
    return MPI_T_ERR_CVAR_SET_NOT_NOW;
  }
  if (value > static_cast<std::uint64_t>(
                  std::numeric_limits<std::int64_t>::max() / kNsPerMs)) {
    return MPI_T_ERR_INVALID;
  }
  rt->engine().set_sleep_timeout_ns(static_cast<std::int64_t>(value) *
                                    kNsPerMs);
  return MPI_SUCCESS;
}

std::uint64_t read_shared_malloc() {
  if (running() != nullptr) {
    return shared_malloc::allocating() ? 1 : 0;
  }
  return runtime::knobs_from_environment().shared_malloc ? 1 : 0;
}

std::uint64_t read_fences() {
  if (running() != nullptr) {
    return base::light_fences_on() ? 1 : 0;
  }
  return runtime::knobs_from_environment().light_fences ? 1 : 0;
}

std::uint64_t read_heap_bytes() {
  if (runtime::Runtime* rt = running()) {
    return rt->segment().layout().heap_bytes;
  }
  const runtime::Knobs knobs = runtime::knobs_from_environment();
  if (knobs.segment.heap_bytes == 0) {
    return 0;  // the launcher's segment could not be read
  }
  return segment::compute_layout(knobs.segment).heap_bytes;
}

std::uint64_t read_sieve_bytes() { return io::kSieveBytes; }

const std::array<CvarInfo, 7> kCvars{{
    {"shmpi_eager_max",
     "bytes up to which a standard send completes before the receive is "
     "posted (SHMPI_EAGER_MAX); larger ones wait for the match",
     MPI_T_VERBOSITY_TUNER_BASIC, ValueType::kUnsignedLongLong, nullptr,
     MPI_T_SCOPE_READONLY, Category::kPointToPoint, read_eager_max, nullptr},
    {"shmpi_ring_eager_max",
     "bytes up to which a message travels inside the ring's cells "
     "(SHMPI_RING_EAGER_MAX, at most half a ring)",
     MPI_T_VERBOSITY_TUNER_DETAIL, ValueType::kUnsignedLongLong, nullptr,
     MPI_T_SCOPE_READONLY, Category::kPointToPoint, read_ring_eager_max,
     nullptr},
    {"shmpi_sleep_timeout_ms",
     "milliseconds a sleeping waiter sleeps at most before it looks again; "
     "0: until woken (SHMPI_SLEEP_TIMEOUT_MS); settable after MPI "
     "initialization, from the next sleep on",
     MPI_T_VERBOSITY_TUNER_DETAIL, ValueType::kUnsignedLongLong, nullptr,
     MPI_T_SCOPE_LOCAL, Category::kProgress, read_sleep_timeout_ms,
     write_sleep_timeout_ms},
    {"shmpi_light_fences",
     "how waiters and publishers order their Dekker pairs: membarrier(2) "
     "unless SHMPI_NO_LIGHT_FENCES is set or the kernel lacks it",
     MPI_T_VERBOSITY_MPIDEV_DETAIL, ValueType::kInt, &kFenceEnum,
     MPI_T_SCOPE_READONLY, Category::kProgress, read_fences, nullptr},
    {"shmpi_shared_malloc",
     "whether large malloc blocks of this process come from the shared "
     "heap, so that sends from them are copied once (off with "
     "SHMPI_SHARED_MALLOC=0)",
     MPI_T_VERBOSITY_TUNER_BASIC, ValueType::kInt, &kOnOffEnum,
     MPI_T_SCOPE_READONLY, Category::kMemory, read_shared_malloc, nullptr},
    {"shmpi_heap_bytes",
     "bytes of the job's shared heap (shmpirun --heap-size)",
     MPI_T_VERBOSITY_USER_BASIC, ValueType::kUnsignedLongLong, nullptr,
     MPI_T_SCOPE_CONSTANT, Category::kMemory, read_heap_bytes, nullptr},
    {"shmpi_io_sieve_bytes",
     "bytes of one data-sieving block of MPI-IO reads and writes",
     MPI_T_VERBOSITY_TUNER_DETAIL, ValueType::kUnsignedLongLong, nullptr,
     MPI_T_SCOPE_CONSTANT, Category::kIo, read_sieve_bytes, nullptr},
}};

}  // namespace

std::span<const CvarInfo> cvars() noexcept { return kCvars; }

}  // namespace shmpi::mpi::tool
