// SPDX-License-Identifier: MIT
// The communicators that hold a virtual topology (topology.hpp): a dup of
// the parent, or a split of its first ranks. Apart from topology.cpp so
// that the neighbour lists can be unit-tested without the communicator
// machinery.
#include <utility>

#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/topology.hpp"

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

}  // namespace shmpi::mpi
