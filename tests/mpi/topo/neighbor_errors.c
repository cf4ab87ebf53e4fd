// SPDX-License-Identifier: MIT
// Bad arguments to the neighbourhood collectives (MPI 4.0 §8.6-8.8), one
// kind per run, checked in every form (blocking, nonblocking, persistent,
// large-count):
//   topology  a communicator without a virtual topology (MPI_COMM_WORLD):
//             MPI_ERR_TOPOLOGY (§8.6: the collectives need one)
//   topology_v  the same for the v and w forms (MPICH 4.0.2 reads their
//             count arrays first, at a length it does not know, and
//             reports whatever it finds there)
//   intercomm an intercommunicator: MPI_ERR_COMM (a virtual topology
//             lives on an intracommunicator)
//   count     a negative count or an entry of a counts array: MPI_ERR_COUNT
//   in_place  MPI_IN_PLACE as either buffer: not defined for these
//             collectives (§6.2.3 lists where it may stand), MPI_ERR_BUFFER
//             (MPICH 4.0.2 takes it for an address and crashes)
// The graph is a ring made with MPI_Dist_graph_create_adjacent; after the
// bad calls it still carries a neighbor_alltoall. With "fatal" after the
// kind, the default handler must end the job (mpitest.h).
#include "mpitest.h"

int main(int argc, char** argv) {
  MT_CHECK(argc > 1,
           "usage: neighbor_errors "
           "topology|topology_v|intercomm|count|in_place [fatal]");
  const char* kind = argv[1];
  // mt_errors_init reads "fatal" as the first argument.
  int shifted_argc = argc - 1;
  char** shifted_argv = argv + 1;
  const int fatal = mt_errors_init(&shifted_argc, &shifted_argv);
  const int rank = mt_rank();
  const int size = mt_size();
  const int ring[2] = {(rank + size - 1) % size, (rank + 1) % size};
  MPI_Comm graph = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Dist_graph_create_adjacent(
      MPI_COMM_WORLD, 2, ring, MPI_UNWEIGHTED, 2, ring, MPI_UNWEIGHTED,
      MPI_INFO_NULL, 0, &graph));
  if (!fatal) {
    MPI_Comm_set_errhandler(graph, MPI_ERRORS_RETURN);
  }
  int a[4] = {rank, rank, rank, rank};
  int b[4] = {-1, -1, -1, -1};
  const int counts[2] = {1, 1};
  const int displs[2] = {0, 1};
  const int bad_counts[2] = {1, -1};
  const MPI_Count counts_c[2] = {1, 1};
  const MPI_Count bad_counts_c[2] = {1, -1};
  const MPI_Aint displs_c[2] = {0, 1};
  const MPI_Aint bytes[2] = {0, sizeof(int)};
  const MPI_Datatype types[2] = {MPI_INT, MPI_INT};
  void* const in_place = MPI_IN_PLACE;
  MPI_Request req = MPI_REQUEST_NULL;
  const MPI_Info none = MPI_INFO_NULL;

  if (mt_errors_caller(fatal) && strcmp(kind, "topology") == 0) {
    const MPI_Comm w = MPI_COMM_WORLD;
    MT_EXPECT_CLASS(fatal,
                    MPI_Neighbor_alltoall(a, 1, MPI_INT, b, 1, MPI_INT, w),
                    MPI_ERR_TOPOLOGY, "MPI_Neighbor_alltoall(MPI_COMM_WORLD)");
    MT_EXPECT_CLASS(
        fatal, MPI_Ineighbor_allgather(a, 1, MPI_INT, b, 1, MPI_INT, w, &req),
        MPI_ERR_TOPOLOGY, "MPI_Ineighbor_allgather(MPI_COMM_WORLD)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Neighbor_alltoall_init_c(a, 1, MPI_INT, b, 1, MPI_INT,
                                                 w, none, &req),
                    MPI_ERR_TOPOLOGY,
                    "MPI_Neighbor_alltoall_init_c(MPI_COMM_WORLD)");
  }
  if (mt_errors_caller(fatal) && strcmp(kind, "topology_v") == 0) {
    const MPI_Comm w = MPI_COMM_WORLD;
    MT_EXPECT_CLASS(
        fatal,
        MPI_Neighbor_allgatherv_init(a, 1, MPI_INT, b, counts, displs, MPI_INT,
                                     w, none, &req),
        MPI_ERR_TOPOLOGY, "MPI_Neighbor_allgatherv_init(MPI_COMM_WORLD)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Neighbor_alltoallv_c(a, counts_c, displs_c, MPI_INT, b,
                                             counts_c, displs_c, MPI_INT, w),
                    MPI_ERR_TOPOLOGY,
                    "MPI_Neighbor_alltoallv_c(MPI_COMM_WORLD)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Neighbor_alltoallw(a, counts, bytes, types, b, counts,
                                           bytes, types, w),
                    MPI_ERR_TOPOLOGY, "MPI_Neighbor_alltoallw(MPI_COMM_WORLD)");
  }
  if (strcmp(kind, "intercomm") == 0) {
    MT_CHECK(size >= 2, "intercomm needs 2 ranks");
    MPI_Comm half = MPI_COMM_NULL, inter = MPI_COMM_NULL;
    const int low = rank < size / 2;
    MT_CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half));
    MT_CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD,
                                      low ? size / 2 : 0, 7, &inter));
    if (!fatal) {
      MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    }
    if (mt_errors_caller(fatal)) {
      MT_EXPECT_CLASS(
          fatal, MPI_Neighbor_alltoall(a, 1, MPI_INT, b, 1, MPI_INT, inter),
          MPI_ERR_COMM, "MPI_Neighbor_alltoall(intercommunicator)");
      MT_EXPECT_CLASS(
          fatal,
          MPI_Ineighbor_alltoallw_c(a, counts_c, bytes, types, b, counts_c,
                                    bytes, types, inter, &req),
          MPI_ERR_COMM, "MPI_Ineighbor_alltoallw_c(intercommunicator)");
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
  }
  if (mt_errors_caller(fatal) && strcmp(kind, "count") == 0) {
    const MPI_Comm g = graph;
    MT_EXPECT_CLASS(fatal,
                    MPI_Neighbor_alltoall(a, -1, MPI_INT, b, 1, MPI_INT, g),
                    MPI_ERR_COUNT, "MPI_Neighbor_alltoall(sendcount -1)");
    MT_EXPECT_CLASS(
        fatal, MPI_Ineighbor_allgather(a, 1, MPI_INT, b, -1, MPI_INT, g, &req),
        MPI_ERR_COUNT, "MPI_Ineighbor_allgather(recvcount -1)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Neighbor_allgatherv_init(a, 1, MPI_INT, b, bad_counts, displs,
                                     MPI_INT, g, none, &req),
        MPI_ERR_COUNT, "MPI_Neighbor_allgatherv_init(recvcounts[1] -1)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Neighbor_alltoallv_c(a, bad_counts_c, displs_c, MPI_INT,
                                             b, counts_c, displs_c, MPI_INT, g),
                    MPI_ERR_COUNT,
                    "MPI_Neighbor_alltoallv_c(sendcounts[1] -1)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Ineighbor_alltoallw(a, counts, bytes, types, b,
                                            bad_counts, bytes, types, g, &req),
                    MPI_ERR_COUNT, "MPI_Ineighbor_alltoallw(recvcounts[1] -1)");
  }
  if (mt_errors_caller(fatal) && strcmp(kind, "in_place") == 0) {
    const MPI_Comm g = graph;
    MT_EXPECT_CLASS(
        fatal, MPI_Neighbor_alltoall(in_place, 1, MPI_INT, b, 1, MPI_INT, g),
        MPI_ERR_BUFFER, "MPI_Neighbor_alltoall(sendbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(
        fatal, MPI_Neighbor_allgather(a, 1, MPI_INT, in_place, 1, MPI_INT, g),
        MPI_ERR_BUFFER, "MPI_Neighbor_allgather(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Ineighbor_allgatherv(in_place, 1, MPI_INT, b, counts,
                                             displs, MPI_INT, g, &req),
                    MPI_ERR_BUFFER,
                    "MPI_Ineighbor_allgatherv(sendbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Neighbor_alltoallv_init_c(
                        in_place, counts_c, displs_c, MPI_INT, b, counts_c,
                        displs_c, MPI_INT, g, none, &req),
                    MPI_ERR_BUFFER,
                    "MPI_Neighbor_alltoallv_init_c(sendbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Neighbor_alltoallw(a, counts, bytes, types, in_place,
                                           counts, bytes, types, g),
                    MPI_ERR_BUFFER,
                    "MPI_Neighbor_alltoallw(recvbuf MPI_IN_PLACE)");
  }
  if (!fatal) {
    // The graph still works.
    MT_CHECK_MPI(MPI_Neighbor_alltoall(a, 1, MPI_INT, b, 1, MPI_INT, graph));
    MT_CHECK(b[0] == ring[0] && b[1] == ring[1], "ring got %d %d", b[0], b[1]);
  }
  MPI_Comm_free(&graph);
  return mt_errors_finish(fatal);
}
