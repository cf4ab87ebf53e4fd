// SPDX-License-Identifier: MIT
// LpidTable: one process's map between local process IDs and the processes
// they name (seed 002). Entry i is lpid i: the process's gpid and the
// segment slot that holds its rings. The first entries are the process's own
// MPI_COMM_WORLD in rank order; entries for processes of other process
// groups are appended as this process learns about them (spawn, connect,
// Intercomm_create), so two processes may use different lpids for the same
// process. Entries are never removed, so an lpid stays valid for the life of
// the process.
//
// Not thread-safe: the owner serialises access (mpi/lpid_table.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "base/result.hpp"
#include "lpid/gpid.hpp"

namespace shmpi::lpid {

// Finds the segment slot of a process this table does not know yet, or
// returns the error to report (e.g. the process does not exist).
using SlotResolver = std::function<Result<std::uint32_t>(Gpid)>;

class LpidTable {
 public:
  // Fills an empty table with the process's own world: lpid i is
  // (pg, i) in slot first_slot + i, for i < size.
  void init_world(std::uint32_t pg, std::uint32_t size,
                  std::uint32_t first_slot);

  std::size_t size() const { return entries_.size(); }
  bool contains(Lpid lpid) const {
    return lpid >= 0 && static_cast<std::size_t>(lpid) < entries_.size();
  }
  // The process an lpid names; the lpid must be valid (contains()).
  Gpid gpid(Lpid lpid) const { return entry(lpid).gpid; }
  // The segment slot where that process's rings live.
  std::uint32_t slot(Lpid lpid) const { return entry(lpid).slot; }

  // The lpid of a known process (MPID_GPID_ToLpid), or nothing.
  std::optional<Lpid> find(Gpid gpid) const;

  // Appends an entry for a process with a known slot and returns its lpid;
  // a process already in the table keeps its lpid.
  Lpid add(Gpid gpid, std::uint32_t slot);

  // MPID_GPID_ToLpidArray: out[i] = lpid of gpids[i], adding an entry (in
  // order of first appearance) for each process not known yet, whose slot
  // `resolve` finds. On error nothing is added and `out` is not written.
  // `gpids` may repeat a process (it then gets one entry).
  Result<void> to_lpids(std::span<const Gpid> gpids, std::span<Lpid> out,
                        const SlotResolver& resolve);

 private:
  struct Entry {
    Gpid gpid;
    std::uint32_t slot;
  };
  const Entry& entry(Lpid lpid) const;

  std::vector<Entry> entries_;                       // indexed by lpid
  std::unordered_map<std::uint64_t, Lpid> by_gpid_;  // pack(gpid) -> lpid
};

}  // namespace shmpi::lpid
