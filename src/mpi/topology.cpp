// SPDX-License-Identifier: MIT
// Virtual topologies: neighbour lists and Cartesian coordinates
// (topology.hpp), pure functions of a Topology.
#include "mpi/topology.hpp"

#include <cstdint>

namespace shmpi::mpi {

namespace {

// The stride of Cartesian dimension `dim`: ranks are row-major, so it is
// the product of the extents after it.
int cart_stride(const Topology& t, std::size_t dim) {
  int stride = 1;
  for (std::size_t d = dim + 1; d < t.dims.size(); ++d) {
    stride *= t.dims[d];
  }
  return stride;
}

}  // namespace

void cart_coords(const Topology& t, int rank, int* coords) {
  for (std::size_t d = t.dims.size(); d-- > 0;) {
    coords[d] = rank % t.dims[d];
    rank /= t.dims[d];
  }
}

int cart_rank(const Topology& t, const int* coords) {
  int rank = 0;
  for (std::size_t d = 0; d < t.dims.size(); ++d) {
    rank = rank * t.dims[d] + coords[d];
  }
  return rank;
}

int cart_step(const Topology& t, int rank, std::size_t dim,
              std::int64_t displacement) {
  const int stride = cart_stride(t, dim);
  const int extent = t.dims[dim];
  const int coord = (rank / stride) % extent;
  std::int64_t moved = coord + displacement;
  if (moved < 0 || moved >= extent) {
    if (t.periods[dim] == 0) {
      return MPI_PROC_NULL;
    }
    moved %= extent;
    if (moved < 0) {
      moved += extent;
    }
  }
  return rank + (static_cast<int>(moved) - coord) * stride;
}

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

}  // namespace shmpi::mpi
