// SPDX-License-Identifier: MIT
// The part of a window that lives in the job's segment, shared by its
// members: per member a lock word (MPI_Win_lock), an accumulate lock (the
// element-wise atomicity of accumulate operations, MPI 4.0 §12.7.1), and
// the regions a dynamic window has attached (MPI_Win_attach), which
// origins check before they touch the member's memory. Laid out by
// offset: the block is one array of MemberLine, one per window rank, in
// the shared heap; window rank 0 allocates it and publishes its offset.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace shmpi::rma {

// Regions one member of a dynamic window may have attached at once
// (MPI_Win_attach fails with MPI_ERR_RMA_ATTACH beyond).
inline constexpr std::size_t kMaxAttached = 60;

struct AttachedRegion {
  // Written by the member only, under its attach_seq (a sequence lock),
  // read by origins. Relaxed inside the seqlock: attach_seq's acquire and
  // release order them (the standard seqlock pattern).
  std::atomic<std::uint64_t> base{0};
  std::atomic<std::uint64_t> size{0};
};
static_assert(sizeof(AttachedRegion) == 16);

// One member's words; the first cache line holds the hot ones.
struct alignas(64) MemberLine {
  // Passive-target lock: kExclusive while one origin holds it exclusively,
  // else the number of origins holding it shared.
  std::atomic<std::uint32_t> lock{0};
  // Accumulate lock: 0 free, 1 held (held for the copy and the reduction of
  // one accumulate operation only).
  std::atomic<std::uint32_t> accumulate{0};
  // Dynamic windows: odd while the member changes its region table.
  std::atomic<std::uint32_t> attach_seq{0};
  std::atomic<std::uint32_t> attached{0};  // regions in use, from the front
  std::byte pad[48];
  AttachedRegion regions[kMaxAttached];
};
static_assert(sizeof(MemberLine) == 64 + 16 * kMaxAttached);
static_assert(sizeof(MemberLine) % 64 == 0, "members on their own lines");
static_assert(alignof(MemberLine) == 64);
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

inline constexpr std::uint32_t kExclusive = 0x80000000u;

// Bytes of the block of a window of `members` members.
inline constexpr std::size_t block_bytes(std::size_t members) {
  return members * sizeof(MemberLine);
}

}  // namespace shmpi::rma
