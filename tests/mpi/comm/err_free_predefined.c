// SPDX-License-Identifier: MIT
// MPI 4.0 §7.4.3 and §11.2.2: MPI_COMM_WORLD and MPI_COMM_SELF are freed by
// MPI_Finalize, not by the user; MPI_Comm_free of either is an error
// (MPI_ERR_COMM, as MPICH gives), and both go on working afterwards. The
// handles are constants in C, so the calls take a copy.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  MPI_Comm world = MPI_COMM_WORLD;
  MPI_Comm self = MPI_COMM_SELF;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Comm_free(&world), MPI_ERR_COMM,
                    "MPI_Comm_free(&MPI_COMM_WORLD)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_free(&self), MPI_ERR_COMM,
                    "MPI_Comm_free(&MPI_COMM_SELF)");
  }
  if (!fatal) {
    // Still usable.
    int sum = 0;
    const int one = 1;
    MT_CHECK_MPI(
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    MT_CHECK(sum == mt_size(), "MPI_Allreduce after the failed free gave %d",
             sum);
    MT_CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF));
    MT_CHECK(sum == 1, "MPI_Allreduce on MPI_COMM_SELF gave %d", sum);
  }
  return mt_errors_finish(fatal);
}
