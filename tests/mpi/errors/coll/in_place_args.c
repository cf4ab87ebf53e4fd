// SPDX-License-Identifier: MIT
// MPI 4.0 §6.2.3: MPI_IN_PLACE is valid only where a collective's
// description says so (the send buffer of the all- and reduce-collectives,
// the root's send buffer in gather and reduce, the root's receive buffer
// in scatter). A receive buffer given as MPI_IN_PLACE is MPI_ERR_BUFFER,
// in every form (blocking, nonblocking, persistent, large-count), alone or
// with an in-place send buffer. The all-collectives run on MPI_COMM_WORLD,
// where every rank makes the same bad call; the rooted ones on
// MPI_COMM_SELF, where the root is the only member and nobody waits for
// it. The communicator still works afterwards. With args=fatal the default
// handler must end the job.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  const int size = mt_size();
  int a[8] = {0};
  int b[8 * 64] = {0};
  int counts[64];
  int displs[64];
  MPI_Count counts_c[64];
  MPI_Aint displs_c[64];
  MPI_Datatype types[64];
  for (int i = 0; i < 64; ++i) {
    counts[i] = 1;
    displs[i] = i;
    counts_c[i] = 1;
    displs_c[i] = i;
    types[i] = MPI_INT;
  }
  int wdispls[64];  // alltoallw's are in bytes
  for (int i = 0; i < 64; ++i) {
    wdispls[i] = i * (int)sizeof(int);
  }
  MT_CHECK(size <= 64, "at most 64 ranks (got %d)", size);
  MPI_Request req = MPI_REQUEST_NULL;
  const MPI_Comm world = MPI_COMM_WORLD;
  const MPI_Comm self = MPI_COMM_SELF;
  void* const in_place = MPI_IN_PLACE;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal,
                    MPI_Allgather(a, 1, MPI_INT, in_place, 1, MPI_INT, world),
                    MPI_ERR_BUFFER, "MPI_Allgather(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(
        fatal, MPI_Allgather(in_place, 1, MPI_INT, in_place, 1, MPI_INT, world),
        MPI_ERR_BUFFER, "MPI_Allgather(both buffers MPI_IN_PLACE)");
    MT_EXPECT_CLASS(
        fatal, MPI_Iallgather(a, 1, MPI_INT, in_place, 1, MPI_INT, world, &req),
        MPI_ERR_BUFFER, "MPI_Iallgather(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Allgather_init(a, 1, MPI_INT, in_place, 1, MPI_INT,
                                       world, MPI_INFO_NULL, &req),
                    MPI_ERR_BUFFER, "MPI_Allgather_init(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Allgather_c(a, 1, MPI_INT, in_place, 1, MPI_INT, world),
                    MPI_ERR_BUFFER, "MPI_Allgather_c(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Allgatherv(a, 1, MPI_INT, in_place, counts, displs, MPI_INT, world),
        MPI_ERR_BUFFER, "MPI_Allgatherv(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Allgatherv_c(a, 1, MPI_INT, in_place, counts_c,
                                     displs_c, MPI_INT, world),
                    MPI_ERR_BUFFER, "MPI_Allgatherv_c(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Alltoall(a, 1, MPI_INT, in_place, 1, MPI_INT, world),
                    MPI_ERR_BUFFER, "MPI_Alltoall(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(
        fatal, MPI_Alltoall(in_place, 1, MPI_INT, in_place, 1, MPI_INT, world),
        MPI_ERR_BUFFER, "MPI_Alltoall(both buffers MPI_IN_PLACE)");
    MT_EXPECT_CLASS(
        fatal, MPI_Ialltoall(a, 1, MPI_INT, in_place, 1, MPI_INT, world, &req),
        MPI_ERR_BUFFER, "MPI_Ialltoall(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Alltoallv(b, counts, displs, MPI_INT, in_place, counts,
                                  displs, MPI_INT, world),
                    MPI_ERR_BUFFER, "MPI_Alltoallv(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Alltoallw(b, counts, wdispls, types, in_place, counts,
                                  wdispls, types, world),
                    MPI_ERR_BUFFER, "MPI_Alltoallw(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Allreduce(a, in_place, 1, MPI_INT, MPI_SUM, world),
                    MPI_ERR_BUFFER, "MPI_Allreduce(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(
        fatal, MPI_Allreduce(in_place, in_place, 1, MPI_INT, MPI_SUM, world),
        MPI_ERR_BUFFER, "MPI_Allreduce(both buffers MPI_IN_PLACE)");
    MT_EXPECT_CLASS(
        fatal, MPI_Iallreduce(a, in_place, 1, MPI_INT, MPI_SUM, world, &req),
        MPI_ERR_BUFFER, "MPI_Iallreduce(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Allreduce_init(a, in_place, 1, MPI_INT, MPI_SUM, world,
                                       MPI_INFO_NULL, &req),
                    MPI_ERR_BUFFER, "MPI_Allreduce_init(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Allreduce_c(a, in_place, 1, MPI_INT, MPI_SUM, world),
                    MPI_ERR_BUFFER, "MPI_Allreduce_c(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal, MPI_Scan(a, in_place, 1, MPI_INT, MPI_SUM, world),
                    MPI_ERR_BUFFER, "MPI_Scan(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Iscan(a, in_place, 1, MPI_INT, MPI_SUM, world, &req),
                    MPI_ERR_BUFFER, "MPI_Iscan(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal, MPI_Exscan(a, in_place, 1, MPI_INT, MPI_SUM, world),
                    MPI_ERR_BUFFER, "MPI_Exscan(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Reduce_scatter_block(a, in_place, 1, MPI_INT, MPI_SUM, world),
        MPI_ERR_BUFFER, "MPI_Reduce_scatter_block(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(
        fatal, MPI_Reduce_scatter(b, in_place, counts, MPI_INT, MPI_SUM, world),
        MPI_ERR_BUFFER, "MPI_Reduce_scatter(recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Ireduce_scatter(b, in_place, counts, MPI_INT, MPI_SUM, world, &req),
        MPI_ERR_BUFFER, "MPI_Ireduce_scatter(recvbuf MPI_IN_PLACE)");
    // Rooted: the root's receive buffer of reduce and gather(v), its send
    // buffer of scatter(v).
    MT_EXPECT_CLASS(fatal,
                    MPI_Reduce(a, in_place, 1, MPI_INT, MPI_SUM, 0, self),
                    MPI_ERR_BUFFER, "MPI_Reduce(root's recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(
        fatal, MPI_Ireduce(a, in_place, 1, MPI_INT, MPI_SUM, 0, self, &req),
        MPI_ERR_BUFFER, "MPI_Ireduce(root's recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Gather(a, 1, MPI_INT, in_place, 1, MPI_INT, 0, self),
                    MPI_ERR_BUFFER, "MPI_Gather(root's recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Gather_init(a, 1, MPI_INT, in_place, 1, MPI_INT, 0,
                                    self, MPI_INFO_NULL, &req),
                    MPI_ERR_BUFFER,
                    "MPI_Gather_init(root's recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Gatherv(a, 1, MPI_INT, in_place, counts, displs, MPI_INT, 0, self),
        MPI_ERR_BUFFER, "MPI_Gatherv(root's recvbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Scatter(in_place, 1, MPI_INT, b, 1, MPI_INT, 0, self),
                    MPI_ERR_BUFFER, "MPI_Scatter(root's sendbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(
        fatal, MPI_Scatter_c(in_place, 1, MPI_INT, b, 1, MPI_INT, 0, self),
        MPI_ERR_BUFFER, "MPI_Scatter_c(root's sendbuf MPI_IN_PLACE)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Scatterv(in_place, counts, displs, MPI_INT, b, 1, MPI_INT, 0, self),
        MPI_ERR_BUFFER, "MPI_Scatterv(root's sendbuf MPI_IN_PLACE)");
    // Where the standard allows it, MPI_IN_PLACE still works.
    for (int i = 0; i < size; ++i) {
      b[i] = 1;
    }
    MT_CHECK_MPI(MPI_Allreduce(in_place, b, size, MPI_INT, MPI_SUM, world));
    MT_CHECK(b[size - 1] == size, "allreduce in place gave %d", b[size - 1]);
    MT_CHECK_MPI(
        MPI_Allgather(in_place, 0, MPI_DATATYPE_NULL, b, 1, MPI_INT, world));
    MT_CHECK_MPI(MPI_Reduce(in_place, b, 1, MPI_INT, MPI_SUM, 0, self));
    MT_CHECK(b[0] == size, "reduce in place gave %d", b[0]);
  }
  return mt_errors_finish(fatal);
}
