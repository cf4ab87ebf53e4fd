// SPDX-License-Identifier: MIT
// MPI 4.0 §4.2.2: "partitions: number of partitions (non-negative
// integer)"; shmpi and MPICH report MPI_ERR_ARG for a negative count, from
// MPI_Psend_init and MPI_Precv_init.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int buf[8];
  MPI_Request req;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal,
                    MPI_Psend_init(buf, -1, 4, MPI_INT, 0, 0, MPI_COMM_SELF,
                                   MPI_INFO_NULL, &req),
                    MPI_ERR_ARG, "MPI_Psend_init(partitions = -1)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Precv_init(buf, -1, 4, MPI_INT, 0, 0, MPI_COMM_SELF,
                                   MPI_INFO_NULL, &req),
                    MPI_ERR_ARG, "MPI_Precv_init(partitions = -1)");
  }
  return mt_errors_finish(fatal);
}
