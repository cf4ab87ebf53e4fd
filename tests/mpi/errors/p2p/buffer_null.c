// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4: MPI_ERR_BUFFER, "invalid buffer pointer": NULL with a
// non-zero count of a predefined datatype points at no data. (MPI_BOTTOM
// with absolute-address datatypes stays legal; NULL with count 0 is fine.)
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  MPI_Request req = MPI_REQUEST_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Send(NULL, 4, MPI_INT, 0, 0, MPI_COMM_WORLD),
                    MPI_ERR_BUFFER, "MPI_Send(buf = NULL, count = 4)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Isend(NULL, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, &req),
                    MPI_ERR_BUFFER, "MPI_Isend(buf = NULL, count = 4)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Recv(NULL, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
        MPI_ERR_BUFFER, "MPI_Recv(buf = NULL, count = 4)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Irecv(NULL, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, &req),
                    MPI_ERR_BUFFER, "MPI_Irecv(buf = NULL, count = 4)");
  }
  if (!fatal) {
    // A zero count with NULL is legal.
    const int rank = mt_rank();
    MPI_Request reqs[2];
    MT_CHECK_MPI(
        MPI_Irecv(NULL, 0, MPI_INT, rank, 1, MPI_COMM_WORLD, &reqs[0]));
    MT_CHECK_MPI(
        MPI_Isend(NULL, 0, MPI_INT, rank, 1, MPI_COMM_WORLD, &reqs[1]));
    MT_CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
  }
  return mt_errors_finish(fatal);
}
