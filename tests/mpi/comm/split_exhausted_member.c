// SPDX-License-Identifier: MIT
// A member that does not join a split (MPI_UNDEFINED) offers all ones to the
// context-ID agreement, so it cannot block the others even when it has no
// free context ID left: the last rank fills its mask with MPI_COMM_SELF
// dups, then every rank splits MPI_COMM_WORLD with the last rank out.
// shmpi-only: relies on shmpi's reserve being empty on MPI_COMM_WORLD.
#include <mpi.h>
#include <stdio.h>

#include "mpitest.h"

enum { kMax = 2100 };

int main(int argc, char** argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  static MPI_Comm mine[kMax];
  int n = 0;
  const int out = rank == size - 1;
  if (out) {
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    while (n < kMax && MPI_Comm_dup(MPI_COMM_SELF, &mine[n]) == MPI_SUCCESS) {
      ++n;
    }
    MT_ASSERT(n > 0 && n < kMax);
  }
  MPI_Comm part;
  MT_ASSERT(MPI_Comm_split(MPI_COMM_WORLD, out ? MPI_UNDEFINED : 0, rank,
                           &part) == MPI_SUCCESS);
  MT_ASSERT(out == (part == MPI_COMM_NULL));
  if (!out) {
    int part_size = 0, sum = 0;
    MPI_Comm_size(part, &part_size);
    MT_ASSERT(part_size == size - 1);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, part);
    MT_ASSERT(sum == (size - 1) * (size - 2) / 2);
    MPI_Comm_free(&part);
  }
  for (int i = 0; i < n; ++i) {
    MPI_Comm_free(&mine[i]);
  }
  MPI_Finalize();
  return 0;
}
