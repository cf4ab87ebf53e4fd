// SPDX-License-Identifier: MIT
// The communicator code's view of process IDs, over the process's lpid
// table (mpi/lpid_table.hpp): gpids travel in the rank table's packed form,
// and a process from another process group gets an lpid when it is first
// met.
#include "mpi/lpid_glue.hpp"

#include <utility>

#include "lpid/gpid.hpp"
#include "mpi/lpid_table.hpp"

namespace shmpi::mpi {

std::vector<std::uint64_t> gpids_of_lpids(
    const std::vector<std::int32_t>& lpids) {
  const lpid::MemberGpids members = gpids_of(lpids);
  std::vector<std::uint64_t> packed;
  packed.reserve(members.gpids.size());
  for (const lpid::Gpid& gpid : members.gpids) {
    packed.push_back(lpid::pack(gpid));
  }
  return packed;
}

bool lpids_of_gpids(const std::vector<std::uint64_t>& gpids,
                    std::vector<std::int32_t>* lpids) {
  std::vector<lpid::Gpid> unpacked;
  unpacked.reserve(gpids.size());
  for (std::uint64_t packed : gpids) {
    unpacked.push_back(lpid::unpack(packed));
  }
  std::vector<std::int32_t> found(gpids.size());
  if (!to_lpids(unpacked, found)) {
    lpids->clear();
    return false;
  }
  *lpids = std::move(found);
  return true;
}

std::vector<std::uint32_t> slots_of_lpids(
    const std::vector<std::int32_t>& lpids) {
  return slots_of(lpids);
}

}  // namespace shmpi::mpi
