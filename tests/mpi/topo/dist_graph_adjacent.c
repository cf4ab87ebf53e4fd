// SPDX-License-Identifier: MIT
// MPI 4.0 §8.5.4: MPI_DIST_GRAPH_CREATE_ADJACENT makes a communicator whose
// processes name their own sources and destinations; §8.5.6: the queries
// give them back in the order given, with the weights where the graph is
// weighted; MPI_TOPO_TEST tells the kinds apart and a dup keeps the
// topology (§7.4.2).
//
// Each rank's sources are its two ring neighbours and itself, its
// destinations the same ranks in another order, weighted by rank; then an
// unweighted graph with no edges on odd ranks. The new communicators keep
// their members' ranks (reorder is false) and carry traffic.
#include "mpitest.h"

static void check_weighted(MPI_Comm comm, int rank, int size) {
  const int left = (rank + size - 1) % size;
  const int right = (rank + 1) % size;
  int status = MPI_UNDEFINED;
  MPI_Topo_test(comm, &status);
  MT_CHECK(status == MPI_DIST_GRAPH, "Topo_test gave %d", status);
  int in = -1, out = -1, weighted = -1;
  MPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
  MT_CHECK(in == 3 && out == 3 && weighted == 1, "counts %d %d weighted %d", in,
           out, weighted);
  int sources[3], sw[3], destinations[3], dw[3];
  MPI_Dist_graph_neighbors(comm, 3, sources, sw, 3, destinations, dw);
  const int want_sources[3] = {left, right, rank};
  const int want_destinations[3] = {rank, right, left};
  for (int i = 0; i < 3; ++i) {
    MT_CHECK(sources[i] == want_sources[i] && sw[i] == 10 * i + 1,
             "source %d: %d weight %d", i, sources[i], sw[i]);
    MT_CHECK(destinations[i] == want_destinations[i] && dw[i] == 10 * i + 2,
             "destination %d: %d weight %d", i, destinations[i], dw[i]);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  const int left = (rank + size - 1) % size;
  const int right = (rank + 1) % size;

  int status = -1;
  MPI_Topo_test(MPI_COMM_WORLD, &status);
  MT_CHECK(status == MPI_UNDEFINED, "MPI_COMM_WORLD: Topo_test gave %d",
           status);

  const int sources[3] = {left, right, rank};
  const int sw[3] = {1, 11, 21};
  const int destinations[3] = {rank, right, left};
  const int dw[3] = {2, 12, 22};
  MPI_Comm graph = MPI_COMM_NULL;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 3, sources, sw, 3,
                                 destinations, dw, MPI_INFO_NULL, 0, &graph);
  MT_CHECK(graph != MPI_COMM_NULL, "no communicator");
  int graph_rank = -1;
  MPI_Comm_rank(graph, &graph_rank);
  MT_CHECK(graph_rank == rank, "rank %d became %d", rank, graph_rank);
  check_weighted(graph, rank, size);

  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Comm_dup(graph, &dup);
  check_weighted(dup, rank, size);
  MPI_Comm_free(&dup);

  // A split does not keep the topology.
  MPI_Comm split = MPI_COMM_NULL;
  MPI_Comm_split(graph, 0, rank, &split);
  MPI_Topo_test(split, &status);
  MT_CHECK(status == MPI_UNDEFINED, "split: Topo_test gave %d", status);
  MPI_Comm_free(&split);

  // Traffic on the new communicator: a ring shift.
  int got = -1;
  MPI_Sendrecv(&rank, 1, MPI_INT, right, 7, &got, 1, MPI_INT, left, 7, graph,
               MPI_STATUS_IGNORE);
  MT_CHECK(got == left, "ring shift got %d", got);
  MPI_Comm_free(&graph);

  // Unweighted, and no edges at all on odd ranks.
  const int degree = rank % 2 == 0 ? 1 : 0;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, degree, &rank, MPI_UNWEIGHTED,
                                 degree, &rank, MPI_UNWEIGHTED, MPI_INFO_NULL,
                                 1, &graph);
  int in = -1, out = -1, weighted = -1;
  MPI_Dist_graph_neighbors_count(graph, &in, &out, &weighted);
  MT_CHECK(in == degree && out == degree && weighted == 0,
           "unweighted: counts %d %d weighted %d", in, out, weighted);
  MPI_Comm_free(&graph);

  MPI_Finalize();
  if (rank == 0) {
    printf("dist_graph_adjacent: ok\n");
  }
  return 0;
}
