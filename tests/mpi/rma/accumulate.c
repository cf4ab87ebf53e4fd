// SPDX-License-Identifier: MIT
// MPI 4.0 §12.3.4: MPI_ACCUMULATE "accumulate[s] the contents of the
// origin buffer ... to the buffer specified by arguments target_count and
// target_datatype, at offset target_disp, in the target window ... using
// the operation op"; §12.7.1: "Accumulate calls enable element-wise
// atomic read and write to remote memory locations".
//
// Every rank accumulates into the same locations of rank 0 at once: the
// sums must be exact (no update lost), MPI_MAX and MPI_MAXLOC pick the
// largest, MPI_REPLACE leaves one rank's value, a vector target type
// touches only its blocks, and MPI_Raccumulate completes with MPI_Wait.
// args: allocate (shared heap) or stack (process_vm path).
#include "mpitest.h"

enum { kInts = 64, kIterations = 200 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  const char* kind = argc > 1 ? argv[1] : "allocate";
  int stack_buffer[kInts];
  int* base = NULL;
  MPI_Win win = MPI_WIN_NULL;
  if (strcmp(kind, "stack") == 0) {
    base = stack_buffer;
    MPI_Win_create(base, sizeof stack_buffer, sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
  } else {
    MPI_Win_allocate(kInts * sizeof(int), sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
  }
  for (int i = 0; i < kInts; ++i) {
    base[i] = 0;
  }
  double* sum_double = (double*)(base + 8);  // ints 8..9
  MPI_Win_fence(0, win);

  const int four[4] = {1, 2, 3, 4};
  // An origin buffer stays untouched until the epoch ends (MPI 4.0
  // §12.3): one candidate each.
  int candidates[kIterations];
  const double half = 0.5;
  for (int it = 0; it < kIterations; ++it) {
    MPI_Accumulate(four, 4, MPI_INT, 0, 0, 4, MPI_INT, MPI_SUM, win);
    candidates[it] = rank * 1000 + it;
    MPI_Accumulate(&candidates[it], 1, MPI_INT, 0, 4, 1, MPI_INT, MPI_MAX, win);
    MPI_Accumulate(&half, 1, MPI_DOUBLE, 0, 8, 1, MPI_DOUBLE, MPI_SUM, win);
  }
  const int replace = rank + 1;
  MPI_Accumulate(&replace, 1, MPI_INT, 0, 5, 1, MPI_INT, MPI_REPLACE, win);
  // Vector target: 4 blocks of 1 int, 2 apart, from ints 16.
  MPI_Datatype vec;
  MPI_Type_vector(4, 1, 2, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  MPI_Accumulate(four, 4, MPI_INT, 0, 16, 1, vec, MPI_SUM, win);
  // MAXLOC on (value, index) pairs.
  const int pair[2] = {(rank * 7) % 5 + 10 * rank, rank};
  MPI_Accumulate(pair, 1, MPI_2INT, 0, 30, 1, MPI_2INT, MPI_MAXLOC, win);
  // The request form.
  MPI_Request request;
  MPI_Raccumulate(four, 2, MPI_INT, 0, 40, 2, MPI_INT, MPI_SUM, win, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  MPI_Accumulate(four, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, MPI_SUM, win);
  MPI_Win_fence(0, win);

  if (rank == 0) {
    for (int i = 0; i < 4; ++i) {
      MT_CHECK(base[i] == size * kIterations * four[i],
               "%s sum [%d] = %d, want %d", kind, i, base[i],
               size * kIterations * four[i]);
    }
    MT_CHECK(base[4] == (size - 1) * 1000 + kIterations - 1, "%s max = %d",
             kind, base[4]);
    MT_CHECK(base[5] >= 1 && base[5] <= size, "%s replace left %d", kind,
             base[5]);
    MT_CHECK(*sum_double == 0.5 * size * kIterations, "%s double sum %g", kind,
             *sum_double);
    for (int k = 0; k < 4; ++k) {
      MT_CHECK(base[16 + 2 * k] == size * four[k] && base[17 + 2 * k] == 0,
               "%s vector sum: [%d] = %d, [%d] = %d", kind, 16 + 2 * k,
               base[16 + 2 * k], 17 + 2 * k, base[17 + 2 * k]);
    }
    const int best = (size - 1) * 10 + ((size - 1) * 7) % 5;
    MT_CHECK(base[30] == best && base[31] == size - 1,
             "%s maxloc (%d, %d), want (%d, %d)", kind, base[30], base[31],
             best, size - 1);
    MT_CHECK(base[40] == size && base[41] == 2 * size, "%s raccumulate %d %d",
             kind, base[40], base[41]);
  }
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  MPI_Type_free(&vec);
  MPI_Win_free(&win);
  MPI_Finalize();
  if (rank == 0) {
    printf("accumulate %s: ok\n", kind);
  }
  return 0;
}
