// SPDX-License-Identifier: MIT
// MPI 4.0 §6.13: a persistent collective's initialization call takes the
// blocking form's arguments (plus info and request), so it refuses bad
// ones with the same error classes (§9.4), under MPI_ERRORS_RETURN:
// MPI_ERR_ROOT, MPI_ERR_COUNT, MPI_ERR_OP, MPI_ERR_TYPE, MPI_ERR_COMM, and
// MPI_ERR_ARG for a NULL request. A refused call returns no request. Every
// rank makes the same bad calls and each is refused at every rank, so no
// rank waits for another. With args=fatal the default handler must end
// the job.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  const int size = mt_size();
  const MPI_Comm world = MPI_COMM_WORLD;
  const MPI_Info none = MPI_INFO_NULL;
  int a[8] = {0};
  int b[8 * 16] = {0};
  MPI_Request req = MPI_REQUEST_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal,
                    MPI_Bcast_init(a, 1, MPI_INT, size, world, none, &req),
                    MPI_ERR_ROOT, "MPI_Bcast_init(root = size)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Reduce_init_c(a, b, 1, MPI_INT, MPI_SUM, -2, world, none, &req),
        MPI_ERR_ROOT, "MPI_Reduce_init_c(root -2)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Bcast_init_c(a, -1, MPI_INT, 0, world, none, &req),
                    MPI_ERR_COUNT, "MPI_Bcast_init_c(count -1)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Alltoall_init(a, 1, MPI_INT, b, -4, MPI_INT, world, none, &req),
        MPI_ERR_COUNT, "MPI_Alltoall_init(recvcount -4)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Allreduce_init(a, b, 1, MPI_INT, MPI_REPLACE, world, none, &req),
        MPI_ERR_OP, "MPI_Allreduce_init(MPI_REPLACE)");
    MT_EXPECT_CLASS(
        fatal, MPI_Scan_init(a, b, 1, MPI_INT, MPI_OP_NULL, world, none, &req),
        MPI_ERR_OP, "MPI_Scan_init(MPI_OP_NULL)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Allgather_init(a, 1, MPI_DATATYPE_NULL, b, 1, MPI_INT,
                                       world, none, &req),
                    MPI_ERR_TYPE, "MPI_Allgather_init(sendtype NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Barrier_init(MPI_COMM_NULL, none, &req),
                    MPI_ERR_COMM, "MPI_Barrier_init(MPI_COMM_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Ibarrier(world, NULL), MPI_ERR_ARG,
                    "MPI_Ibarrier(request NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Barrier_init(world, none, NULL), MPI_ERR_ARG,
                    "MPI_Barrier_init(request NULL)");
    MT_EXPECT_CLASS(
        fatal, MPI_Exscan_init_c(a, b, 1, MPI_INT, MPI_SUM, world, none, NULL),
        MPI_ERR_ARG, "MPI_Exscan_init_c(request NULL)");
    MT_CHECK(req == MPI_REQUEST_NULL, "a refused init returned a request");
    // The communicator still works after every refused call.
    a[0] = 1;
    MT_CHECK_MPI(
        MPI_Allreduce_init(a, b, 1, MPI_INT, MPI_SUM, world, none, &req));
    MT_CHECK_MPI(MPI_Start(&req));
    MT_CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MT_CHECK(b[0] == size, "allreduce after errors gave %d", b[0]);
    MT_CHECK_MPI(MPI_Request_free(&req));
  }
  return mt_errors_finish(fatal);
}
