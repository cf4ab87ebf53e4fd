// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4 error classes of collective calls, under MPI_ERRORS_RETURN:
// MPI_ERR_ROOT for a root that is no rank of the communicator, MPI_ERR_COUNT
// for a negative count, MPI_ERR_OP for MPI_REPLACE / MPI_NO_OP in a
// reduction (they exist for accumulates only, §12.3.4), blocking and
// nonblocking forms (no negative count on MPI_Allreduce / MPI_Scan: MPICH
// 4.0.2 does not check it and crashes). Every rank makes the same bad calls, so
// no rank waits for another. With args=fatal the default handler must end the
// job.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  const int size = mt_size();
  int a[8] = {0};
  int b[8 * 16] = {0};
  MPI_Request req = MPI_REQUEST_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal,
                    MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, size, MPI_COMM_WORLD),
                    MPI_ERR_ROOT, "MPI_Reduce(root = size)");
    MT_EXPECT_CLASS(
        fatal, MPI_Gather(a, 1, MPI_INT, b, 1, MPI_INT, -1, MPI_COMM_WORLD),
        MPI_ERR_ROOT, "MPI_Gather(root -1)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Iscatter(a, 1, MPI_INT, b, 1, MPI_INT, size + 3,
                                 MPI_COMM_WORLD, &req),
                    MPI_ERR_ROOT, "MPI_Iscatter(root = size + 3)");
    MT_EXPECT_CLASS(fatal, MPI_Ibcast(a, 1, MPI_INT, -5, MPI_COMM_WORLD, &req),
                    MPI_ERR_ROOT, "MPI_Ibcast(root -5)");
    MT_EXPECT_CLASS(fatal, MPI_Bcast(a, -1, MPI_INT, 0, MPI_COMM_WORLD),
                    MPI_ERR_COUNT, "MPI_Bcast(count -1)");
    MT_EXPECT_CLASS(
        fatal, MPI_Allgather(a, -1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD),
        MPI_ERR_COUNT, "MPI_Allgather(sendcount -1)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Alltoall(a, 1, MPI_INT, b, -1, MPI_INT, MPI_COMM_WORLD),
                    MPI_ERR_COUNT, "MPI_Alltoall(recvcount -1)");
    MT_EXPECT_CLASS(
        fatal, MPI_Allreduce(a, b, 1, MPI_INT, MPI_REPLACE, MPI_COMM_WORLD),
        MPI_ERR_OP, "MPI_Allreduce(MPI_REPLACE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Reduce(a, b, 1, MPI_INT, MPI_NO_OP, 0, MPI_COMM_WORLD),
                    MPI_ERR_OP, "MPI_Reduce(MPI_NO_OP)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Iallreduce(a, b, 1, MPI_INT, MPI_REPLACE, MPI_COMM_WORLD, &req),
        MPI_ERR_OP, "MPI_Iallreduce(MPI_REPLACE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Scan(a, b, 1, MPI_INT, MPI_REPLACE, MPI_COMM_WORLD),
                    MPI_ERR_OP, "MPI_Scan(MPI_REPLACE)");
    // The communicator still works after every refused call.
    a[0] = 1;
    MT_CHECK_MPI(MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    MT_CHECK(b[0] == size, "allreduce after errors gave %d", b[0]);
  }
  return mt_errors_finish(fatal);
}
