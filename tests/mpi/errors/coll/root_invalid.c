// SPDX-License-Identifier: MIT
// MPI 4.0 §6.4: root "must be a valid rank" of an intra-communicator, on
// every process; otherwise MPI_ERR_ROOT (§9.4: "invalid root").
//
// root = size and root = -5 in MPI_Bcast and MPI_Reduce (every rank passes
// the same bad root, as the standard requires the same root everywhere).
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  const int size = mt_size();
  int value = 1;
  int result = 0;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Bcast(&value, 1, MPI_INT, size, MPI_COMM_WORLD),
                    MPI_ERR_ROOT, "MPI_Bcast(root = size)");
    MT_EXPECT_CLASS(fatal, MPI_Bcast(&value, 1, MPI_INT, -5, MPI_COMM_WORLD),
                    MPI_ERR_ROOT, "MPI_Bcast(root = -5)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Reduce(&value, &result, 1, MPI_INT, MPI_SUM, size, MPI_COMM_WORLD),
        MPI_ERR_ROOT, "MPI_Reduce(root = size)");
  }
  return mt_errors_finish(fatal);
}
