// SPDX-License-Identifier: MIT
// hello.c in C++: mpi.h must be usable from C++ through shmpicxx.
#include <mpi.h>

#include <cstdio>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = -1;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int received = -1;
  MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &received, 1, MPI_INT,
               (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  std::printf("hello from rank %d of %d, received %d\n", rank, size, received);
  MPI_Finalize();
  return received == (rank + size - 1) % size ? 0 : 1;
}
