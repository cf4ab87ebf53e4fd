// SPDX-License-Identifier: MIT
// Virtual topologies: neighbour lists and the communicators that hold them
// (topology.hpp).
#include "mpi/topology.hpp"

#include <utility>

#include "mpi/comm.hpp"
#include "mpi/core.hpp"

namespace shmpi::mpi {

namespace {

// The rank `displacement` steps from `rank` along Cartesian dimension
// `dim`, or MPI_PROC_NULL past an edge that does not wrap.
int cart_step(const Topology& t, int rank, std::size_t dim, int displacement) {
  // Ranks are row-major: the stride of a dimension is the product of the
  // extents after it.
  int stride = 1;
  for (std::size_t d = dim + 1; d < t.dims.size(); ++d) {
    stride *= t.dims[d];
  }
  const int extent = t.dims[dim];
  const int coord = (rank / stride) % extent;
  int moved = coord + displacement;
  if (moved < 0 || moved >= extent) {
    if (t.periods[dim] == 0) {
      return MPI_PROC_NULL;
    }
    moved %= extent;
    if (moved < 0) {
      moved += extent;
    }
  }
  return rank + (moved - coord) * stride;
}

}  // namespace

void neighbor_lists(const Topology& t, int rank, std::vector<int>* sources,
                    std::vector<int>* destinations) {
  sources->clear();
  destinations->clear();
  switch (t.kind) {
    case MPI_CART:
      for (std::size_t d = 0; d < t.dims.size(); ++d) {
        sources->push_back(cart_step(t, rank, d, -1));
        sources->push_back(cart_step(t, rank, d, +1));
      }
      *destinations = *sources;
      break;
    case MPI_GRAPH: {
      const int begin = rank == 0 ? 0 : t.index[rank - 1];
      sources->assign(t.edges.begin() + begin, t.edges.begin() + t.index[rank]);
      *destinations = *sources;
      break;
    }
    case MPI_DIST_GRAPH:
      *sources = t.sources;
      *destinations = t.destinations;
      break;
    default:
      break;
  }
}

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

}  // namespace shmpi::mpi
