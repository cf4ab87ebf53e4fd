// SPDX-License-Identifier: MIT
// MPI 4.0 §11.3: MPI_ABORT "makes a best attempt to abort all MPI processes
// in the group of comm ... the errorcode [is] the return value of the main
// program", i.e. the job ends with that exit status.
//
// Rank 1 calls MPI_Abort(MPI_COMM_WORLD, 7) while the others wait in a
// receive that nothing will satisfy; the job must end with status 7.
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  MT_CHECK(mt_size() >= 2, "needs at least 2 ranks");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    MPI_Abort(MPI_COMM_WORLD, 7);
    MT_FAIL("MPI_Abort returned");
  }
  int never = 0;
  MPI_Recv(&never, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  MT_FAIL("a receive that nobody sends to completed");
}
