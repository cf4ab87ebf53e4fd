// SPDX-License-Identifier: MIT
// MPI 4.0 §3.2.4: the source "must be a valid rank ... MPI_ANY_SOURCE or
// MPI_PROC_NULL"; an invalid rank raises MPI_ERR_RANK.
//
// source = size and source = -5, in receives and probes.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  const int size = mt_size();
  int value = 0;
  int flag = 0;
  MPI_Request req = MPI_REQUEST_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal,
                    MPI_Recv(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE),
                    MPI_ERR_RANK, "MPI_Recv(source = size)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Irecv(&value, 1, MPI_INT, -5, 0, MPI_COMM_WORLD, &req),
                    MPI_ERR_RANK, "MPI_Irecv(source = -5)");
    MT_EXPECT_CLASS(
        fatal, MPI_Recv_init(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &req),
        MPI_ERR_RANK, "MPI_Recv_init(source = size)");
    MT_EXPECT_CLASS(
        fatal, MPI_Iprobe(size, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE),
        MPI_ERR_RANK, "MPI_Iprobe(source = size)");
  }
  return mt_errors_finish(fatal);
}
