// SPDX-License-Identifier: MIT
// MPI 4.0 §3.2.2: count is a "non-negative integer"; a negative count
// raises MPI_ERR_COUNT.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int value = 1;
  MPI_Request req = MPI_REQUEST_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Send(&value, -1, MPI_INT, 0, 0, MPI_COMM_WORLD),
                    MPI_ERR_COUNT, "MPI_Send(count = -1)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Isend(&value, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req),
                    MPI_ERR_COUNT, "MPI_Isend(count = -1)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Recv(&value, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
        MPI_ERR_COUNT, "MPI_Recv(count = -1)");
    MT_EXPECT_CLASS(fatal, MPI_Bcast(&value, -1, MPI_INT, 0, MPI_COMM_WORLD),
                    MPI_ERR_COUNT, "MPI_Bcast(count = -1)");
  }
  return mt_errors_finish(fatal);
}
