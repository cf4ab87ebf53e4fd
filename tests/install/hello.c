/* SPDX-License-Identifier: MIT */
/* The smallest useful MPI program: each rank passes its rank to the next one
 * around a ring and checks what it received from the previous one. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  int rank = -1;
  int size = 0;
  int received = -1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &received, 1, MPI_INT,
               (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  printf("hello from rank %d of %d, received %d\n", rank, size, received);
  MPI_Finalize();
  return received == (rank + size - 1) % size ? 0 : 1;
}
