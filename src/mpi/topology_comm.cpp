// SPDX-License-Identifier: MIT
// The communicators that hold a virtual topology (topology.hpp): a dup of
// the parent, or a split of its first ranks; and the topology a call finds
// on its communicator (topology_args.hpp). Apart from topology.cpp so
// that the neighbour lists can be unit-tested without the communicator
// machinery.
#include <utility>

#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/topology.hpp"
#include "mpi/topology_args.hpp"

namespace shmpi::mpi {

int make_topology_comm(Comm& parent, std::shared_ptr<const Topology> topology,
                       Comm** out, const char** why) {
  if (parent.is_inter) {
    *why = "a virtual topology needs an intracommunicator";
    return MPI_ERR_COMM;
  }
  Comm* fresh = nullptr;
  if (int rc = dup_intracomm(parent, &fresh, why); rc != MPI_SUCCESS) {
    return rc;
  }
  fresh->errhandler = parent.errhandler;
  fresh->topology = std::move(topology);
  *out = fresh;
  return MPI_SUCCESS;
}

int make_topology_comm(Comm& parent, int nodes,
                       std::shared_ptr<const Topology> topology, Comm** out,
                       const char** why) {
  if (nodes == parent.size) {
    return make_topology_comm(parent, std::move(topology), out, why);
  }
  if (parent.is_inter) {
    *why = "a virtual topology needs an intracommunicator";
    return MPI_ERR_COMM;
  }
  // A split keeps the order of the ranks (key = rank), so each member
  // keeps its rank.
  const int color = parent.rank < nodes ? 0 : MPI_UNDEFINED;
  Comm* fresh = nullptr;
  if (int rc = split_intracomm(parent, color, parent.rank, &fresh, why);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (fresh != nullptr) {
    fresh->errhandler = parent.errhandler;
    fresh->topology = std::move(topology);
  }
  *out = fresh;
  return MPI_SUCCESS;
}

int topology_of(MPI_Comm comm, int kind, const char* function, Comm** c,
                const Topology** out) {
  if (int rc = check_topology_comm(comm, function, c); rc != MPI_SUCCESS) {
    return rc;
  }
  const Topology* t = (*c)->topology.get();
  if (t == nullptr || t->kind != kind) {
    const char* detail =
        kind == MPI_CART
            ? "the communicator has no Cartesian topology"
            : (kind == MPI_GRAPH
                   ? "the communicator has no graph topology"
                   : "the communicator has no distributed graph topology");
    return fail_static(*c, MPI_ERR_TOPOLOGY, function, detail);
  }
  *out = t;
  return MPI_SUCCESS;
}

}  // namespace shmpi::mpi
