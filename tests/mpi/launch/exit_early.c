// SPDX-License-Identifier: MIT
// Launcher behaviour (issue 2): "a rank that exits non-zero ... before
// MPI_Finalize" ends the job; the launcher names the rank and exits
// non-zero.
//
// Rank 2 (or the last rank) calls exit(3) after MPI_Init while the others
// wait in a receive that nothing will satisfy.
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MT_CHECK(size >= 2, "needs at least 2 ranks");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == (size > 2 ? 2 : size - 1)) {
    exit(3);
  }
  int never = 0;
  MPI_Recv(&never, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  MT_FAIL("a receive that nobody sends to completed");
}
