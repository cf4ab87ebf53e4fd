// SPDX-License-Identifier: MIT
// MPI_Intercomm_create_from_groups (MPI 4.0 §7.6.2): an intercommunicator
// between two disjoint groups with no parent or peer communicator. Built of
// what exists: each group makes its local communicator, both groups
// together make a bridge over their union (ordered by lpid, the same on
// every member), and MPI_Intercomm_create runs with the bridge as the peer
// communicator; the two helpers are freed again. Three agreement rounds
// instead of one, in exchange for no new protocol.
#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <string_view>

#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/group.hpp"
#include "mpi/info.hpp"
#include "mpi/session.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

// create_from_group_round's purposes for the two helpers (0 is the
// program's MPI_Comm_create_from_group).
constexpr std::uint64_t kLocalPurpose = 1;
constexpr std::uint64_t kBridgePurpose = 2;

bool is_comm_errhandler(MPI_Errhandler handler) {
  if (handler == MPI_ERRORS_ARE_FATAL || handler == MPI_ERRORS_RETURN ||
      handler == MPI_ERRORS_ABORT) {
    return true;
  }
  const Errhandler* user = state().errhandlers.find(handler);
  return user != nullptr && user->function != nullptr;
}

// A communicator over `lpids` (this process is lpids[index]) for one of
// the helpers; errors return.
int helper_comm(const std::vector<std::int32_t>& lpids, int index,
                std::string_view stringtag, std::uint64_t purpose, Comm** out,
                const char** why) {
  SplitResult result;
  if (int rc = create_from_group_round(
          lpids, index, stringtag, MPI_ERRORS_RETURN, &result, why, purpose);
      rc != MPI_SUCCESS) {
    return rc;
  }
  *out = result.created;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Intercomm_create_from_groups(
    MPI_Group local_group, int local_leader, MPI_Group remote_group,
    int remote_leader, const char* stringtag, MPI_Info info,
    MPI_Errhandler errhandler, MPI_Comm* newintercomm) noexcept {
  constexpr const char* kFn = "MPI_Intercomm_create_from_groups";
  if (int rc = check_initialized(kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  Group* local = find_group(local_group);
  Group* remote = find_group(remote_group);
  if (local == nullptr || remote == nullptr) {
    return fail_session(nullptr, MPI_ERR_GROUP, kFn, "invalid or null %s group",
                        local == nullptr ? "local" : "remote");
  }
  // Errors go to the session the local group came from, if still open.
  Session* s = find_session(local->session);
  if (local->rank == MPI_UNDEFINED) {
    return fail_session(s, MPI_ERR_GROUP, kFn,
                        "the calling process is not in the local group");
  }
  if (local_leader < 0 || local_leader >= local->size()) {
    return fail_session(s, MPI_ERR_RANK, kFn,
                        "invalid local leader %d (local group size %d)",
                        local_leader, local->size());
  }
  if (remote_leader < 0 || remote_leader >= remote->size()) {
    return fail_session(s, MPI_ERR_RANK, kFn,
                        "invalid remote leader %d (remote group size %d)",
                        remote_leader, remote->size());
  }
  if (stringtag == nullptr || std::strlen(stringtag) >= MPI_MAX_STRINGTAG_LEN) {
    return fail_session(s, MPI_ERR_ARG, kFn,
                        "stringtag is NULL or longer than %d characters",
                        MPI_MAX_STRINGTAG_LEN - 1);
  }
  Hints hints;
  if (int rc = hints_from_info(info, &hints); rc != MPI_SUCCESS) {
    return fail_session(s, rc, kFn, "invalid info handle %p",
                        static_cast<void*>(info));
  }
  if (!is_comm_errhandler(errhandler)) {
    return fail_session(s, MPI_ERR_ARG, kFn,
                        "invalid error handler (not one for communicators)");
  }
  if (newintercomm == nullptr) {
    return fail_session(s, MPI_ERR_ARG, kFn, "newintercomm is NULL");
  }
  // The groups must be disjoint (§7.6.2); every member sees both, so all
  // fail alike before any communication.
  std::vector<std::int32_t> all = local->lpids;
  all.insert(all.end(), remote->lpids.begin(), remote->lpids.end());
  std::sort(all.begin(), all.end());
  if (std::adjacent_find(all.begin(), all.end()) != all.end()) {
    return fail_session(s, MPI_ERR_GROUP, kFn,
                        "the local and remote groups overlap");
  }
  const std::int32_t me = local->lpids[static_cast<std::size_t>(local->rank)];
  const auto my_index =
      static_cast<int>(std::find(all.begin(), all.end(), me) - all.begin());
  const std::int32_t remote_leader_lpid =
      remote->lpids[static_cast<std::size_t>(remote_leader)];
  const auto remote_leader_in_bridge = static_cast<int>(
      std::find(all.begin(), all.end(), remote_leader_lpid) - all.begin());

  const char* why = "";
  Comm* local_comm = nullptr;
  if (int rc = helper_comm(local->lpids, local->rank, stringtag, kLocalPurpose,
                           &local_comm, &why);
      rc != MPI_SUCCESS) {
    *newintercomm = MPI_COMM_NULL;
    return fail_session(s, rc, kFn, "%s", why);
  }
  Comm* bridge = nullptr;
  if (int rc =
          helper_comm(all, my_index, stringtag, kBridgePurpose, &bridge, &why);
      rc != MPI_SUCCESS) {
    MPI_Comm handle = local_comm->handle;
    PMPI_Comm_free(&handle);
    *newintercomm = MPI_COMM_NULL;
    return fail_session(s, rc, kFn, "%s", why);
  }
  MPI_Comm local_handle = local_comm->handle;
  MPI_Comm bridge_handle = bridge->handle;
  MPI_Comm created = MPI_COMM_NULL;
  const int rc =
      PMPI_Intercomm_create(local_handle, local_leader, bridge_handle,
                            remote_leader_in_bridge, 0, &created);
  PMPI_Comm_free(&bridge_handle);
  PMPI_Comm_free(&local_handle);
  if (rc != MPI_SUCCESS) {
    *newintercomm = MPI_COMM_NULL;
    return raise_session_code(s, rc, kFn);
  }
  Comm* c = find_comm(created);
  if (Errhandler* user = state().errhandlers.find(errhandler)) {
    ++user->references;  // the communicator's hold
  }
  c->errhandler = errhandler;
  c->hints = std::move(hints);
  *newintercomm = created;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Intercomm_create_from_groups);
