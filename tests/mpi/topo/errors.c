// SPDX-License-Identifier: MIT
// Bad arguments to the topology functions of MPI 4.0 chapter 8, under
// MPI_ERRORS_RETURN, and the class each gives: MPI_ERR_TOPOLOGY for a
// communicator without the topology asked about, MPI_ERR_RANK for a rank
// outside it, MPI_ERR_DIMS for bad Dims_create entries and a Cart_map grid
// too large, MPI_ERR_ARG for the rest (negative counts, NULL arrays and
// outputs, a grid or graph larger than the communicator in the
// constructors, a coordinate off a non-periodic dimension). These are the
// classes MPICH 4.0.2 gives too; errors_shmpi.c has the inputs it does
// not check. With "fatal", rank 0 makes the first bad call
// (MPI_Cart_create with ndims -1) under MPI_ERRORS_ARE_FATAL.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  if (mt_errors_caller(fatal)) {
    const int size = mt_size();
    const int rank = mt_rank();
    int r = 0, s = 0, out[3];
    int dims[2] = {size, 1};
    const int periods[2] = {0, 1};
    const int big[1] = {size + 1};
    MPI_Comm c = MPI_COMM_NULL;

    MT_EXPECT_CLASS(fatal,
                    MPI_Cart_create(MPI_COMM_WORLD, -1, dims, periods, 0, &c),
                    MPI_ERR_ARG, "MPI_Cart_create(ndims -1)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Cart_create(MPI_COMM_WORLD, 1, big, periods, 0, &c),
                    MPI_ERR_ARG, "MPI_Cart_create(more nodes than processes)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Cart_create(MPI_COMM_WORLD, 2, NULL, periods, 0, &c),
                    MPI_ERR_ARG, "MPI_Cart_create(dims NULL)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, NULL, 0, &c),
                    MPI_ERR_ARG, "MPI_Cart_create(periods NULL)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, NULL),
                    MPI_ERR_ARG, "MPI_Cart_create(comm_cart NULL)");

    // No topology, or another kind.
    MT_EXPECT_CLASS(fatal, MPI_Cartdim_get(MPI_COMM_WORLD, &r),
                    MPI_ERR_TOPOLOGY, "MPI_Cartdim_get(MPI_COMM_WORLD)");
    MT_EXPECT_CLASS(fatal, MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &r, &s),
                    MPI_ERR_TOPOLOGY, "MPI_Cart_shift(MPI_COMM_WORLD)");
    MT_EXPECT_CLASS(fatal, MPI_Cart_sub(MPI_COMM_WORLD, periods, &c),
                    MPI_ERR_TOPOLOGY, "MPI_Cart_sub(MPI_COMM_WORLD)");
    MT_EXPECT_CLASS(fatal, MPI_Graphdims_get(MPI_COMM_WORLD, &r, &s),
                    MPI_ERR_TOPOLOGY, "MPI_Graphdims_get(MPI_COMM_WORLD)");

    MPI_Comm cart = MPI_COMM_NULL;
    MT_CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    MT_EXPECT_CLASS(fatal, MPI_Graphdims_get(cart, &r, &s), MPI_ERR_TOPOLOGY,
                    "MPI_Graphdims_get(Cartesian)");
    MT_EXPECT_CLASS(fatal, MPI_Graph_neighbors_count(cart, 0, &r),
                    MPI_ERR_TOPOLOGY, "MPI_Graph_neighbors_count(Cartesian)");
    MT_EXPECT_CLASS(fatal, MPI_Dist_graph_neighbors_count(cart, &r, &s, &s),
                    MPI_ERR_TOPOLOGY,
                    "MPI_Dist_graph_neighbors_count(Cartesian)");
    MT_EXPECT_CLASS(fatal, MPI_Cart_shift(cart, -1, 1, &r, &s), MPI_ERR_ARG,
                    "MPI_Cart_shift(direction -1)");
    MT_EXPECT_CLASS(fatal, MPI_Cart_shift(cart, 2, 1, &r, &s), MPI_ERR_ARG,
                    "MPI_Cart_shift(direction = ndims)");
    MT_EXPECT_CLASS(fatal, MPI_Cart_shift(cart, 0, 1, NULL, &s), MPI_ERR_ARG,
                    "MPI_Cart_shift(rank_source NULL)");
    const int off[2] = {size, 0};
    MT_EXPECT_CLASS(fatal, MPI_Cart_rank(cart, off, &r), MPI_ERR_ARG,
                    "MPI_Cart_rank(coordinate past a non-periodic edge)");
    const int below[2] = {-1, 0};
    MT_EXPECT_CLASS(fatal, MPI_Cart_rank(cart, below, &r), MPI_ERR_ARG,
                    "MPI_Cart_rank(coordinate -1, non-periodic)");
    MT_EXPECT_CLASS(fatal, MPI_Cart_rank(cart, below, NULL), MPI_ERR_ARG,
                    "MPI_Cart_rank(rank NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Cart_coords(cart, size, 2, out), MPI_ERR_RANK,
                    "MPI_Cart_coords(rank = size)");
    MT_EXPECT_CLASS(fatal, MPI_Cart_coords(cart, -1, 2, out), MPI_ERR_RANK,
                    "MPI_Cart_coords(rank -1)");
    MT_EXPECT_CLASS(fatal, MPI_Cart_coords(cart, 0, -1, out), MPI_ERR_ARG,
                    "MPI_Cart_coords(maxdims -1)");
    MT_EXPECT_CLASS(fatal, MPI_Cart_get(cart, -1, out, out, out), MPI_ERR_ARG,
                    "MPI_Cart_get(maxdims -1)");
    MT_EXPECT_CLASS(fatal, MPI_Cart_sub(cart, NULL, &c), MPI_ERR_ARG,
                    "MPI_Cart_sub(remain_dims NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Cartdim_get(cart, NULL), MPI_ERR_ARG,
                    "MPI_Cartdim_get(ndims NULL)");
    MPI_Comm_free(&cart);

    // Zero dimensions: nothing to shift along.
    MPI_Comm zero = MPI_COMM_NULL;
    MT_CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &zero));
    if (rank == 0) {
      MT_EXPECT_CLASS(fatal, MPI_Cart_shift(zero, 0, 1, &r, &s),
                      MPI_ERR_TOPOLOGY, "MPI_Cart_shift(zero dimensions)");
      MPI_Comm_free(&zero);
    }

    MT_EXPECT_CLASS(fatal, MPI_Cart_map(MPI_COMM_WORLD, -1, dims, periods, &r),
                    MPI_ERR_ARG, "MPI_Cart_map(ndims -1)");
    MT_EXPECT_CLASS(fatal, MPI_Cart_map(MPI_COMM_WORLD, 1, big, periods, &r),
                    MPI_ERR_DIMS, "MPI_Cart_map(more nodes than processes)");

    int d2[2] = {0, 0};
    MT_EXPECT_CLASS(fatal, MPI_Dims_create(-1, 2, d2), MPI_ERR_ARG,
                    "MPI_Dims_create(nnodes -1)");
    MT_EXPECT_CLASS(fatal, MPI_Dims_create(4, -1, d2), MPI_ERR_ARG,
                    "MPI_Dims_create(ndims -1)");
    MT_EXPECT_CLASS(fatal, MPI_Dims_create(4, 2, NULL), MPI_ERR_ARG,
                    "MPI_Dims_create(dims NULL)");
    d2[0] = -1;
    MT_EXPECT_CLASS(fatal, MPI_Dims_create(4, 2, d2), MPI_ERR_DIMS,
                    "MPI_Dims_create(dims[0] -1)");
    d2[0] = 3;
    MT_EXPECT_CLASS(fatal, MPI_Dims_create(4, 2, d2), MPI_ERR_DIMS,
                    "MPI_Dims_create(4 nodes, dims[0] 3)");

    // Graphs: node 0 linked to itself.
    const int index[1] = {1}, edges[1] = {0}, bad_edge[1] = {-1};
    const int bad_index[1] = {-1};
    MT_EXPECT_CLASS(
        fatal, MPI_Graph_create(MPI_COMM_WORLD, size + 1, index, edges, 0, &c),
        MPI_ERR_ARG, "MPI_Graph_create(more nodes than processes)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Graph_create(MPI_COMM_WORLD, 1, index, bad_edge, 0, &c),
                    MPI_ERR_ARG, "MPI_Graph_create(edge -1)");
    MT_EXPECT_CLASS(
        fatal, MPI_Graph_create(MPI_COMM_WORLD, 1, bad_index, edges, 0, &c),
        MPI_ERR_ARG, "MPI_Graph_create(index[0] -1)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Graph_create(MPI_COMM_WORLD, 1, NULL, edges, 0, &c),
                    MPI_ERR_ARG, "MPI_Graph_create(index NULL)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Graph_map(MPI_COMM_WORLD, size + 1, index, edges, &r),
                    MPI_ERR_ARG, "MPI_Graph_map(more nodes than processes)");
    MPI_Comm graph = MPI_COMM_NULL;
    MT_CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, 1, index, edges, 0, &graph));
    if (rank == 0) {
      MT_EXPECT_CLASS(fatal, MPI_Graph_neighbors_count(graph, 1, &r),
                      MPI_ERR_RANK, "MPI_Graph_neighbors_count(rank 1 of 1)");
      MT_EXPECT_CLASS(fatal, MPI_Graph_neighbors_count(graph, -1, &r),
                      MPI_ERR_RANK, "MPI_Graph_neighbors_count(rank -1)");
      MT_EXPECT_CLASS(fatal, MPI_Graph_neighbors(graph, 1, 1, out),
                      MPI_ERR_RANK, "MPI_Graph_neighbors(rank 1 of 1)");
      MT_EXPECT_CLASS(fatal, MPI_Graph_neighbors(graph, 0, -1, out),
                      MPI_ERR_ARG, "MPI_Graph_neighbors(maxneighbors -1)");
      MT_EXPECT_CLASS(fatal, MPI_Graph_get(graph, -1, 1, out, out), MPI_ERR_ARG,
                      "MPI_Graph_get(maxindex -1)");
      MT_EXPECT_CLASS(fatal, MPI_Dist_graph_neighbors_count(graph, &r, &s, &s),
                      MPI_ERR_TOPOLOGY,
                      "MPI_Dist_graph_neighbors_count(graph)");
      MT_EXPECT_CLASS(fatal, MPI_Cartdim_get(graph, &r), MPI_ERR_TOPOLOGY,
                      "MPI_Cartdim_get(graph)");
      MPI_Comm_free(&graph);
    }

    const int one[1] = {0}, degree[1] = {1}, weight[1] = {1};
    MT_EXPECT_CLASS(fatal,
                    MPI_Dist_graph_create(MPI_COMM_WORLD, -1, one, degree, one,
                                          weight, MPI_INFO_NULL, 0, &c),
                    MPI_ERR_ARG, "MPI_Dist_graph_create(n -1)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Dist_graph_create(MPI_COMM_WORLD, 1, NULL, degree, one,
                                          weight, MPI_INFO_NULL, 0, &c),
                    MPI_ERR_ARG, "MPI_Dist_graph_create(sources NULL)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Dist_graph_create(MPI_COMM_WORLD, 1, one, NULL, one,
                                          weight, MPI_INFO_NULL, 0, &c),
                    MPI_ERR_ARG, "MPI_Dist_graph_create(degrees NULL)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Dist_graph_create(MPI_COMM_WORLD, 1, one, degree, NULL,
                                          weight, MPI_INFO_NULL, 0, &c),
                    MPI_ERR_ARG, "MPI_Dist_graph_create(destinations NULL)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Dist_graph_create(MPI_COMM_WORLD, 1, one, degree, one,
                                          weight, MPI_INFO_NULL, 0, NULL),
                    MPI_ERR_ARG, "MPI_Dist_graph_create(comm_dist_graph NULL)");
  }
  return mt_errors_finish(fatal);
}
