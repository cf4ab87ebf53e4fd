// SPDX-License-Identifier: MIT
// MPI 4.0 §8.5.3: "MPI_GRAPH_CREATE returns a handle to a new communicator
// to which the graph topology information is attached ... If the size,
// nnodes, of the graph is smaller than the size of the group of comm_old,
// then some processes are returned MPI_COMM_NULL"; multiple edges and
// self-loops are allowed; §8.5.6: MPI_GRAPHDIMS_GET, MPI_GRAPH_GET,
// MPI_GRAPH_NEIGHBORS_COUNT and MPI_GRAPH_NEIGHBORS give the graph back as
// given; §8.5.7: MPI_GRAPH_MAP.
//
// A ring with a duplicated edge and a self-loop on node 0, over all
// processes; a star over all but the last process; then a ring shift on
// the graph communicator and a dup.
#include "mpitest.h"

static void check_graph(MPI_Comm graph, int nnodes, const int* index,
                        const int* edges) {
  int status = MPI_UNDEFINED;
  MPI_Topo_test(graph, &status);
  MT_CHECK(status == MPI_GRAPH, "Topo_test gave %d", status);
  int rank = -1, size = 0;
  MPI_Comm_rank(graph, &rank);
  MPI_Comm_size(graph, &size);
  MT_CHECK(rank == mt_rank() && size == nnodes, "rank %d size %d", rank, size);
  const int nedges = index[nnodes - 1];
  int got_nodes = -1, got_edges = -1;
  MPI_Graphdims_get(graph, &got_nodes, &got_edges);
  MT_CHECK(got_nodes == nnodes && got_edges == nedges,
           "Graphdims_get %d %d, want %d %d", got_nodes, got_edges, nnodes,
           nedges);
  int gindex[64], gedges[128];
  MPI_Graph_get(graph, 64, 128, gindex, gedges);
  for (int i = 0; i < nnodes; ++i) {
    MT_CHECK(gindex[i] == index[i], "index[%d] %d, want %d", i, gindex[i],
             index[i]);
  }
  for (int i = 0; i < nedges; ++i) {
    MT_CHECK(gedges[i] == edges[i], "edges[%d] %d, want %d", i, gedges[i],
             edges[i]);
  }
  for (int node = 0; node < nnodes; ++node) {
    const int begin = node == 0 ? 0 : index[node - 1];
    const int count = index[node] - begin;
    int got = -1;
    MPI_Graph_neighbors_count(graph, node, &got);
    MT_CHECK(got == count, "node %d: %d neighbours, want %d", node, got, count);
    int neighbors[64];
    MPI_Graph_neighbors(graph, node, 64, neighbors);
    for (int i = 0; i < count; ++i) {
      MT_CHECK(neighbors[i] == edges[begin + i],
               "node %d neighbour %d: %d, want %d", node, i, neighbors[i],
               edges[begin + i]);
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();

  // A ring: node i's neighbours are i-1 and i+1; node 0 also has itself
  // and a second edge to 1.
  int index[64], edges[128], nedges = 0;
  for (int i = 0; i < size; ++i) {
    edges[nedges++] = (i + size - 1) % size;
    edges[nedges++] = (i + 1) % size;
    if (i == 0) {
      edges[nedges++] = 0;
      edges[nedges++] = 1 % size;
    }
    index[i] = nedges;
  }
  int mapped = -5;
  MPI_Graph_map(MPI_COMM_WORLD, size, index, edges, &mapped);
  MT_CHECK(mapped == rank, "Graph_map gave %d", mapped);
  MPI_Comm ring = MPI_COMM_NULL;
  MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &ring);
  MT_CHECK(ring != MPI_COMM_NULL, "no ring communicator");
  check_graph(ring, size, index, edges);

  // Traffic: each node sends its rank to its second neighbour (i+1).
  int neighbors[4];
  MPI_Graph_neighbors(ring, rank, 4, neighbors);
  int got = -1;
  MPI_Sendrecv(&rank, 1, MPI_INT, neighbors[1], 3, &got, 1, MPI_INT,
               neighbors[0], 3, ring, MPI_STATUS_IGNORE);
  MT_CHECK(got == neighbors[0], "ring shift got %d from %d", got, neighbors[0]);

  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Comm_dup(ring, &dup);
  check_graph(dup, size, index, edges);
  MPI_Comm_free(&dup);

  MPI_Comm_free(&ring);

  // A star over all processes but the last: node 0 is linked to every
  // other node and they to it.
  const int nnodes = size > 1 ? size - 1 : 1;
  nedges = 0;
  for (int i = 0; i < nnodes; ++i) {
    if (i == 0) {
      for (int j = 1; j < nnodes; ++j) {
        edges[nedges++] = j;
      }
    } else {
      edges[nedges++] = 0;
    }
    index[i] = nedges;
  }
  MPI_Graph_map(MPI_COMM_WORLD, nnodes, index, edges, &mapped);
  MT_CHECK(mapped == (rank < nnodes ? rank : MPI_UNDEFINED),
           "star Graph_map gave %d", mapped);
  MPI_Comm star = MPI_COMM_NULL;
  MPI_Graph_create(MPI_COMM_WORLD, nnodes, index, edges, 1, &star);
  if (rank < nnodes) {
    MT_CHECK(star != MPI_COMM_NULL, "no star communicator");
    check_graph(star, nnodes, index, edges);
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, star);
    MT_CHECK(sum == nnodes * (nnodes - 1) / 2, "star sum %d", sum);
    MPI_Comm_free(&star);
  } else {
    MT_CHECK(star == MPI_COMM_NULL, "rank %d outside the star got one", rank);
  }

  MPI_Finalize();
  if (rank == 0) {
    printf("graph: ok\n");
  }
  return 0;
}
