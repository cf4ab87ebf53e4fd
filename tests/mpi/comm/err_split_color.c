// SPDX-License-Identifier: MIT
// MPI 4.0 §7.4.2: MPI_COMM_SPLIT's color must be non-negative or
// MPI_UNDEFINED; shmpi reports a negative color as MPI_ERR_ARG. shmpi only:
// MPICH 4.0.2 does not check, and makes a communicator of the ranks that
// passed the same negative color.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  MPI_Comm comm = MPI_COMM_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &comm),
                    MPI_ERR_ARG, "MPI_Comm_split(color = -5)");
    MT_CHECK(comm == MPI_COMM_NULL, "the failed split set a communicator");
  }
  return mt_errors_finish(fatal);
}
