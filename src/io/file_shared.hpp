// SPDX-License-Identifier: MIT
// What the processes of one open file (one MPI_File_open) share, in the
// job's segment where each of them reaches it: the shared file pointer
// (MPI 4.0 §14.4.4) and the counts by which sieving writers and plain
// writers keep out of each other's way (mpi/file_write_guard.hpp). File
// rank 0 allocates it from the shared heap at MPI_File_open and frees it
// at MPI_File_close.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace shmpi::io {

struct alignas(64) FileShared {
  // The shared file pointer, in etypes of the current view. The
  // data-access calls reserve their part with fetch_add and nothing else
  // is published through it, so relaxed is enough there; the collective
  // calls that set it (seek_shared, set_view, the ordered calls) are
  // followed by a barrier or a broadcast, which orders it for the others.
  std::atomic<std::int64_t> position{0};
  // Processes writing by read-modify-write of spans ("sieving") now, and
  // processes writing runs without a lock now: the two halves of a
  // Dekker-style handshake, seq_cst on both sides (file_write_guard.cpp).
  std::atomic<std::uint32_t> sieving_writers{0};
  std::atomic<std::uint32_t> unlocked_writers{0};
  std::byte pad[48];
};
static_assert(sizeof(FileShared) == 64 && alignof(FileShared) == 64,
              "one cache line in the segment");
static_assert(std::atomic<std::int64_t>::is_always_lock_free &&
                  std::atomic<std::uint32_t>::is_always_lock_free,
              "shared between processes");

}  // namespace shmpi::io
