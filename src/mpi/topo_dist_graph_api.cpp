// SPDX-License-Identifier: MIT
// Distributed graph topologies, given by each process's own edges
// (MPI_Dist_graph_create_adjacent) or by any process
// (MPI_Dist_graph_create), their queries, and MPI_Topo_test.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>

#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/info.hpp"
#include "mpi/topology.hpp"
#include "mpi/topology_args.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

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

// The new communicator of either constructor, with the hints its info gave,
// in *out (MPI_COMM_NULL on failure, raised on `c`).
int make_dist_graph_comm(Comm* c, std::shared_ptr<const Topology> t,
                         Hints hints, MPI_Comm* out, const char* function) {
  Comm* fresh = nullptr;
  const char* why = "";
  if (int rc = make_topology_comm(*c, std::move(t), &fresh, &why);
      rc != MPI_SUCCESS) {
    *out = MPI_COMM_NULL;
    return fail_static(c, rc, function, why);
  }
  fresh->hints = std::move(hints);
  *out = fresh->handle;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Topo_test(MPI_Comm comm, int* status) noexcept {
  constexpr const char* kFn = "MPI_Topo_test";
  Comm* c = nullptr;
  if (int rc = check_topology_comm(comm, kFn, &c); rc != MPI_SUCCESS) {
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
  if (int rc = check_topology_parent(comm_old, kFn, &c); rc != MPI_SUCCESS) {
    return rc;
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
  return make_dist_graph_comm(c, std::move(t), std::move(hints),
                              comm_dist_graph, kFn);
}
SHMPI_PMPI_ALIAS(MPI_Dist_graph_create_adjacent);

extern "C" int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int* indegree,
                                               int* outdegree,
                                               int* weighted) noexcept {
  constexpr const char* kFn = "MPI_Dist_graph_neighbors_count";
  Comm* c = nullptr;
  const Topology* t = nullptr;
  if (int rc = topology_of(comm, MPI_DIST_GRAPH, kFn, &c, &t);
      rc != MPI_SUCCESS) {
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
  if (int rc = topology_of(comm, MPI_DIST_GRAPH, kFn, &c, &t);
      rc != MPI_SUCCESS) {
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

namespace {

// What MPI_Dist_graph_create sends to each process about the edges this
// process gave: for each edge that touches it, three ints.
enum EdgeRecord : int {
  kYouAreSource = 0,       // {kind, destination, weight}: one of its out-edges
  kYouAreDestination = 1,  // {kind, source, weight}: one of its in-edges
};
constexpr int kRecordInts = 3;

// The edges a process gave, checked: sources[i] has degrees[i] out-edges,
// to the next degrees[i] entries of destinations (and weights).
int check_given_edges(Comm* c, const char* function, int n, const int sources[],
                      const int degrees[], const int destinations[],
                      const int weights[], std::int64_t* total) {
  if (n < 0) {
    return fail(c, MPI_ERR_ARG, function, "negative n %d", n);
  }
  if (n > 0 && (sources == nullptr || degrees == nullptr)) {
    return fail_static(c, MPI_ERR_ARG, function,
                       "NULL sources or degrees array");
  }
  std::int64_t edges = 0;
  for (int i = 0; i < n; ++i) {
    if (sources[i] < 0 || sources[i] >= c->size) {
      return fail(c, MPI_ERR_RANK, function,
                  "sources[%d] is %d, not a rank of the communicator "
                  "(size %d)",
                  i, sources[i], c->size);
    }
    if (degrees[i] < 0) {
      return fail(c, MPI_ERR_ARG, function, "degrees[%d] is negative (%d)", i,
                  degrees[i]);
    }
    edges += degrees[i];
  }
  if (edges > INT32_MAX / (2 * kRecordInts)) {  // two records an edge
    return fail(c, MPI_ERR_ARG, function, "too many edges (%lld)",
                static_cast<long long>(edges));
  }
  if (edges > 0 && destinations == nullptr) {
    return fail_static(c, MPI_ERR_ARG, function, "NULL destinations array");
  }
  const bool unweighted = weights == MPI_UNWEIGHTED;
  if (!unweighted && edges > 0 &&
      (weights == MPI_WEIGHTS_EMPTY || weights == nullptr)) {
    return fail(c, MPI_ERR_ARG, function,
                "no weights given for %lld edges (MPI_UNWEIGHTED if the "
                "graph has none)",
                static_cast<long long>(edges));
  }
  for (std::int64_t e = 0; e < edges; ++e) {
    if (destinations[e] < 0 || destinations[e] >= c->size) {
      return fail(c, MPI_ERR_RANK, function,
                  "destinations[%lld] is %d, not a rank of the communicator "
                  "(size %d)",
                  static_cast<long long>(e), destinations[e], c->size);
    }
    if (!unweighted && weights[e] < 0) {
      return fail(c, MPI_ERR_ARG, function, "weights[%lld] is negative (%d)",
                  static_cast<long long>(e), weights[e]);
    }
  }
  *total = edges;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Dist_graph_create(MPI_Comm comm_old, int n,
                                      const int sources[], const int degrees[],
                                      const int destinations[],
                                      const int weights[], MPI_Info info,
                                      int /*reorder*/,
                                      MPI_Comm* comm_dist_graph) noexcept {
  // reorder: every rank keeps its rank, as in
  // MPI_Dist_graph_create_adjacent.
  constexpr const char* kFn = "MPI_Dist_graph_create";
  Comm* c = nullptr;
  if (int rc = check_topology_parent(comm_old, kFn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  std::int64_t total = 0;
  if (int rc = check_given_edges(c, kFn, n, sources, degrees, destinations,
                                 weights, &total);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (comm_dist_graph == nullptr) {
    return fail_static(c, MPI_ERR_ARG, kFn, "NULL output argument");
  }
  Hints hints;
  if (int rc = hints_from_info(info, &hints); rc != MPI_SUCCESS) {
    return fail_static(c, rc, kFn, "invalid info object");
  }
  const bool weighted = weights != MPI_UNWEIGHTED;

  // Each process learns the edges that touch it from whoever gave them:
  // one all-to-all of record counts (with the sender's weighted flag),
  // one of the records. Both are collective over comm_old, as this call
  // is; an error in them has been raised there and is returned as it is.
  const auto size = static_cast<std::size_t>(c->size);
  std::vector<int> header(2 * size, 0);  // {ints, weighted} per process
  auto for_each_edge = [&](auto&& visit) {
    std::int64_t e = 0;
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < degrees[i]; ++k, ++e) {
        visit(sources[i], destinations[e], weighted ? weights[e] : 1);
      }
    }
  };
  for_each_edge([&](int from, int to, int /*weight*/) {
    header[2 * static_cast<std::size_t>(from)] += kRecordInts;
    header[2 * static_cast<std::size_t>(to)] += kRecordInts;
  });
  std::vector<int> send_counts(size);
  std::vector<int> send_displs(size);
  int offset = 0;
  for (std::size_t p = 0; p < size; ++p) {
    header[2 * p + 1] = weighted ? 1 : 0;
    send_counts[p] = header[2 * p];
    send_displs[p] = offset;
    offset += send_counts[p];
  }
  std::vector<int> send(static_cast<std::size_t>(offset));
  std::vector<int> fill = send_displs;
  auto put = [&](int to, int kind, int peer, int weight) {
    const auto at =
        static_cast<std::size_t>(fill[static_cast<std::size_t>(to)]);
    send[at] = kind;
    send[at + 1] = peer;
    send[at + 2] = weight;
    fill[static_cast<std::size_t>(to)] += kRecordInts;
  };
  for_each_edge([&](int from, int to, int weight) {
    put(from, kYouAreSource, to, weight);
    put(to, kYouAreDestination, from, weight);
  });
  std::vector<int> got_header(2 * size);
  if (int rc = PMPI_Alltoall(header.data(), 2, MPI_INT, got_header.data(), 2,
                             MPI_INT, comm_old);
      rc != MPI_SUCCESS) {
    return rc;
  }
  std::vector<int> recv_counts(size);
  std::vector<int> recv_displs(size);
  std::int64_t received = 0;
  for (std::size_t p = 0; p < size; ++p) {
    // Every process sees every flag, so all of them fail here alike.
    if (got_header[2 * p + 1] != (weighted ? 1 : 0)) {
      return fail(c, MPI_ERR_ARG, kFn,
                  "rank %zu passed %s, this one %s: MPI_UNWEIGHTED must be "
                  "given by all processes or none",
                  p, weighted ? "MPI_UNWEIGHTED" : "weights",
                  weighted ? "weights" : "MPI_UNWEIGHTED");
    }
    recv_counts[p] = got_header[2 * p];
    recv_displs[p] = static_cast<int>(received);
    received += recv_counts[p];
  }
  if (received > INT32_MAX) {
    return fail_static(c, MPI_ERR_ARG, kFn, "too many edges at this process");
  }
  std::vector<int> recv(static_cast<std::size_t>(received));
  if (int rc =
          PMPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(),
                         MPI_INT, recv.data(), recv_counts.data(),
                         recv_displs.data(), MPI_INT, comm_old);
      rc != MPI_SUCCESS) {
    return rc;
  }

  // Records arrive by the rank of the process that gave the edge, then in
  // the order it listed them (topology.hpp).
  auto t = std::make_shared<Topology>();
  t->kind = MPI_DIST_GRAPH;
  t->weighted = weighted;
  for (std::size_t at = 0; at < recv.size(); at += kRecordInts) {
    if (recv[at] == kYouAreSource) {
      t->destinations.push_back(recv[at + 1]);
      if (weighted) {
        t->destination_weights.push_back(recv[at + 2]);
      }
    } else {
      t->sources.push_back(recv[at + 1]);
      if (weighted) {
        t->source_weights.push_back(recv[at + 2]);
      }
    }
  }
  return make_dist_graph_comm(c, std::move(t), std::move(hints),
                              comm_dist_graph, kFn);
}
SHMPI_PMPI_ALIAS(MPI_Dist_graph_create);
