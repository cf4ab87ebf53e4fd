// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4: MPI_ERR_OP, "invalid operation": MPI_OP_NULL is no
// operation to reduce with.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int value = 1;
  int result = 0;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(
        fatal,
        MPI_Allreduce(&value, &result, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD),
        MPI_ERR_OP, "MPI_Allreduce(MPI_OP_NULL)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Reduce(&value, &result, 1, MPI_INT, MPI_OP_NULL, 0, MPI_COMM_WORLD),
        MPI_ERR_OP, "MPI_Reduce(MPI_OP_NULL)");
  }
  return mt_errors_finish(fatal);
}
