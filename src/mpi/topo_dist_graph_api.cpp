// SPDX-License-Identifier: MIT
// Distributed graph topologies given by each process's own edges
// (MPI_Dist_graph_create_adjacent), their queries, and MPI_Topo_test.
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <utility>

#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/info.hpp"
#include "mpi/topology.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

int check_comm_call(MPI_Comm comm, const char* function, Comm** out) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  return check_comm(comm, out, function);
}

// One side of a process's edges: `degree` ranks of `c` with their weights
// (MPI_UNWEIGHTED: none; MPI_WEIGHTS_EMPTY: none, legal for degree 0).
int take_edges(Comm* c, const char* function, const char* side, int degree,
               const int ranks[], const int weights[], std::vector<int>* out,
               std::vector<int>* out_weights) {
  if (degree < 0) {
    return fail(c, MPI_ERR_ARG, function, "negative %s %d", side, degree);
  }
  if (degree > 0 && ranks == nullptr) {
    return fail(c, MPI_ERR_ARG, function, "NULL %s ranks with degree %d", side,
                degree);
  }
  const bool unweighted = weights == MPI_UNWEIGHTED;
  if (!unweighted && degree > 0 &&
      (weights == MPI_WEIGHTS_EMPTY || weights == nullptr)) {
    return fail(c, MPI_ERR_ARG, function,
                "no %s weights given for degree %d (MPI_UNWEIGHTED if the "
                "graph has none)",
                side, degree);
  }
  for (int i = 0; i < degree; ++i) {
    if (ranks[i] < 0 || ranks[i] >= c->size) {
      return fail(c, MPI_ERR_RANK, function,
                  "%s rank %d at position %d is not a rank of the "
                  "communicator (size %d)",
                  side, ranks[i], i, c->size);
    }
    if (!unweighted && weights[i] < 0) {
      return fail(c, MPI_ERR_ARG, function,
                  "negative %s weight %d at position %d", side, weights[i], i);
    }
  }
  out->assign(ranks, ranks + degree);
  if (!unweighted && degree > 0) {
    out_weights->assign(weights, weights + degree);
  }
  return MPI_SUCCESS;
}

// The topology of a distributed-graph communicator, or an error raised.
int dist_graph_of(MPI_Comm comm, const char* function, Comm** c,
                  const Topology** out) {
  if (int rc = check_comm_call(comm, function, c); rc != MPI_SUCCESS) {
    return rc;
  }
  const Topology* t = (*c)->topology.get();
  if (t == nullptr || t->kind != MPI_DIST_GRAPH) {
    return fail_static(*c, MPI_ERR_TOPOLOGY, function,
                       "the communicator has no distributed graph topology");
  }
  *out = t;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Topo_test(MPI_Comm comm, int* status) noexcept {
  constexpr const char* kFn = "MPI_Topo_test";
  Comm* c = nullptr;
  if (int rc = check_comm_call(comm, kFn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (status == nullptr) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL status argument");
  }
  *status = c->topology != nullptr ? c->topology->kind : MPI_UNDEFINED;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Topo_test);

extern "C" int PMPI_Dist_graph_create_adjacent(
    MPI_Comm comm_old, int indegree, const int sources[],
    const int sourceweights[], int outdegree, const int destinations[],
    const int destweights[], MPI_Info info, int /*reorder*/,
    MPI_Comm* comm_dist_graph) noexcept {
  // reorder: every rank keeps its rank (allowed by MPI 4.0 section 8.5.4;
  // on one machine there is no placement to improve by renumbering).
  constexpr const char* kFn = "MPI_Dist_graph_create_adjacent";
  Comm* c = nullptr;
  if (int rc = check_comm_call(comm_old, kFn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (c->is_inter) {
    return fail_static(c, MPI_ERR_COMM, kFn,
                       "a virtual topology needs an intracommunicator");
  }
  if (comm_dist_graph == nullptr) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL output argument");
  }
  auto t = std::make_shared<Topology>();
  t->kind = MPI_DIST_GRAPH;
  if (int rc = take_edges(c, kFn, "source", indegree, sources, sourceweights,
                          &t->sources, &t->source_weights);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc =
          take_edges(c, kFn, "destination", outdegree, destinations,
                     destweights, &t->destinations, &t->destination_weights);
      rc != MPI_SUCCESS) {
    return rc;
  }
  t->weighted =
      sourceweights != MPI_UNWEIGHTED || destweights != MPI_UNWEIGHTED;
  Hints hints;
  if (int rc = hints_from_info(info, &hints); rc != MPI_SUCCESS) {
    return fail_static(c, rc, kFn, "invalid info object");
  }
  Comm* fresh = nullptr;
  const char* why = "";
  if (int rc = make_topology_comm(*c, std::move(t), &fresh, &why);
      rc != MPI_SUCCESS) {
    *comm_dist_graph = MPI_COMM_NULL;
    return fail_static(c, rc, kFn, why);
  }
  fresh->hints = std::move(hints);
  *comm_dist_graph = fresh->handle;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Dist_graph_create_adjacent);

extern "C" int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int* indegree,
                                               int* outdegree,
                                               int* weighted) noexcept {
  constexpr const char* kFn = "MPI_Dist_graph_neighbors_count";
  Comm* c = nullptr;
  const Topology* t = nullptr;
  if (int rc = dist_graph_of(comm, kFn, &c, &t); rc != MPI_SUCCESS) {
    return rc;
  }
  if (indegree == nullptr || outdegree == nullptr || weighted == nullptr) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL output argument");
  }
  *indegree = static_cast<int>(t->sources.size());
  *outdegree = static_cast<int>(t->destinations.size());
  *weighted = t->weighted ? 1 : 0;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Dist_graph_neighbors_count);

extern "C" int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree,
                                         int sources[], int sourceweights[],
                                         int maxoutdegree, int destinations[],
                                         int destweights[]) noexcept {
  constexpr const char* kFn = "MPI_Dist_graph_neighbors";
  Comm* c = nullptr;
  const Topology* t = nullptr;
  if (int rc = dist_graph_of(comm, kFn, &c, &t); rc != MPI_SUCCESS) {
    return rc;
  }
  if (maxindegree < 0 || maxoutdegree < 0) {
    return fail(c, MPI_ERR_ARG, kFn,
                "negative maxindegree %d or maxoutdegree %d", maxindegree,
                maxoutdegree);
  }
  const auto in = std::min<std::size_t>(t->sources.size(),
                                        static_cast<std::size_t>(maxindegree));
  const auto out = std::min<std::size_t>(
      t->destinations.size(), static_cast<std::size_t>(maxoutdegree));
  if ((in > 0 && sources == nullptr) || (out > 0 && destinations == nullptr)) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL output array");
  }
  std::copy_n(t->sources.begin(), in, sources);
  std::copy_n(t->destinations.begin(), out, destinations);
  // Weights are written where the graph has them and the caller asked.
  auto give = [](const std::vector<int>& weights, std::size_t n, int* to) {
    if (to != nullptr && to != MPI_UNWEIGHTED && to != MPI_WEIGHTS_EMPTY &&
        weights.size() >= n) {
      std::copy_n(weights.begin(), n, to);
    }
  };
  give(t->source_weights, in, sourceweights);
  give(t->destination_weights, out, destweights);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Dist_graph_neighbors);
