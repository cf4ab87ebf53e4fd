// SPDX-License-Identifier: MIT
// The process's lpid table (seed 002), built from the runtime's world at
// first use: lpid i is world rank i, and the process group is the one the
// segment's rank table gives this rank. Unknown processes are found by
// scanning the rank table for their gpid. Every access holds one mutex:
// groups and communicator creation are not on a hot path, and under
// MPI_THREAD_MULTIPLE appending an entry must not race with readers.
#pragma once

#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "base/result.hpp"
#include "lpid/lpid_table.hpp"
#include "lpid/members.hpp"

namespace shmpi::mpi {

namespace detail {
struct LpidState {
  std::mutex mutex;
  lpid::LpidTable table;  // guarded by mutex
  lpid::Lpid me = 0;      // this process; fixed after construction
};
// Only after MPI_Init.
LpidState& lpid_state();
}  // namespace detail

// Runs fn(table) with the process's table locked; fn must not call back
// into the functions below.
template <typename F>
decltype(auto) with_lpid_table(F&& fn) {
  detail::LpidState& state = detail::lpid_state();
  std::lock_guard<std::mutex> lock(state.mutex);
  return fn(state.table);
}

// This process's own lpid (its world rank).
inline lpid::Lpid my_lpid() { return detail::lpid_state().me; }

// Rank -> segment slot of the members `lpids` (MPID_VCR_CommFromLpids).
std::vector<std::uint32_t> slots_of(std::span<const lpid::Lpid> lpids);
// The members' gpids and whether they share a process group.
lpid::MemberGpids gpids_of(std::span<const lpid::Lpid> lpids);
// MPID_GPID_ToLpidArray over the process's table, resolving unknown
// processes through the segment's rank table (lpid/rank_table.hpp).
Result<void> to_lpids(std::span<const lpid::Gpid> gpids,
                      std::span<lpid::Lpid> out);

}  // namespace shmpi::mpi
