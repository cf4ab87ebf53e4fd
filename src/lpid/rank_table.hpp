// SPDX-License-Identifier: MIT
// The gpids in the segment's rank table: where the lpid tables of every
// process find a process they have not met yet (the SlotResolver of
// LpidTable::to_lpids).
#pragma once

#include <cstdint>

#include "base/result.hpp"
#include "lpid/gpid.hpp"

namespace shmpi::segment {
class Segment;
}

namespace shmpi::lpid {

// The gpid the rank table holds for a slot.
Gpid gpid_in_slot(const segment::Segment& segment, std::uint32_t slot);

// The slot of the occupied (not kEmpty) rank-table entry holding `gpid`;
// MPI_ERR_OTHER when no process of the job has it. Scans the table: this is
// the cold path of meeting a process from another process group.
Result<std::uint32_t> find_slot(const segment::Segment& segment, Gpid gpid);

}  // namespace shmpi::lpid
