// SPDX-License-Identifier: MIT
// MPI 4.0 §6.12: "It is erroneous to call MPI_REQUEST_FREE or MPI_CANCEL
// for a request associated with a nonblocking collective operation." shmpi
// refuses both with MPI_ERR_REQUEST and the request stays usable: freeing
// it once the operation has completed is fine. Rank 0 joins the barrier
// only after the others tried, so their barrier cannot have completed.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MPI_Request req = MPI_REQUEST_NULL;
  if (fatal) {
    // Only rank 0 makes the bad call; the others wait in MPI_Barrier.
    if (rank == 0) {
      int value = 0;
      MT_CHECK_MPI(MPI_Ibcast(&value, 1, MPI_INT, 0, MPI_COMM_SELF, &req));
      MT_EXPECT_CLASS(fatal, MPI_Cancel(&req), MPI_ERR_REQUEST,
                      "MPI_Cancel(nonblocking bcast)");
    }
    return mt_errors_finish(fatal);
  }
  if (rank != 0 || size == 1) {
    MT_CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &req));
    if (size > 1) {
      MT_EXPECT_CLASS(0, MPI_Request_free(&req), MPI_ERR_REQUEST,
                      "MPI_Request_free(running nonblocking barrier)");
      MT_CHECK(req != MPI_REQUEST_NULL, "the refused free cleared the handle");
    }
    MT_EXPECT_CLASS(0, MPI_Cancel(&req), MPI_ERR_REQUEST,
                    "MPI_Cancel(nonblocking barrier)");
    if (size > 1) {
      MT_CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, 0, 0, MPI_COMM_WORLD));
    }
  }
  if (rank == 0) {
    for (int from = 1; from < size; ++from) {
      MT_CHECK_MPI(MPI_Recv(NULL, 0, MPI_INT, from, 0, MPI_COMM_WORLD,
                            MPI_STATUS_IGNORE));
    }
    if (size > 1) {
      MT_CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &req));
    }
  }
  // Completed (or at 1 rank, already complete): the free is legal now.
  int done = 0;
  while (!done) {
    MT_CHECK_MPI(MPI_Request_get_status(req, &done, MPI_STATUS_IGNORE));
  }
  MT_CHECK_MPI(MPI_Request_free(&req));
  MT_CHECK(req == MPI_REQUEST_NULL, "MPI_Request_free left the handle");
  return mt_errors_finish(fatal);
}
