// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4: MPI_ERR_OP, "invalid operation". A garbage handle is not
// valid MPI, but shmpi validates handles so that it reports MPI_ERR_OP
// instead of crashing. shmpi only.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int value = 1;
  int result = 0;
  const MPI_Op garbage = (MPI_Op)(intptr_t)0x12345678;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(
        fatal,
        MPI_Allreduce(&value, &result, 1, MPI_INT, garbage, MPI_COMM_WORLD),
        MPI_ERR_OP, "MPI_Allreduce(op = 0x12345678)");
  }
  return mt_errors_finish(fatal);
}
