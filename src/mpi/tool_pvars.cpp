// SPDX-License-Identifier: MIT
// The performance variables: state the library keeps anyway (the matching
// queues' lengths, the shared heap's bookkeeping) and counters on slow
// paths (sleeps in the wait loop, bytes moved by file system calls). All
// read 0 before this process has initialized MPI or a session.
#include <mpi.h>

#include <array>
#include <cstdint>

#include "io/posix_file.hpp"
#include "mpi/tool_vars.hpp"
#include "runtime/runtime.hpp"
#include "segment/shared_heap.hpp"

namespace shmpi::mpi::tool {
namespace {

runtime::Runtime* running() { return runtime::Runtime::published(); }

std::uint64_t posted_length() {
  runtime::Runtime* rt = running();
  return rt == nullptr ? 0 : rt->engine().matching().posted_count();
}

std::uint64_t unexpected_length() {
  runtime::Runtime* rt = running();
  return rt == nullptr ? 0 : rt->engine().matching().unexpected_count();
}

std::uint64_t unexpected_peak() {
  runtime::Runtime* rt = running();
  return rt == nullptr ? 0 : rt->engine().take_unexpected_peak();
}

std::uint64_t wait_sleeps() {
  runtime::Runtime* rt = running();
  return rt == nullptr ? 0 : rt->engine().sleeps();
}

std::uint64_t heap_bytes() {
  runtime::Runtime* rt = running();
  return rt == nullptr ? 0 : rt->segment().layout().heap_bytes;
}

std::uint64_t heap_bytes_in_use() {
  runtime::Runtime* rt = running();
  if (rt == nullptr) {
    return 0;
  }
  // The allocator's own accounting (bookkeeping included), read without
  // its lock: a momentary value, which is all a level promises.
  const std::uint64_t free = rt->segment().heap().free_bytes();
  const std::uint64_t total = rt->segment().layout().heap_bytes;
  return free < total ? total - free : 0;
}

std::uint64_t io_bytes_read() { return io::bytes_read(); }
std::uint64_t io_bytes_written() { return io::bytes_written(); }

// Levels are continuous and read-only (resetting a queue's length means
// nothing); counters start and stop, and reset or write only the handle's
// view, so they are writable, and atomic: one sample serves read and reset.
const std::array<PvarInfo, 8> kPvars{{
    {"shmpi_posted_recv_queue_length",
     "receives posted by this process and not yet matched",
     MPI_T_VERBOSITY_USER_DETAIL, MPI_T_PVAR_CLASS_LEVEL, PvarKind::kLevel,
     Category::kPointToPoint, true, true, false, posted_length, nullptr},
    {"shmpi_unexpected_queue_length",
     "messages that arrived at this process before a matching receive, "
     "still waiting for one",
     MPI_T_VERBOSITY_USER_DETAIL, MPI_T_PVAR_CLASS_LEVEL, PvarKind::kLevel,
     Category::kPointToPoint, true, true, false, unexpected_length, nullptr},
    {"shmpi_unexpected_queue_peak",
     "the longest the unexpected-message queue has been since the handle "
     "was allocated or reset",
     MPI_T_VERBOSITY_USER_DETAIL, MPI_T_PVAR_CLASS_HIGHWATERMARK,
     PvarKind::kHighWatermark, Category::kPointToPoint, false, true, false,
     unexpected_length, unexpected_peak},
    {"shmpi_wait_sleeps",
     "times a waiting thread of this process went to sleep on its wake "
     "word instead of polling",
     MPI_T_VERBOSITY_TUNER_BASIC, MPI_T_PVAR_CLASS_COUNTER, PvarKind::kCounter,
     Category::kProgress, false, false, true, wait_sleeps, nullptr},
    {"shmpi_heap_bytes_in_use",
     "bytes of the job's shared heap allocated (by any rank)",
     MPI_T_VERBOSITY_USER_DETAIL, MPI_T_PVAR_CLASS_LEVEL, PvarKind::kLevel,
     Category::kMemory, true, true, false, heap_bytes_in_use, nullptr},
    {"shmpi_heap_size", "bytes of the job's shared heap",
     MPI_T_VERBOSITY_USER_BASIC, MPI_T_PVAR_CLASS_SIZE, PvarKind::kLevel,
     Category::kMemory, true, true, false, heap_bytes, nullptr},
    {"shmpi_io_bytes_read",
     "bytes this process read from files (MPI-IO, data sieving's whole "
     "blocks included)",
     MPI_T_VERBOSITY_USER_BASIC, MPI_T_PVAR_CLASS_COUNTER, PvarKind::kCounter,
     Category::kIo, false, false, true, io_bytes_read, nullptr},
    {"shmpi_io_bytes_written",
     "bytes this process wrote to files (MPI-IO, data sieving's whole "
     "blocks included)",
     MPI_T_VERBOSITY_USER_BASIC, MPI_T_PVAR_CLASS_COUNTER, PvarKind::kCounter,
     Category::kIo, false, false, true, io_bytes_written, nullptr},
}};

}  // namespace

std::span<const PvarInfo> pvars() noexcept { return kPvars; }

}  // namespace shmpi::mpi::tool
