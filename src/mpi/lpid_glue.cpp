// SPDX-License-Identifier: MIT
// Until the lpid tables of src/lpid are wired in, the only processes are
// the first world's: lpid = world rank = segment slot, and the gpid is what
// the launcher wrote in the slot's rank-table entry.
#include "mpi/lpid_glue.hpp"

#include "mpi/core.hpp"

namespace shmpi::mpi {

std::vector<std::uint64_t> gpids_of_lpids(
    const std::vector<std::int32_t>& lpids) {
  const segment::Segment& segment = state().runtime->segment();
  std::vector<std::uint64_t> gpids;
  gpids.reserve(lpids.size());
  for (std::int32_t lpid : lpids) {
    gpids.push_back(segment.rank_info(static_cast<std::uint32_t>(lpid)).gpid);
  }
  return gpids;
}

bool lpids_of_gpids(const std::vector<std::uint64_t>& gpids,
                    std::vector<std::int32_t>* lpids) {
  const segment::Segment& segment = state().runtime->segment();
  const std::uint32_t size =
      state().world.size > 0 ? static_cast<std::uint32_t>(state().world.size)
                             : 0;
  lpids->clear();
  for (std::uint64_t gpid : gpids) {
    std::int32_t found = -1;
    for (std::uint32_t slot = 0; slot < size; ++slot) {
      if (segment.rank_info(slot).gpid == gpid) {
        found = static_cast<std::int32_t>(slot);
        break;
      }
    }
    if (found < 0) {
      return false;
    }
    lpids->push_back(found);
  }
  return true;
}

std::vector<std::uint32_t> slots_of_lpids(
    const std::vector<std::int32_t>& lpids) {
  return {lpids.begin(), lpids.end()};
}

}  // namespace shmpi::mpi
