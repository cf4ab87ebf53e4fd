// SPDX-License-Identifier: MIT
// connect_groups: as MPI_Intercomm_create_from_groups does, the two groups
// meet on a bridge communicator over their union (made by a rendezvous
// round keyed by the connection's tag, so no common communicator is
// needed), and MPI_Intercomm_create runs with the bridge as the peer
// communicator; the bridge is freed again.
#include "mpi/port_connect.hpp"

#include <algorithm>
#include <utility>

#include "mpi/comm.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/lpid_table.hpp"

namespace shmpi::mpi::ports {

namespace {

// create_from_group_round's purpose for the bridge (0, 1 and 2 are
// MPI_Comm_create_from_group's and MPI_Intercomm_create_from_groups').
constexpr std::uint64_t kBridgePurpose = 0x506f7274;  // "Port"

}  // namespace

int check_rooted_call(MPI_Comm comm, int root, const void* out,
                      const char* out_name, Comm** c, const char* fn) {
  if (int rc = check_initialized(fn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_comm(comm, c, fn); rc != MPI_SUCCESS) {
    return rc;
  }
  if ((*c)->is_inter) {
    return fail(*c, MPI_ERR_COMM, fn, "comm must be an intracommunicator");
  }
  if (root < 0 || root >= (*c)->size) {
    return fail(*c, MPI_ERR_ROOT, fn, "invalid root %d (communicator size %d)",
                root, (*c)->size);
  }
  if (out == nullptr) {
    return fail(*c, MPI_ERR_ARG, fn, "%s is NULL", out_name);
  }
  return MPI_SUCCESS;
}

int connect_groups(Comm& local, int local_root,
                   const std::vector<lpid::Gpid>& remote_gpids, int remote_root,
                   std::string_view tag, Comm** out, const char** why) {
  std::vector<lpid::Lpid> remote_lpids(remote_gpids.size());
  if (!to_lpids(remote_gpids, remote_lpids)) {
    *why = "a process of the remote group is not in this job";
    return MPI_ERR_INTERN;
  }
  // The union in gpid order: the same order on every member of both
  // groups, whatever lpids each process gave the others.
  const std::vector<lpid::Gpid> local_gpids = gpids_of(local.lpids).gpids;
  std::vector<std::pair<lpid::Gpid, lpid::Lpid>> all;
  for (std::size_t i = 0; i < local_gpids.size(); ++i) {
    all.emplace_back(local_gpids[i], local.lpids[i]);
  }
  for (std::size_t i = 0; i < remote_gpids.size(); ++i) {
    all.emplace_back(remote_gpids[i], remote_lpids[i]);
  }
  std::sort(all.begin(), all.end());
  if (std::adjacent_find(all.begin(), all.end(),
                         [](const auto& a, const auto& b) {
                           return a.first == b.first;
                         }) != all.end()) {
    *why = "the accepting and the connecting group overlap";
    return MPI_ERR_ARG;
  }
  std::vector<lpid::Lpid> bridge_lpids;
  int my_index = 0;
  int remote_root_index = 0;
  const lpid::Gpid me = local_gpids[static_cast<std::size_t>(local.rank)];
  const lpid::Gpid their_root =
      remote_gpids[static_cast<std::size_t>(remote_root)];
  for (const auto& [gpid, lpid] : all) {
    if (gpid == me) {
      my_index = static_cast<int>(bridge_lpids.size());
    }
    if (gpid == their_root) {
      remote_root_index = static_cast<int>(bridge_lpids.size());
    }
    bridge_lpids.push_back(lpid);
  }
  SplitResult result;
  if (int rc = create_from_group_round(bridge_lpids, my_index, tag,
                                       MPI_ERRORS_RETURN, &result, why,
                                       kBridgePurpose);
      rc != MPI_SUCCESS) {
    return rc;
  }
  MPI_Comm bridge = result.created->handle;
  MPI_Comm created = MPI_COMM_NULL;
  const int rc = PMPI_Intercomm_create(local.handle, local_root, bridge,
                                       remote_root_index, 0, &created);
  PMPI_Comm_free(&bridge);
  if (rc != MPI_SUCCESS) {
    *why = "the intercommunicator could not be made";
    int error_class = MPI_ERR_INTERN;
    PMPI_Error_class(rc, &error_class);
    return error_class;
  }
  *out = find_comm(created);
  return MPI_SUCCESS;
}

}  // namespace shmpi::mpi::ports
