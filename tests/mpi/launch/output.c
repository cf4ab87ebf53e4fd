// SPDX-License-Identifier: MIT
// Launcher behaviour (issue 2): the launcher forwards every rank's stdout
// and stderr, and loses nothing written just before a rank exits.
//
// Each rank writes 200 numbered lines to stdout and one to stderr, the last
// ones right before MPI_Finalize; the test registration counts them.
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  for (int i = 0; i < 200; ++i) {
    printf("output rank %d line %d\n", rank, i);
  }
  fprintf(stderr, "stderr rank %d\n", rank);
  MPI_Finalize();
  return 0;
}
