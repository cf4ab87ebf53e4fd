// SPDX-License-Identifier: MIT
// MPI 4.0 §8.5.6: the query functions take the length of each output array
// (maxdims, maxindex, maxedges, maxneighbors, maxindegree, maxoutdegree).
// shmpi fills arrays shorter than the data with its first entries;
// MPICH 4.0.2 raises MPI_ERR_ARG instead, so this is shmpi-only (the
// standard does not say which).
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();

  int dims[3] = {size, 1, 1};
  const int periods[3] = {1, 0, 1};
  MPI_Comm cart = MPI_COMM_NULL;
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
  int d[3] = {-1, -1, -1}, p[3] = {-1, -1, -1}, c[3] = {-1, -1, -1};
  MT_CHECK_MPI(MPI_Cart_get(cart, 1, d, p, c));
  MT_CHECK(d[0] == size && p[0] == 1 && c[0] == rank && d[1] == -1 &&
               p[1] == -1 && c[1] == -1,
           "Cart_get(maxdims 1): %d %d %d / %d %d %d", d[0], p[0], c[0], d[1],
           p[1], c[1]);
  MT_CHECK_MPI(MPI_Cart_coords(cart, rank, 2, c));
  MT_CHECK(c[0] == rank && c[1] == 0 && c[2] == -1,
           "Cart_coords(maxdims 2): %d %d %d", c[0], c[1], c[2]);
  MT_CHECK_MPI(MPI_Cart_get(cart, 0, NULL, NULL, NULL));
  MPI_Comm_free(&cart);

  // A graph of one node with three self-loops.
  const int index[1] = {3}, edges[3] = {0, 0, 0};
  MPI_Comm graph = MPI_COMM_NULL;
  MPI_Graph_create(MPI_COMM_WORLD, 1, index, edges, 0, &graph);
  if (rank == 0) {
    int gi[2] = {-1, -1}, ge[3] = {-1, -1, -1};
    MT_CHECK_MPI(MPI_Graph_get(graph, 1, 2, gi, ge));
    MT_CHECK(gi[0] == 3 && ge[0] == 0 && ge[1] == 0 && ge[2] == -1,
             "Graph_get(1, 2): %d / %d %d %d", gi[0], ge[0], ge[1], ge[2]);
    int nb[3] = {-1, -1, -1};
    MT_CHECK_MPI(MPI_Graph_neighbors(graph, 0, 1, nb));
    MT_CHECK(nb[0] == 0 && nb[1] == -1, "Graph_neighbors(max 1): %d %d", nb[0],
             nb[1]);
    MPI_Comm_free(&graph);
  }

  const int ring[2] = {(rank + 1) % size, (rank + size - 1) % size};
  const int w[2] = {5, 6};
  MPI_Comm dist = MPI_COMM_NULL;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, ring, w, 2, ring, w,
                                 MPI_INFO_NULL, 0, &dist);
  int s[2] = {-1, -1}, sw[2] = {-1, -1}, t[2] = {-1, -1}, tw[2] = {-1, -1};
  MT_CHECK_MPI(MPI_Dist_graph_neighbors(dist, 1, s, sw, 0, t, tw));
  MT_CHECK(s[0] == ring[0] && sw[0] == 5 && s[1] == -1 && t[0] == -1,
           "Dist_graph_neighbors(1, 0): %d %d %d %d", s[0], sw[0], s[1], t[0]);
  MPI_Comm_free(&dist);

  MPI_Finalize();
  if (rank == 0) {
    printf("short_arrays: ok\n");
  }
  return 0;
}
