// SPDX-License-Identifier: MIT
// Global and local process IDs (seed 002). A gpid names one process for
// every process of the job: (process-group id, rank in that group). An lpid
// names a process only inside the process that assigned it.
#pragma once

#include <compare>
#include <cstdint>

namespace shmpi::lpid {

// Global process ID. Every process of one process group (one MPI_COMM_WORLD,
// or one set of spawned processes) has the same `pg`. Ordered by pg, then
// rank, which is also the order of the packed form.
struct Gpid {
  std::uint32_t pg = 0;
  std::uint32_t rank = 0;

  friend constexpr auto operator<=>(const Gpid&, const Gpid&) = default;
};

// The 64-bit form kept in the segment's rank table (RankInfo::gpid):
//   bits 63..32  process-group id
//   bits 31..0   rank in the process group
constexpr std::uint64_t pack(Gpid gpid) {
  return (static_cast<std::uint64_t>(gpid.pg) << 32) | gpid.rank;
}
constexpr Gpid unpack(std::uint64_t packed) {
  return Gpid{static_cast<std::uint32_t>(packed >> 32),
              static_cast<std::uint32_t>(packed & 0xffffffffU)};
}

// Local process ID: an index into this process's LpidTable. The lpids of the
// process's own MPI_COMM_WORLD equal the world ranks. int32 because groups
// and communicators store them in int arrays like MPI ranks.
using Lpid = std::int32_t;

}  // namespace shmpi::lpid
