// SPDX-License-Identifier: MIT
// Graph topologies (MPI 4.0 sections 8.5.3, 8.5.6 and 8.5.7):
// MPI_Graph_create, its queries and MPI_Graph_map.
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <utility>

#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/topology.hpp"
#include "mpi/topology_args.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

// MPI_Graph_create's and MPI_Graph_map's graph: nnodes nodes (at most the
// communicator's size), index[] non-decreasing from 0, each edge a node.
// Multiple edges and self-loops are allowed (MPI 4.0 section 8.5.3).
int check_graph(Comm* c, const char* function, int nnodes, const int index[],
                const int edges[]) {
  if (nnodes < 0) {
    return fail(c, MPI_ERR_ARG, function, "negative nnodes %d", nnodes);
  }
  if (nnodes > c->size) {
    return fail(c, MPI_ERR_ARG, function,
                "the graph has %d nodes, more than the communicator's %d "
                "processes",
                nnodes, c->size);
  }
  if (nnodes == 0) {
    return MPI_SUCCESS;
  }
  if (index == nullptr) {
    return fail_static(c, MPI_ERR_ARG, function, "NULL index array");
  }
  int before = 0;
  for (int i = 0; i < nnodes; ++i) {
    if (index[i] < before) {
      return fail(c, MPI_ERR_ARG, function,
                  "index[%d] is %d, less than the %d before it", i, index[i],
                  before);
    }
    before = index[i];
  }
  const int nedges = index[nnodes - 1];
  if (nedges > 0 && edges == nullptr) {
    return fail_static(c, MPI_ERR_ARG, function, "NULL edges array");
  }
  for (int i = 0; i < nedges; ++i) {
    if (edges[i] < 0 || edges[i] >= nnodes) {
      return fail(c, MPI_ERR_ARG, function,
                  "edges[%d] is %d, not a node of the graph (0..%d)", i,
                  edges[i], nnodes - 1);
    }
  }
  return MPI_SUCCESS;
}

// Node `rank`'s edges: [begin, end) of t.edges.
int check_node(Comm* c, const char* function, const Topology& t, int rank,
               int* begin, int* end) {
  const int nnodes = static_cast<int>(t.index.size());
  if (rank < 0 || rank >= nnodes) {
    return fail(c, MPI_ERR_RANK, function,
                "rank %d is not a node of the graph (0..%d)", rank, nnodes - 1);
  }
  *begin = rank == 0 ? 0 : t.index[static_cast<std::size_t>(rank) - 1];
  *end = t.index[static_cast<std::size_t>(rank)];
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Graph_create(MPI_Comm comm_old, int nnodes,
                                 const int indx[], const int edges[],
                                 int /*reorder*/,
                                 MPI_Comm* comm_graph) noexcept {
  // reorder: every process keeps its rank (allowed by MPI 4.0 section
  // 8.5.3; on one machine there is no placement to improve by
  // renumbering).
  constexpr const char* kFn = "MPI_Graph_create";
  Comm* c = nullptr;
  if (int rc = check_topology_parent(comm_old, kFn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_graph(c, kFn, nnodes, indx, edges); rc != MPI_SUCCESS) {
    return rc;
  }
  if (comm_graph == nullptr) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL comm_graph argument");
  }
  if (nnodes == 0) {
    // An empty graph: MPI_COMM_NULL everywhere, no communication needed.
    *comm_graph = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  auto t = std::make_shared<Topology>();
  t->kind = MPI_GRAPH;
  t->index.assign(indx, indx + nnodes);
  t->edges.assign(edges, edges + indx[nnodes - 1]);
  Comm* fresh = nullptr;
  const char* why = "";
  if (int rc = make_topology_comm(*c, nnodes, std::move(t), &fresh, &why);
      rc != MPI_SUCCESS) {
    *comm_graph = MPI_COMM_NULL;
    return fail_static(c, rc, kFn, why);
  }
  *comm_graph = fresh != nullptr ? fresh->handle : MPI_COMM_NULL;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Graph_create);

extern "C" int PMPI_Graphdims_get(MPI_Comm comm, int* nnodes,
                                  int* nedges) noexcept {
  constexpr const char* kFn = "MPI_Graphdims_get";
  Comm* c = nullptr;
  const Topology* t = nullptr;
  if (int rc = topology_of(comm, MPI_GRAPH, kFn, &c, &t); rc != MPI_SUCCESS) {
    return rc;
  }
  if (nnodes == nullptr || nedges == nullptr) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL output argument");
  }
  *nnodes = static_cast<int>(t->index.size());
  *nedges = static_cast<int>(t->edges.size());
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Graphdims_get);

extern "C" int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges,
                              int indx[], int edges[]) noexcept {
  constexpr const char* kFn = "MPI_Graph_get";
  Comm* c = nullptr;
  const Topology* t = nullptr;
  if (int rc = topology_of(comm, MPI_GRAPH, kFn, &c, &t); rc != MPI_SUCCESS) {
    return rc;
  }
  if (maxindex < 0 || maxedges < 0) {
    return fail(c, MPI_ERR_ARG, kFn, "negative maxindex %d or maxedges %d",
                maxindex, maxedges);
  }
  // Arrays shorter than the graph get its first entries.
  const auto ni = std::min(t->index.size(), static_cast<std::size_t>(maxindex));
  const auto ne = std::min(t->edges.size(), static_cast<std::size_t>(maxedges));
  if ((ni > 0 && indx == nullptr) || (ne > 0 && edges == nullptr)) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL output array");
  }
  std::copy_n(t->index.begin(), ni, indx);
  std::copy_n(t->edges.begin(), ne, edges);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Graph_get);

extern "C" int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank,
                                          int* nneighbors) noexcept {
  constexpr const char* kFn = "MPI_Graph_neighbors_count";
  Comm* c = nullptr;
  const Topology* t = nullptr;
  if (int rc = topology_of(comm, MPI_GRAPH, kFn, &c, &t); rc != MPI_SUCCESS) {
    return rc;
  }
  int begin = 0;
  int end = 0;
  if (int rc = check_node(c, kFn, *t, rank, &begin, &end); rc != MPI_SUCCESS) {
    return rc;
  }
  if (nneighbors == nullptr) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL nneighbors argument");
  }
  *nneighbors = end - begin;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Graph_neighbors_count);

extern "C" int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors,
                                    int neighbors[]) noexcept {
  constexpr const char* kFn = "MPI_Graph_neighbors";
  Comm* c = nullptr;
  const Topology* t = nullptr;
  if (int rc = topology_of(comm, MPI_GRAPH, kFn, &c, &t); rc != MPI_SUCCESS) {
    return rc;
  }
  int begin = 0;
  int end = 0;
  if (int rc = check_node(c, kFn, *t, rank, &begin, &end); rc != MPI_SUCCESS) {
    return rc;
  }
  if (maxneighbors < 0) {
    return fail(c, MPI_ERR_ARG, kFn, "negative maxneighbors %d", maxneighbors);
  }
  const int n = std::min(end - begin, maxneighbors);
  if (n > 0 && neighbors == nullptr) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL neighbors array");
  }
  std::copy_n(t->edges.begin() + begin, n, neighbors);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Graph_neighbors);

extern "C" int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int indx[],
                              const int edges[], int* newrank) noexcept {
  constexpr const char* kFn = "MPI_Graph_map";
  Comm* c = nullptr;
  if (int rc = check_topology_parent(comm, kFn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_graph(c, kFn, nnodes, indx, edges); rc != MPI_SUCCESS) {
    return rc;
  }
  if (newrank == nullptr) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL newrank argument");
  }
  // The rank MPI_Graph_create gives this process: its own, as it never
  // reorders.
  *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Graph_map);
