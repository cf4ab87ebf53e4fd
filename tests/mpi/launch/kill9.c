// SPDX-License-Identifier: MIT
// Launcher behaviour (issue 2): a rank killed with kill -9 ends the job with
// a message naming it, and nothing is left behind: no rank process and no
// /dev/shm entry (expect.sh --no-leftovers checks both).
//
// Every rank writes its pid to $MT_PID_DIR/rank.R; rank 1 then sends itself
// SIGKILL while the others are blocked in MPI (half in a receive, half in a
// barrier that rank 1 never reaches).
#include <signal.h>
#include <unistd.h>

#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  MT_CHECK(mt_size() >= 2, "needs at least 2 ranks");
  const char* dir = getenv("MT_PID_DIR");
  if (dir != NULL) {
    char path[512];
    snprintf(path, sizeof path, "%s/rank.%d", dir, rank);
    FILE* f = fopen(path, "w");
    MT_CHECK(f != NULL, "cannot write %s", path);
    fprintf(f, "%ld\n", (long)getpid());
    fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);  // every pid is written
  if (rank == 1) {
    raise(SIGKILL);
  }
  if (rank % 2 == 0) {
    int never = 0;
    MPI_Recv(&never, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MT_FAIL("the job went on without rank 1");
}
