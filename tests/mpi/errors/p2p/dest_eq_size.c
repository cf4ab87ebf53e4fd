// SPDX-License-Identifier: MIT
// MPI 4.0 §3.2.3: the destination "must be a valid rank in the group ... or
// MPI_PROC_NULL"; an invalid rank raises MPI_ERR_RANK (§9.4).
//
// dest = size of MPI_COMM_WORLD, in every kind of send. With "fatal", the
// first MPI_Send must abort the job with a readable message.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  const int size = mt_size();
  int value = 1;
  MPI_Request req = MPI_REQUEST_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal,
                    MPI_Send(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD),
                    MPI_ERR_RANK, "MPI_Send(dest = size)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Ssend(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD),
                    MPI_ERR_RANK, "MPI_Ssend(dest = size)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Rsend(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD),
                    MPI_ERR_RANK, "MPI_Rsend(dest = size)");
    MT_EXPECT_CLASS(
        fatal, MPI_Isend(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &req),
        MPI_ERR_RANK, "MPI_Isend(dest = size)");
    MT_EXPECT_CLASS(
        fatal, MPI_Send_init(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &req),
        MPI_ERR_RANK, "MPI_Send_init(dest = size)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Sendrecv(&value, 1, MPI_INT, size, 0, &value, 1, MPI_INT,
                     MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
        MPI_ERR_RANK, "MPI_Sendrecv(dest = size)");
  }
  return mt_errors_finish(fatal);
}
