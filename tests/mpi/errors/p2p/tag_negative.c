// SPDX-License-Identifier: MIT
// MPI 4.0 §3.2.3: the tag "must be in the range 0,...,UB"; an invalid tag
// raises MPI_ERR_TAG. MPI_ANY_TAG is a receive wildcard, not a send tag.
//
// tag = -7 in sends and receives, and MPI_ANY_TAG in a send.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int value = 1;
  MPI_Request req = MPI_REQUEST_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Send(&value, 1, MPI_INT, 0, -7, MPI_COMM_WORLD),
                    MPI_ERR_TAG, "MPI_Send(tag = -7)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Isend(&value, 1, MPI_INT, 0, -7, MPI_COMM_WORLD, &req),
                    MPI_ERR_TAG, "MPI_Isend(tag = -7)");
    MT_EXPECT_CLASS(
        fatal, MPI_Send(&value, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD),
        MPI_ERR_TAG, "MPI_Send(tag = MPI_ANY_TAG)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Recv(&value, 1, MPI_INT, 0, -7, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
        MPI_ERR_TAG, "MPI_Recv(tag = -7)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Irecv(&value, 1, MPI_INT, 0, -7, MPI_COMM_WORLD, &req),
                    MPI_ERR_TAG, "MPI_Irecv(tag = -7)");
  }
  return mt_errors_finish(fatal);
}
