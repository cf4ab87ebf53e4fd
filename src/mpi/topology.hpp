// SPDX-License-Identifier: MIT
// Virtual topologies (MPI 4.0 chapter 8): what a communicator made by
// MPI_Cart_create, MPI_Graph_create or MPI_Dist_graph_create(_adjacent)
// remembers, shared (immutable) by the communicator and its dups, and the
// neighbour lists the neighbourhood collectives (section 8.6) walk.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace shmpi::mpi {

struct Comm;

struct Topology {
  int kind = MPI_UNDEFINED;  // MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH

  // MPI_CART: the extent of each dimension and whether it wraps round (0
  // or 1). Ranks are numbered row-major (the last dimension fastest).
  std::vector<int> dims;
  std::vector<int> periods;

  // MPI_GRAPH, as MPI_Graph_create took them: node i's neighbours are
  // edges[index[i-1] .. index[i]) (index[-1] = 0).
  std::vector<int> index;
  std::vector<int> edges;

  // MPI_DIST_GRAPH, this process's own edges (the weights empty when
  // unweighted). MPI_Dist_graph_create_adjacent keeps them in the order
  // given. MPI_Dist_graph_create orders them by the rank of the process
  // that gave the edge, then in the order that process listed them (its
  // sources[] and, within a source, its destinations[]); an edge given
  // twice appears twice.
  std::vector<int> sources;
  std::vector<int> source_weights;
  std::vector<int> destinations;
  std::vector<int> destination_weights;
  bool weighted = false;  // MPI_UNWEIGHTED was not given
};

// The neighbours of `rank` in the order of the neighbourhood collectives:
// block i of a receive buffer comes from (*sources)[i], block i of a send
// buffer goes to (*destinations)[i]. A Cartesian topology lists, for each
// dimension, the neighbour at -1 then the one at +1 (MPI_PROC_NULL past a
// boundary that does not wrap), the same list both ways; a graph lists
// the node's edges both ways; a distributed graph its own sources and
// destinations.
void neighbor_lists(const Topology& topology, int rank,
                    std::vector<int>* sources, std::vector<int>* destinations);

// Cartesian ranks and coordinates, row-major: `coords` has t.dims.size()
// entries, each within its extent.
void cart_coords(const Topology& t, int rank, int* coords);
int cart_rank(const Topology& t, const int* coords);
// The rank `displacement` steps from `rank` along dimension `dim`, or
// MPI_PROC_NULL past an edge that does not wrap (any displacement).
int cart_step(const Topology& t, int rank, std::size_t dim,
              std::int64_t displacement);

// A new intracommunicator over `parent`'s group (same ranks) that holds
// `topology`, collective over `parent`, which must be an intracommunicator:
// the parent's error handler, no attributes, the hints given. Returns an
// MPI error class (with *why) or MPI_SUCCESS and *out.
int make_topology_comm(Comm& parent, std::shared_ptr<const Topology> topology,
                       Comm** out, const char** why);

// The same over the parent's first `nodes` ranks (0 < nodes <= size),
// collective over `parent`: the processes of rank `nodes` and above get
// MPI_SUCCESS and a null *out (MPI_COMM_NULL).
int make_topology_comm(Comm& parent, int nodes,
                       std::shared_ptr<const Topology> topology, Comm** out,
                       const char** why);

}  // namespace shmpi::mpi
