// SPDX-License-Identifier: MIT
// Erroneous one-sided calls end the job under the default handler,
// MPI_ERRORS_ARE_FATAL (the window's, MPI 4.0 §9.3), with a message that
// names the call and the problem. args: one of
//   range  MPI_Put past the end of the target's window (MPI_ERR_RMA_RANGE)
//   rank   MPI_Get from a rank the window does not have (MPI_ERR_RANK)
//   sync   MPI_Put before any MPI_Win_fence (MPI_ERR_RMA_SYNC)
//   op     MPI_Accumulate with a user-defined op (MPI_ERR_OP)
//   type   MPI_Put with MPI_DATATYPE_NULL as the origin datatype
//          (MPI_ERR_TYPE; the message says which datatype)
// Rank 0 makes the bad call; the job must not end normally. MPICH 4.0.2
// does not check the range of a put (range is shmpi-only).
#include "mpitest.h"

static void add(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)in;
  (void)inout;
  (void)len;
  (void)type;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  const char* what = argc > 1 ? argv[1] : "range";
  int* base = NULL;
  MPI_Win win;
  MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                   &base, &win);
  int data[8] = {0};
  if (strcmp(what, "sync") == 0) {
    if (rank == 0) {
      MPI_Put(data, 1, MPI_INT, size - 1, 0, 1, MPI_INT, win);
    }
  } else {
    MPI_Win_fence(0, win);
    if (rank == 0) {
      if (strcmp(what, "range") == 0) {
        MPI_Put(data, 2, MPI_INT, size - 1, 3, 2, MPI_INT, win);
      } else if (strcmp(what, "rank") == 0) {
        MPI_Get(data, 1, MPI_INT, size, 0, 1, MPI_INT, win);
      } else if (strcmp(what, "op") == 0) {
        MPI_Op op;
        MPI_Op_create(add, 1, &op);
        MPI_Accumulate(data, 1, MPI_INT, size - 1, 0, 1, MPI_INT, op, win);
      } else if (strcmp(what, "type") == 0) {
        MPI_Put(data, 1, MPI_DATATYPE_NULL, size - 1, 0, 1, MPI_INT, win);
      }
    }
    MPI_Win_fence(0, win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    printf("errors %s: the bad call returned\n", what);
  }
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
