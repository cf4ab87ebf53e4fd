// SPDX-License-Identifier: MIT
// MPI 4.0 §7.4.3: MPI_COMM_FREE sets the handle to MPI_COMM_NULL; a copy of
// the handle kept from before refers to nothing (§2.5.1: using it is
// erroneous). shmpi, like MPICH, recognises it: MPI_ERR_COMM, not a crash
// or a call on another communicator.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm stale = dup;
  MPI_Comm_free(&dup);
  MT_CHECK(dup == MPI_COMM_NULL, "MPI_Comm_free left the handle set");
  int value = 1;
  MPI_Comm comm = MPI_COMM_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Comm_rank(stale, &value), MPI_ERR_COMM,
                    "MPI_Comm_rank(freed communicator)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_size(stale, &value), MPI_ERR_COMM,
                    "MPI_Comm_size(freed communicator)");
    MT_EXPECT_CLASS(fatal, MPI_Send(&value, 1, MPI_INT, 0, 0, stale),
                    MPI_ERR_COMM, "MPI_Send(freed communicator)");
    MT_EXPECT_CLASS(fatal, MPI_Barrier(stale), MPI_ERR_COMM,
                    "MPI_Barrier(freed communicator)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_dup(stale, &comm), MPI_ERR_COMM,
                    "MPI_Comm_dup(freed communicator)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_free(&stale), MPI_ERR_COMM,
                    "MPI_Comm_free(freed communicator)");
  }
  return mt_errors_finish(fatal);
}
