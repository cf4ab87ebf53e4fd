/* SPDX-License-Identifier: MIT */
/* The demo the README's setup command runs: a token goes round a ring of
 * ranks, each rank reports its neighbours, and ranks 0 and 1 measure the
 * one-way latency of an 8-byte message. Plain MPI: it builds against shmpi,
 * MPICH or Open MPI alike. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int compare_doubles(const void* a, const void* b) {
  double x = *(const double*)a;
  double y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int left = (rank + size - 1) % size;
  const int right = (rank + 1) % size;

  /* Send the token once round the ring; each rank adds its rank. */
  long token = 0;
  if (rank == 0) {
    token = 0;
    MPI_Send(&token, 1, MPI_LONG, right, 0, MPI_COMM_WORLD);
    MPI_Recv(&token, 1, MPI_LONG, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&token, 1, MPI_LONG, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    token += rank;
    MPI_Send(&token, 1, MPI_LONG, right, 0, MPI_COMM_WORLD);
  }

  /* Rank 0 prints every rank's line in order. */
  char line[128];
  snprintf(line, sizeof line,
           "rank %d of %d: left neighbour %d, right neighbour %d", rank, size,
           left, right);
  if (rank == 0) {
    printf("%s\n", line);
    for (int r = 1; r < size; ++r) {
      MPI_Recv(line, (int)sizeof line, MPI_CHAR, r, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      printf("%s\n", line);
    }
    printf("token after one trip round the ring: %ld (expected %ld)\n", token,
           (long)size * (size - 1) / 2);
  } else {
    MPI_Send(line, (int)sizeof line, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
  }

  /* Ping-pong between ranks 0 and 1: median one-way latency of 8 bytes. */
  if (size >= 2 && rank < 2) {
    enum { kBatches = 21, kIterations = 2000 };
    double samples[kBatches];
    double message = 0.0;
    const int peer = 1 - rank;
    for (int batch = -1; batch < kBatches; ++batch) { /* batch -1 warms up */
      MPI_Barrier(MPI_COMM_SELF);
      double start = MPI_Wtime();
      for (int i = 0; i < kIterations; ++i) {
        if (rank == 0) {
          MPI_Send(&message, 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD);
          MPI_Recv(&message, 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
        } else {
          MPI_Recv(&message, 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
          MPI_Send(&message, 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD);
        }
      }
      if (batch >= 0) {
        samples[batch] = (MPI_Wtime() - start) / (2.0 * kIterations);
      }
    }
    if (rank == 0) {
      qsort(samples, kBatches, sizeof samples[0], compare_doubles);
      printf(
          "one-way latency rank 0 <-> rank 1, 8-byte messages: %.3f us (median "
          "of %d)\n",
          samples[kBatches / 2] * 1e6, kBatches);
    }
  }
  MPI_Finalize();
  return 0;
}
