// SPDX-License-Identifier: MIT
// Bad arguments to the topology functions that shmpi rejects and MPICH
// 4.0.2 lets through (or crashes on), with the class shmpi gives:
// MPI_ERR_DIMS for a non-positive grid extent (MPI 4.0 §8.5.1: dims is
// "the number of processes in each dimension") and for a Dims_create
// request whose product cannot be nnodes; MPI_ERR_ARG for negative node
// counts, degrees and weights, an edge that is not a node, an index that
// decreases, and MPI_UNWEIGHTED given by some processes only (§8.5.4:
// erroneous), which every process reports; MPI_ERR_RANK for a
// distributed-graph edge that is not a rank; MPI_ERR_TOPOLOGY for
// Cartesian queries on a graph; MPI_ERR_COMM for an intercommunicator.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  if (mt_errors_caller(fatal)) {
    const int size = mt_size();
    const int rank = mt_rank();
    int r = 0;
    const int periods[2] = {0, 0};
    MPI_Comm c = MPI_COMM_NULL;

    const int zero[1] = {0}, negative[1] = {-2};
    MT_EXPECT_CLASS(fatal,
                    MPI_Cart_create(MPI_COMM_WORLD, 1, zero, periods, 0, &c),
                    MPI_ERR_DIMS, "MPI_Cart_create(dims[0] 0)");
    MT_EXPECT_CLASS(
        fatal, MPI_Cart_create(MPI_COMM_WORLD, 1, negative, periods, 0, &c),
        MPI_ERR_DIMS, "MPI_Cart_create(dims[0] -2)");
    MT_EXPECT_CLASS(fatal, MPI_Cart_map(MPI_COMM_WORLD, 1, zero, periods, &r),
                    MPI_ERR_DIMS, "MPI_Cart_map(dims[0] 0)");

    int d2[2] = {0, 0};
    MT_EXPECT_CLASS(fatal, MPI_Dims_create(0, 2, d2), MPI_ERR_ARG,
                    "MPI_Dims_create(nnodes 0)");
    d2[0] = 2;
    d2[1] = 2;
    MT_EXPECT_CLASS(fatal, MPI_Dims_create(8, 2, d2), MPI_ERR_DIMS,
                    "MPI_Dims_create(8 nodes, dims 2 x 2)");
    MT_EXPECT_CLASS(fatal, MPI_Dims_create(5, 0, NULL), MPI_ERR_DIMS,
                    "MPI_Dims_create(5 nodes, no dimensions)");
    int many[30] = {0};
    MT_CHECK_MPI(MPI_Dims_create(64, 30, many));  // MPICH: at most 20
    MT_CHECK(many[0] == 2 && many[5] == 2 && many[6] == 1,
             "Dims_create(64, 30): %d %d %d", many[0], many[5], many[6]);

    const int index[2] = {1, 2}, edges[2] = {1, 0};
    const int far_edge[1] = {1}, one_index[1] = {1};
    MT_EXPECT_CLASS(fatal,
                    MPI_Graph_create(MPI_COMM_WORLD, -1, index, edges, 0, &c),
                    MPI_ERR_ARG, "MPI_Graph_create(nnodes -1)");
    MT_EXPECT_CLASS(
        fatal, MPI_Graph_create(MPI_COMM_WORLD, 1, one_index, far_edge, 0, &c),
        MPI_ERR_ARG, "MPI_Graph_create(edge 1 in a graph of 1 node)");
    if (size >= 2) {
      const int decreasing[2] = {2, 1}, two_edges[2] = {0, 1};
      MT_EXPECT_CLASS(
          fatal,
          MPI_Graph_create(MPI_COMM_WORLD, 2, decreasing, two_edges, 0, &c),
          MPI_ERR_ARG, "MPI_Graph_create(index decreases)");
    }
    MT_EXPECT_CLASS(fatal, MPI_Graph_map(MPI_COMM_WORLD, -1, index, edges, &r),
                    MPI_ERR_ARG, "MPI_Graph_map(nnodes -1)");

    const int me[1] = {0}, degree[1] = {1}, minus[1] = {-1}, w[1] = {1};
    const int outside[1] = {size};
    MT_EXPECT_CLASS(fatal,
                    MPI_Dist_graph_create(MPI_COMM_WORLD, 1, me, minus, me, w,
                                          MPI_INFO_NULL, 0, &c),
                    MPI_ERR_ARG, "MPI_Dist_graph_create(degree -1)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Dist_graph_create(MPI_COMM_WORLD, 1, me, degree, me,
                                          minus, MPI_INFO_NULL, 0, &c),
                    MPI_ERR_ARG, "MPI_Dist_graph_create(weight -1)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Dist_graph_create(MPI_COMM_WORLD, 1, me, degree,
                                          outside, w, MPI_INFO_NULL, 0, &c),
                    MPI_ERR_RANK, "MPI_Dist_graph_create(destination = size)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Dist_graph_create(MPI_COMM_WORLD, 1, outside, degree,
                                          me, w, MPI_INFO_NULL, 0, &c),
                    MPI_ERR_RANK, "MPI_Dist_graph_create(source = size)");
    if (size >= 2 && !fatal) {
      // Collective: rank 0 says unweighted, the others give weights.
      MT_EXPECT_CLASS(fatal,
                      MPI_Dist_graph_create(MPI_COMM_WORLD, 1, me, degree, me,
                                            rank == 0 ? MPI_UNWEIGHTED : w,
                                            MPI_INFO_NULL, 0, &c),
                      MPI_ERR_ARG,
                      "MPI_Dist_graph_create(MPI_UNWEIGHTED on rank 0 only)");
    }

    MPI_Comm graph = MPI_COMM_NULL;
    MT_CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, 1, one_index, me, 0, &graph));
    if (rank == 0) {
      int out[2];
      MT_EXPECT_CLASS(fatal, MPI_Cart_get(graph, 1, out, out, out),
                      MPI_ERR_TOPOLOGY, "MPI_Cart_get(graph)");
      MT_EXPECT_CLASS(fatal, MPI_Cart_rank(graph, out, &r), MPI_ERR_TOPOLOGY,
                      "MPI_Cart_rank(graph)");
      MPI_Comm_free(&graph);
    }

    if (size >= 2 && !fatal) {
      // An intercommunicator between the even and the odd ranks.
      MPI_Comm half = MPI_COMM_NULL, inter = MPI_COMM_NULL;
      MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
      MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 9,
                           &inter);
      MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
      const int line[1] = {1};
      MT_EXPECT_CLASS(fatal, MPI_Cart_create(inter, 1, line, periods, 0, &c),
                      MPI_ERR_COMM, "MPI_Cart_create(intercommunicator)");
      MT_EXPECT_CLASS(fatal, MPI_Graph_create(inter, 1, one_index, me, 0, &c),
                      MPI_ERR_COMM, "MPI_Graph_create(intercommunicator)");
      MT_EXPECT_CLASS(fatal,
                      MPI_Dist_graph_create(inter, 0, me, degree, me, w,
                                            MPI_INFO_NULL, 0, &c),
                      MPI_ERR_COMM, "MPI_Dist_graph_create(intercommunicator)");
      MPI_Comm_free(&inter);
      MPI_Comm_free(&half);
    }
  }
  return mt_errors_finish(fatal);
}
