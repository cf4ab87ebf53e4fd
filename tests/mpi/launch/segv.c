// SPDX-License-Identifier: MIT
// Launcher behaviour (issue 2): a rank that dies by a signal before
// MPI_Finalize ends the job; the launcher names the rank and the signal
// ("rank 1 (pid N) killed by signal 11 (Segmentation fault)") and exits
// non-zero.
//
// Rank 1 takes SIGSEGV (with the default action restored, so that a
// sanitizer's handler does not turn it into an abort) while the others wait
// in a receive that nothing will satisfy.
#include <signal.h>

#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  MT_CHECK(mt_size() >= 2, "needs at least 2 ranks");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
    MT_FAIL("survived SIGSEGV");
  }
  int never = 0;
  MPI_Recv(&never, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  MT_FAIL("a receive that nobody sends to completed");
}
