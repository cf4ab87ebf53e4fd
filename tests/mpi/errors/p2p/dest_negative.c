// SPDX-License-Identifier: MIT
// MPI 4.0 §3.2.3: the destination "must be a valid rank in the group ... or
// MPI_PROC_NULL"; a negative rank that is no special value raises
// MPI_ERR_RANK.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int value = 1;
  MPI_Request req = MPI_REQUEST_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Send(&value, 1, MPI_INT, -5, 0, MPI_COMM_WORLD),
                    MPI_ERR_RANK, "MPI_Send(dest = -5)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Isend(&value, 1, MPI_INT, -5, 0, MPI_COMM_WORLD, &req),
                    MPI_ERR_RANK, "MPI_Isend(dest = -5)");
    // MPI_ANY_SOURCE is a receive wildcard, not a destination.
    MT_EXPECT_CLASS(
        fatal, MPI_Send(&value, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD),
        MPI_ERR_RANK, "MPI_Send(dest = MPI_ANY_SOURCE)");
  }
  return mt_errors_finish(fatal);
}
