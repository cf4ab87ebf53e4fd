// SPDX-License-Identifier: MIT
// The shared file pointer of one open file (MPI 4.0 §14.4.4), in the job's
// segment where every process of the file's group reaches it. Rank 0 of
// the file allocates it from the shared heap at MPI_File_open and frees it
// at MPI_File_close.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace shmpi::io {

struct alignas(64) SharedPointer {
  // In etypes of the current view. The data-access calls reserve their
  // part with fetch_add and nothing else is published through it, so
  // relaxed is enough there; the collective calls that set it (seek_shared,
  // set_view, the ordered calls) are followed by a barrier or a broadcast,
  // which orders it for the others.
  std::atomic<std::int64_t> position{0};
  std::byte pad[56];
};
static_assert(sizeof(SharedPointer) == 64 && alignof(SharedPointer) == 64,
              "one cache line in the segment");
static_assert(std::atomic<std::int64_t>::is_always_lock_free,
              "shared between processes");

}  // namespace shmpi::io
