// SPDX-License-Identifier: MIT
// Helpers of the programs that spawn copies of themselves
// (tests/mpi/dynamic/spawn*.c). Define _XOPEN_SOURCE 700 before any
// include, for realpath.
#ifndef SHMPI_TESTS_SUPPORT_MT_SPAWN_H_
#define SHMPI_TESTS_SUPPORT_MT_SPAWN_H_

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mpitest.h"

// The program's absolute path, for MPI_Comm_spawn: copies may run in
// another working directory (info "wdir").
static char mt_self_path[PATH_MAX];

// MPI_Init, then this program's path into mt_self_path; returns the
// parent communicator (MPI_COMM_NULL unless MPI_Comm_spawn started us).
// Every process, spawned or not, writes its pid to $MT_PID_DIR/pid.<pid>,
// so expect.sh --no-leftovers checks that none outlives the job.
static inline MPI_Comm mt_spawn_init(int* argc, char*** argv) {
  MPI_Init(argc, argv);
  const char* dir = getenv("MT_PID_DIR");
  if (dir != NULL) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/pid.%ld", dir, (long)getpid());
    FILE* f = fopen(path, "w");
    MT_CHECK(f != NULL, "cannot write %s", path);
    fprintf(f, "%ld\n", (long)getpid());
    fclose(f);
  }
  MT_CHECK(realpath((*argv)[0], mt_self_path) != NULL, "realpath(%s) failed",
           (*argv)[0]);
  MPI_Comm parent = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Comm_get_parent(&parent));
  return parent;
}

#endif  // SHMPI_TESTS_SUPPORT_MT_SPAWN_H_
