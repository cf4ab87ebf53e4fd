// SPDX-License-Identifier: MIT
// Context-ID exhaustion and fragmentation give their own clean errors and
// MPI keeps working. Two ranks fill their masks with MPI_COMM_SELF dups
// until creation fails (exhaustion), then each frees a different one: both
// have a free ID, but no common one, so MPI_Comm_dup(MPI_COMM_WORLD) fails
// with the fragmentation message. After freeing, IDs are allocated again.
// shmpi-only: the wording and the exact limits are shmpi's.
#include <mpi.h>
#include <shmpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

enum { kMax = 2100 };

int main(int argc, char** argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  static MPI_Comm mine[kMax];
  int n = 0, rc = MPI_SUCCESS;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0, error_class = 0;
  while (n < kMax) {
    rc = MPI_Comm_dup(MPI_COMM_SELF, &mine[n]);
    if (rc != MPI_SUCCESS) {
      break;
    }
    ++n;
  }
  MPI_Error_class(rc, &error_class);
  MT_ASSERT(error_class == MPI_ERR_OTHER);
  MT_ASSERT(n == 2045);
  MPI_Error_string(rc, text, &length);
  MT_ASSERT(strstr(text, "too many communicators") != NULL);
  int free_ids = -1, reserved = -1;
  shmpi_context_ids_free(&free_ids, &reserved);
  MT_ASSERT(free_ids == 0 && reserved == 0);
  // Each rank frees a different communicator: one free ID each, disjoint.
  MPI_Comm_free(&mine[rank]);
  MPI_Comm other;
  rc = MPI_Comm_dup(MPI_COMM_WORLD, &other);
  MPI_Error_class(rc, &error_class);
  MT_ASSERT(error_class == MPI_ERR_OTHER);
  MPI_Error_string(rc, text, &length);
  // Several members: their free IDs have nothing in common.
  MT_ASSERT(other == MPI_COMM_NULL);
  MT_ASSERT(strstr(text, "disjoint") != NULL);
  // MPI still works: free everything, create and use again.
  for (int i = 0; i < n; ++i) {
    if (i != rank) {
      MPI_Comm_free(&mine[i]);
    }
  }
  MT_ASSERT(MPI_Comm_dup(MPI_COMM_WORLD, &other) == MPI_SUCCESS);
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, other);
  MT_ASSERT(sum == size * (size - 1) / 2);
  MPI_Comm_free(&other);
  shmpi_context_ids_free(&free_ids, &reserved);
  MT_ASSERT(free_ids + reserved == 2045);
  MPI_Finalize();
  return 0;
}
