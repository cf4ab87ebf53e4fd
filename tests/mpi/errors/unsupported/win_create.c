// SPDX-License-Identifier: MIT
// shmpi's contract (issue 2): every MPI 4.0 function it does not implement
// yet is still exported and "returns MPI_ERR_UNSUPPORTED_OPERATION with a
// message naming it". One-sided communication comes in a later issue, so
// MPI_Win_create is such a function. shmpi only (MPICH implements it).
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  static int memory[16];
  MPI_Win win = MPI_WIN_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal,
                    MPI_Win_create(memory, sizeof memory, sizeof(int),
                                   MPI_INFO_NULL, MPI_COMM_WORLD, &win),
                    MPI_ERR_UNSUPPORTED_OPERATION, "MPI_Win_create");
    MT_CHECK(win == MPI_WIN_NULL, "MPI_Win_create failed but set the window");
  }
  return mt_errors_finish(fatal);
}
