// SPDX-License-Identifier: MIT
// MPI 4.0 §11.2.1: MPI_INITIALIZED "indicates whether MPI_INIT has been
// called"; MPI_FINALIZED "indicates whether MPI_FINALIZE has completed".
// Both, and MPI_GET_VERSION, may be called before MPI_INIT and after
// MPI_FINALIZE.
#include "mpitest.h"

static void expect_state(int initialized, int finalized, const char* when) {
  int flag_init = -1;
  int flag_fin = -1;
  MPI_Initialized(&flag_init);
  MPI_Finalized(&flag_fin);
  if (flag_init != initialized || flag_fin != finalized) {
    fprintf(stderr,
            "FAIL: %s: MPI_Initialized = %d, MPI_Finalized = %d; expected "
            "%d, %d\n",
            when, flag_init, flag_fin, initialized, finalized);
    exit(1);
  }
}

int main(int argc, char** argv) {
  expect_state(0, 0, "before MPI_Init");
  int version = 0;
  int subversion = -1;
  MPI_Get_version(&version, &subversion);
  if (version != MPI_VERSION || subversion != MPI_SUBVERSION) {
    fprintf(stderr, "FAIL: MPI_Get_version before MPI_Init: %d.%d\n", version,
            subversion);
    exit(1);
  }
  MPI_Init(&argc, &argv);
  expect_state(1, 0, "after MPI_Init");
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  expect_state(1, 1, "after MPI_Finalize");
  version = 0;
  MPI_Get_version(&version, &subversion);
  if (version != MPI_VERSION) {
    fprintf(stderr, "FAIL: MPI_Get_version after MPI_Finalize: %d.%d\n",
            version, subversion);
    exit(1);
  }
  return 0;
}
