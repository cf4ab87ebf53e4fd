// SPDX-License-Identifier: MIT
// MPI 4.0 §9.1.2: MPI_GET_PROCESSOR_NAME returns "the name of the processor
// on which it was called at the moment of the call ... resultlen" with at
// most MPI_MAX_PROCESSOR_NAME characters.
//
// All ranks of a shmpi job run on one machine, so they must agree on it.
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  char name[MPI_MAX_PROCESSOR_NAME];
  memset(name, 'x', sizeof name);
  int len = -1;
  MPI_Get_processor_name(name, &len);
  MT_CHECK(len > 0 && len < MPI_MAX_PROCESSOR_NAME,
           "MPI_Get_processor_name length %d", len);
  MT_CHECK(name[len] == '\0' && strlen(name) == (size_t)len,
           "MPI_Get_processor_name: length %d but strlen %zu", len,
           strnlen(name, sizeof name));
  char root_name[MPI_MAX_PROCESSOR_NAME];
  memcpy(root_name, name, sizeof name);
  MPI_Bcast(root_name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  MT_CHECK(strcmp(root_name, name) == 0,
           "rank 0 runs on '%s', this rank on '%s'", root_name, name);
  MPI_Finalize();
  return 0;
}
