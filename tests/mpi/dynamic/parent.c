// SPDX-License-Identifier: MIT
// MPI 4.0 §11.8.2: "If a process was started with MPI_INIT or
// MPI_INIT_THREAD, and not by MPI_COMM_SPAWN or MPI_COMM_SPAWN_MULTIPLE,
// MPI_COMM_GET_PARENT returns MPI_COMM_NULL" (no process that shmpirun or
// mpirun itself started was spawned), on every call. A NULL argument is
// MPI_ERR_ARG.
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm parent = MPI_COMM_WORLD;
  MT_CHECK_MPI(MPI_Comm_get_parent(&parent));
  MT_CHECK(parent == MPI_COMM_NULL, "a process started by mpirun has a parent");
  // The common start-up idiom, again after other work.
  MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  parent = MPI_COMM_SELF;
  MT_CHECK_MPI(MPI_Comm_get_parent(&parent));
  MT_CHECK(parent == MPI_COMM_NULL, "second call gave a parent");

  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MT_EXPECT_CLASS(0, MPI_Comm_get_parent(NULL), MPI_ERR_ARG,
                  "MPI_Comm_get_parent(NULL)");
  MPI_Finalize();
  return 0;
}
