// SPDX-License-Identifier: MIT
// MPI 4.0 §8.5.4: MPI_DIST_GRAPH_CREATE: "Each process passes an arbitrary
// list of edges to the call; the edges that are passed by a process need
// not be incident on that process ... The call creates a new communicator
// comm_dist_graph of distributed graph topology type to which topology
// information has been attached"; §8.5.6: MPI_DIST_GRAPH_NEIGHBORS_COUNT
// and MPI_DIST_GRAPH_NEIGHBORS give each process its own in- and
// out-edges with their weights (in an order MPI leaves to the
// implementation, so they are compared sorted here).
//
// One graph, each rank r having edges r -> r+1 and r -> r+3 (mod size)
// with weight 1000 * source + destination + 1, given three ways: each edge
// by some other process (one edge per sources[] entry); all of a rank's
// out-edges by its neighbour (degree 2); all edges by rank 0 (the others
// give none, with MPI_WEIGHTS_EMPTY). Then unweighted, and a message
// along every edge.
#include "mpitest.h"

#define EDGES_PER_RANK 2

static int steps[EDGES_PER_RANK] = {1, 3};

static int weight_of(int source, int dest) { return 1000 * source + dest + 1; }

typedef struct {
  int peer;
  int weight;
} Pair;

static int compare_pairs(const void* a, const void* b) {
  const Pair* x = a;
  const Pair* y = b;
  if (x->peer != y->peer) {
    return x->peer < y->peer ? -1 : 1;
  }
  return (x->weight > y->weight) - (x->weight < y->weight);
}

// Checks `graph` against the edge set, by sorted (peer, weight) pairs.
static void check(MPI_Comm graph, int weighted, const char* what) {
  const int rank = mt_rank();
  const int size = mt_size();
  int status = MPI_UNDEFINED;
  MPI_Topo_test(graph, &status);
  MT_CHECK(status == MPI_DIST_GRAPH, "%s: Topo_test gave %d", what, status);
  int graph_rank = -1;
  MPI_Comm_rank(graph, &graph_rank);
  MT_CHECK(graph_rank == rank, "%s: rank %d became %d", what, rank, graph_rank);

  Pair want_in[64], want_out[64];
  int nin = 0, nout = 0;
  for (int s = 0; s < size; ++s) {
    for (int e = 0; e < EDGES_PER_RANK; ++e) {
      const int d = (s + steps[e]) % size;
      if (s == rank) {
        want_out[nout].peer = d;
        want_out[nout++].weight = weighted ? weight_of(s, d) : 0;
      }
      if (d == rank) {
        want_in[nin].peer = s;
        want_in[nin++].weight = weighted ? weight_of(s, d) : 0;
      }
    }
  }
  int indegree = -1, outdegree = -1, is_weighted = -1;
  MPI_Dist_graph_neighbors_count(graph, &indegree, &outdegree, &is_weighted);
  MT_CHECK(indegree == nin && outdegree == nout &&
               (is_weighted != 0) == (weighted != 0),
           "%s: counts %d %d weighted %d, want %d %d %d", what, indegree,
           outdegree, is_weighted, nin, nout, weighted);
  int sources[64], sw[64], dests[64], dw[64];
  // Unweighted graphs leave the weight arrays alone.
  MPI_Dist_graph_neighbors(graph, 64, sources, sw, 64, dests, dw);
  Pair got_in[64], got_out[64];
  for (int i = 0; i < nin; ++i) {
    got_in[i].peer = sources[i];
    got_in[i].weight = weighted ? sw[i] : 0;
  }
  for (int i = 0; i < nout; ++i) {
    got_out[i].peer = dests[i];
    got_out[i].weight = weighted ? dw[i] : 0;
  }
  qsort(want_in, (size_t)nin, sizeof(Pair), compare_pairs);
  qsort(got_in, (size_t)nin, sizeof(Pair), compare_pairs);
  qsort(want_out, (size_t)nout, sizeof(Pair), compare_pairs);
  qsort(got_out, (size_t)nout, sizeof(Pair), compare_pairs);
  for (int i = 0; i < nin; ++i) {
    MT_CHECK(got_in[i].peer == want_in[i].peer &&
                 got_in[i].weight == want_in[i].weight,
             "%s: in-edge %d: from %d weight %d, want %d weight %d", what, i,
             got_in[i].peer, got_in[i].weight, want_in[i].peer,
             want_in[i].weight);
  }
  for (int i = 0; i < nout; ++i) {
    MT_CHECK(got_out[i].peer == want_out[i].peer &&
                 got_out[i].weight == want_out[i].weight,
             "%s: out-edge %d: to %d weight %d, want %d weight %d", what, i,
             got_out[i].peer, got_out[i].weight, want_out[i].peer,
             want_out[i].weight);
  }

  // A message along every edge: each in-edge brings its source's rank.
  MPI_Request requests[128];
  int received[64];
  for (int i = 0; i < nin; ++i) {
    MPI_Irecv(&received[i], 1, MPI_INT, sources[i], 5, graph, &requests[i]);
  }
  for (int i = 0; i < nout; ++i) {
    MPI_Isend(&graph_rank, 1, MPI_INT, dests[i], 5, graph, &requests[nin + i]);
  }
  MPI_Waitall(nin + nout, requests, MPI_STATUSES_IGNORE);
  for (int i = 0; i < nin; ++i) {
    MT_CHECK(received[i] == sources[i], "%s: message from %d says %d", what,
             sources[i], received[i]);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  const int total = size * EDGES_PER_RANK;
  int sources[64], degrees[64], destinations[64], weights[64];

  // Edge k (source k / 2) is given by process (7k + 3) mod size.
  int n = 0;
  for (int k = 0; k < total; ++k) {
    if ((7 * k + 3) % size == rank) {
      const int s = k / EDGES_PER_RANK;
      sources[n] = s;
      degrees[n] = 1;
      destinations[n] = (s + steps[k % EDGES_PER_RANK]) % size;
      weights[n] = weight_of(s, destinations[n]);
      ++n;
    }
  }
  MPI_Comm graph = MPI_COMM_NULL;
  MPI_Dist_graph_create(MPI_COMM_WORLD, n, sources, degrees, destinations,
                        weights, MPI_INFO_NULL, 0, &graph);
  check(graph, 1, "scattered");
  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Comm_dup(graph, &dup);
  check(dup, 1, "scattered, dup");
  MPI_Comm_free(&dup);
  MPI_Comm_free(&graph);

  // Rank r gives every out-edge of rank r + 1, with one sources[] entry.
  const int s = (rank + 1) % size;
  sources[0] = s;
  degrees[0] = EDGES_PER_RANK;
  for (int e = 0; e < EDGES_PER_RANK; ++e) {
    destinations[e] = (s + steps[e]) % size;
    weights[e] = weight_of(s, destinations[e]);
  }
  MPI_Dist_graph_create(MPI_COMM_WORLD, 1, sources, degrees, destinations,
                        weights, MPI_INFO_NULL, 1, &graph);
  check(graph, 1, "by neighbour");
  MPI_Comm_free(&graph);

  MPI_Dist_graph_create(MPI_COMM_WORLD, 1, sources, degrees, destinations,
                        MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph);
  check(graph, 0, "unweighted");
  MPI_Comm_free(&graph);

  // Rank 0 gives every edge; the others none.
  n = 0;
  if (rank == 0) {
    for (int r = 0; r < size; ++r) {
      sources[r] = r;
      degrees[r] = EDGES_PER_RANK;
      for (int e = 0; e < EDGES_PER_RANK; ++e) {
        destinations[n] = (r + steps[e]) % size;
        weights[n] = weight_of(r, destinations[n]);
        ++n;
      }
    }
  }
  MPI_Dist_graph_create(MPI_COMM_WORLD, rank == 0 ? size : 0, sources, degrees,
                        destinations, rank == 0 ? weights : MPI_WEIGHTS_EMPTY,
                        MPI_INFO_NULL, 0, &graph);
  check(graph, 1, "all from rank 0");
  MPI_Comm_free(&graph);

  MPI_Finalize();
  if (rank == 0) {
    printf("dist_graph: ok\n");
  }
  return 0;
}
