// SPDX-License-Identifier: MIT
// MPI 4.0 §7.2: "MPI_COMM_WORLD ... contains all processes"; ranks are
// 0..size-1; MPI_COMM_SELF contains only the calling process.
//
// Usage: comm_world EXPECTED_SIZE. Every rank checks the size, rank 0
// collects every rank number once, and MPI_COMM_SELF has size 1, rank 0.
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MT_CHECK(argc == 2, "usage: comm_world EXPECTED_SIZE");
  const int expected = atoi(argv[1]);
  int size = -1;
  int rank = -1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MT_CHECK(size == expected, "MPI_COMM_WORLD has %d ranks, expected %d", size,
           expected);
  MT_CHECK(rank >= 0 && rank < size, "rank %d out of 0..%d", rank, size - 1);
  int self_size = -1;
  int self_rank = -1;
  MPI_Comm_size(MPI_COMM_SELF, &self_size);
  MPI_Comm_rank(MPI_COMM_SELF, &self_rank);
  MT_CHECK(self_size == 1 && self_rank == 0, "MPI_COMM_SELF: size %d rank %d",
           self_size, self_rank);
  if (rank == 0) {
    int* seen = calloc((size_t)size, sizeof(int));
    seen[0] = 1;
    for (int i = 1; i < size; ++i) {
      int other = -1;
      MPI_Recv(&other, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      MT_CHECK(other > 0 && other < size && !seen[other],
               "rank %d reported twice or out of range", other);
      seen[other] = 1;
    }
    free(seen);
  } else {
    MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
