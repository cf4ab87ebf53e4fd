// SPDX-License-Identifier: MIT
// MPI 4.0 §6.9.2: each predefined operation applies only to the datatype
// groups listed for it (MPI_LAND: C integer and logical; MPI_BAND: C integer
// and byte; MPI_MAXLOC: pair types); any other combination is an invalid
// operation for that datatype. The standard names no class for it; shmpi
// reports MPI_ERR_OP. shmpi only: MPICH 4.0 fails an internal assertion.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  double value = 1.0;
  double result = 0.0;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(
        fatal,
        MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, MPI_LAND, MPI_COMM_WORLD),
        MPI_ERR_OP, "MPI_Allreduce(MPI_LAND on MPI_DOUBLE)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, MPI_BXOR, MPI_COMM_WORLD),
        MPI_ERR_OP, "MPI_Allreduce(MPI_BXOR on MPI_DOUBLE)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Reduce(&value, &result, 1, MPI_DOUBLE, MPI_MAXLOC, 0,
                               MPI_COMM_WORLD),
                    MPI_ERR_OP, "MPI_Reduce(MPI_MAXLOC on MPI_DOUBLE)");
  }
  return mt_errors_finish(fatal);
}
