// SPDX-License-Identifier: MIT
// What a communicator's member list (its lpids) turns into when processes
// talk about it: the members' gpids, to send to another process
// (Intercomm_create's leaders exchange them), and the members' segment
// slots, which is where point-to-point calls find each rank's rings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "lpid/gpid.hpp"
#include "lpid/lpid_table.hpp"

namespace shmpi::lpid {

struct MemberGpids {
  std::vector<Gpid> gpids;  // rank order
  // Every member is in one process group (true for no members). A receiver
  // may then treat the list as (pg, ranks) (seed 002's singlePG).
  bool single_pg = true;
};

// MPID_GPID_GetAllInComm: the gpids of the members `lpids` (rank -> lpid,
// every lpid valid in `table`).
MemberGpids gpids_of(const LpidTable& table, std::span<const Lpid> lpids);

// MPID_VCR_CommFromLpids: the connection table of a communicator or group,
// rank -> segment slot.
std::vector<std::uint32_t> connection_table(const LpidTable& table,
                                            std::span<const Lpid> lpids);

// The index of the first gpid that repeats an earlier one, or nothing.
// MPI_Intercomm_create requires disjoint groups: pass the local gpids
// followed by the remote ones.
std::optional<std::size_t> find_duplicate(std::span<const Gpid> gpids);

}  // namespace shmpi::lpid
