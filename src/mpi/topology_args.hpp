// SPDX-License-Identifier: MIT
// The argument checks the topology entry points share (topo_*_api.cpp).
#pragma once

#include <mpi.h>

#include "mpi/core.hpp"
#include "mpi/topology.hpp"

namespace shmpi::mpi {

// MPI is initialized and `comm` is a valid communicator; else raised.
inline int check_topology_comm(MPI_Comm comm, const char* function,
                               Comm** out) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  return check_comm(comm, out, function);
}

// The same for the communicator a topology is made from or mapped onto:
// an intracommunicator, else MPI_ERR_COMM raised.
inline int check_topology_parent(MPI_Comm comm, const char* function,
                                 Comm** out) {
  if (int rc = check_topology_comm(comm, function, out); rc != MPI_SUCCESS) {
    return rc;
  }
  if ((*out)->is_inter) {
    return fail_static(*out, MPI_ERR_COMM, function,
                       "a virtual topology needs an intracommunicator");
  }
  return MPI_SUCCESS;
}

// The topology of `comm` if it is of `kind` (MPI_CART, MPI_GRAPH or
// MPI_DIST_GRAPH); else MPI_ERR_TOPOLOGY raised.
int topology_of(MPI_Comm comm, int kind, const char* function, Comm** c,
                const Topology** out);

}  // namespace shmpi::mpi
