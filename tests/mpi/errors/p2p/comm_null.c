// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4: MPI_ERR_COMM, "invalid communicator": MPI_COMM_NULL is not
// a communicator one can use.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int value = 1;
  int rank = 0;
  MPI_Request req = MPI_REQUEST_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_NULL),
                    MPI_ERR_COMM, "MPI_Send(MPI_COMM_NULL)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Irecv(&value, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &req),
                    MPI_ERR_COMM, "MPI_Irecv(MPI_COMM_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_rank(MPI_COMM_NULL, &rank), MPI_ERR_COMM,
                    "MPI_Comm_rank(MPI_COMM_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM,
                    "MPI_Barrier(MPI_COMM_NULL)");
  }
  return mt_errors_finish(fatal);
}
