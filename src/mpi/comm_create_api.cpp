// SPDX-License-Identifier: MIT
// Communicators from groups and from hardware: MPI_Comm_create,
// MPI_Comm_create_group and MPI_Comm_split_type.
#include <mpi.h>

#include <algorithm>
#include <cstring>

#include "mpi/comm.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/group.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

// Every member of `group` must be a member of `comm`'s (local) group.
bool group_within(const Group& group, const Comm& comm) {
  return std::all_of(
      group.lpids.begin(), group.lpids.end(), [&](std::int32_t lpid) {
        return std::find(comm.lpids.begin(), comm.lpids.end(), lpid) !=
               comm.lpids.end();
      });
}

int finish(Comm* parent, int rc, Comm* fresh, const char* why,
           MPI_Comm* newcomm, const char* function) {
  if (rc != MPI_SUCCESS) {
    *newcomm = MPI_COMM_NULL;
    return fail(parent, rc, function, "%s", why);
  }
  if (fresh == nullptr) {
    *newcomm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  fresh->errhandler = parent->errhandler;
  *newcomm = fresh->handle;
  return MPI_SUCCESS;
}

// The NUMA node a rank was bound to (0 when unbound or unknown).
int numa_node_of(const Comm& comm, int rank) {
  const std::int32_t node =
      state()
          .runtime->segment()
          .rank_info(comm.slots[static_cast<std::size_t>(rank)])
          .numa_node;
  return node < 0 ? 0 : node;
}

// MPI_COMM_TYPE_HW_GUIDED: the color for the info's resource type, or
// MPI_UNDEFINED when it names nothing this machine splits by.
int guided_color(const Comm& comm, MPI_Info info) {
  if (info == MPI_INFO_NULL) {
    return MPI_UNDEFINED;
  }
  char value[MPI_MAX_INFO_VAL + 1] = {};
  int length = MPI_MAX_INFO_VAL;
  int flag = 0;
  if (PMPI_Info_get_string(info, "mpi_hw_resource_type", &length, value,
                           &flag) != MPI_SUCCESS ||
      flag == 0) {
    return MPI_UNDEFINED;
  }
  // One machine, one shared-memory domain: those split nothing.
  if (std::strcmp(value, "mpi_shared_memory") == 0 ||
      std::strcmp(value, "Machine") == 0) {
    return 0;
  }
  if (std::strcmp(value, "NUMANode") == 0) {
    return numa_node_of(comm, comm.rank);
  }
  return MPI_UNDEFINED;
}

}  // namespace

extern "C" int PMPI_Comm_create(MPI_Comm comm, MPI_Group group,
                                MPI_Comm* newcomm) noexcept {
  constexpr const char* kFn = "MPI_Comm_create";
  if (int rc = check_initialized(kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  Comm* c = nullptr;
  if (int rc = check_comm(comm, &c, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  Group* g = nullptr;
  if (int rc = check_group(group, &g, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (newcomm == nullptr) {
    return fail(c, MPI_ERR_ARG, kFn, "newcomm is NULL");
  }
  if (!group_within(*g, *c)) {
    return fail(c, MPI_ERR_GROUP, kFn,
                "the group has a process that is not in the communicator");
  }
  // A split whose color is the group (its first lpid: groups given in one
  // call are disjoint) and whose key is the rank in the group.
  const int color = g->rank == MPI_UNDEFINED || g->lpids.empty()
                        ? MPI_UNDEFINED
                        : *std::min_element(g->lpids.begin(), g->lpids.end());
  Comm* fresh = nullptr;
  const char* why = "";
  int rc;
  if (c->is_inter) {
    rc = split_intercomm(*c, color == MPI_UNDEFINED ? MPI_UNDEFINED : 0,
                         g->rank, &fresh, &why);
  } else {
    rc = split_intracomm(*c, color, g->rank, &fresh, &why);
  }
  return finish(c, rc, fresh, why, newcomm, kFn);
}
SHMPI_PMPI_ALIAS(MPI_Comm_create);

extern "C" int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
                                      MPI_Comm* newcomm) noexcept {
  constexpr const char* kFn = "MPI_Comm_create_group";
  if (int rc = check_initialized(kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  Comm* c = nullptr;
  if (int rc = check_comm(comm, &c, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (c->is_inter) {
    return fail(c, MPI_ERR_COMM, kFn, "not an intracommunicator");
  }
  Group* g = nullptr;
  if (int rc = check_group(group, &g, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_send_tag(c, tag, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (newcomm == nullptr) {
    return fail(c, MPI_ERR_ARG, kFn, "newcomm is NULL");
  }
  if (!group_within(*g, *c)) {
    return fail(c, MPI_ERR_GROUP, kFn,
                "the group has a process that is not in the communicator");
  }
  if (g->rank == MPI_UNDEFINED) {
    *newcomm = MPI_COMM_NULL;  // only members call; a non-member gets null
    return MPI_SUCCESS;
  }
  SplitResult result;
  const char* why = "";
  const int rc = create_group_round(*c, g->lpids, tag, &result, &why);
  return finish(c, rc, result.created, why, newcomm, kFn);
}
SHMPI_PMPI_ALIAS(MPI_Comm_create_group);

extern "C" int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key,
                                    MPI_Info info, MPI_Comm* newcomm) noexcept {
  constexpr const char* kFn = "MPI_Comm_split_type";
  if (int rc = check_initialized(kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  Comm* c = nullptr;
  if (int rc = check_comm(comm, &c, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (newcomm == nullptr) {
    return fail(c, MPI_ERR_ARG, kFn, "newcomm is NULL");
  }
  if (c->is_inter) {
    return fail(c, MPI_ERR_COMM, kFn,
                "splitting an intercommunicator by type is not supported");
  }
  int color;
  switch (split_type) {
    case MPI_UNDEFINED:
      color = MPI_UNDEFINED;
      break;
    case MPI_COMM_TYPE_SHARED:
      color = 0;  // every rank shares the segment
      break;
    case MPI_COMM_TYPE_HW_GUIDED:
      color = guided_color(*c, info);
      break;
    case MPI_COMM_TYPE_HW_UNGUIDED:
      color = numa_node_of(*c, c->rank);
      break;
    default:
      return fail(c, MPI_ERR_ARG, kFn, "invalid split type %d", split_type);
  }
  Comm* fresh = nullptr;
  const char* why = "";
  const int rc = split_intracomm(*c, color, key, &fresh, &why);
  if (rc == MPI_SUCCESS && fresh != nullptr &&
      split_type == MPI_COMM_TYPE_HW_UNGUIDED && fresh->size == c->size) {
    // Unguided splits must give strict subsets (MPI 4.0 section 7.4.2); a
    // single NUMA node has none below the whole machine.
    destroy_comm(fresh);
    fresh = nullptr;
  }
  return finish(c, rc, fresh, why, newcomm, kFn);
}
SHMPI_PMPI_ALIAS(MPI_Comm_split_type);
