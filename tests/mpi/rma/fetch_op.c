// SPDX-License-Identifier: MIT
// MPI 4.0 §12.3.4: MPI_GET_ACCUMULATE and MPI_FETCH_AND_OP return "the
// content of the target buffer before the accumulation", and accumulate
// operations are element-wise atomic (§12.7.1). So a shared counter that
// every rank fetches-and-adds N times hands out every value from 0 to
// size * N - 1 exactly once. MPI_NO_OP reads the counter;
// MPI_Rget_accumulate completes with MPI_Wait.
#include "mpitest.h"

enum { kTimes = 100 };

static int compare_long_long(const void* a, const void* b) {
  const long long x = *(const long long*)a;
  const long long y = *(const long long*)b;
  return (x > y) - (x < y);
}

// Every rank's fetched values, gathered at rank 0, are 0 .. size*N-1.
static void check_distinct(long long* fetched, int size, int rank,
                           const char* what) {
  long long* all = rank == 0 ? malloc(sizeof(long long) * kTimes * size) : NULL;
  MPI_Gather(fetched, kTimes, MPI_LONG_LONG, all, kTimes, MPI_LONG_LONG, 0,
             MPI_COMM_WORLD);
  if (rank == 0) {
    qsort(all, (size_t)kTimes * (size_t)size, sizeof(long long),
          compare_long_long);
    for (long long i = 0; i < (long long)kTimes * size; ++i) {
      MT_CHECK(all[i] == i, "%s: sorted fetched value [%lld] = %lld", what, i,
               all[i]);
    }
    free(all);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  long long* base = NULL;
  MPI_Win win;
  MPI_Win_allocate(4 * sizeof(long long), sizeof(long long), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &base, &win);
  for (int i = 0; i < 4; ++i) {
    base[i] = 0;
  }
  long long fetched[kTimes];
  const long long one = 1;
  const int last = size - 1;  // the counters live on the last rank
  MPI_Win_fence(0, win);
  for (int i = 0; i < kTimes; ++i) {
    MPI_Fetch_and_op(&one, &fetched[i], MPI_LONG_LONG, last, 0, MPI_SUM, win);
  }
  MPI_Win_fence(0, win);
  check_distinct(fetched, size, rank, "MPI_Fetch_and_op");

  for (int i = 0; i < kTimes; ++i) {
    fetched[i] = -1;
    MPI_Get_accumulate(&one, 1, MPI_LONG_LONG, &fetched[i], 1, MPI_LONG_LONG,
                       last, 1, 1, MPI_LONG_LONG, MPI_SUM, win);
  }
  MPI_Win_fence(0, win);
  check_distinct(fetched, size, rank, "MPI_Get_accumulate");

  long long now[2] = {-1, -1};
  MPI_Fetch_and_op(NULL, &now[0], MPI_LONG_LONG, last, 0, MPI_NO_OP, win);
  MPI_Get_accumulate(&one, 1, MPI_LONG_LONG, &now[1], 1, MPI_LONG_LONG, last, 1,
                     1, MPI_LONG_LONG, MPI_NO_OP, win);
  MPI_Win_fence(0, win);
  MT_CHECK(
      now[0] == (long long)kTimes * size && now[1] == (long long)kTimes * size,
      "MPI_NO_OP read %lld and %lld", now[0], now[1]);

  // Request form, two elements, replacing: every rank swaps in its rank.
  long long mine[2] = {rank, rank};
  long long old[2] = {-1, -1};
  MPI_Request request;
  MPI_Rget_accumulate(mine, 2, MPI_LONG_LONG, old, 2, MPI_LONG_LONG, last, 2, 2,
                      MPI_LONG_LONG, MPI_REPLACE, win, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  MT_CHECK(old[0] == old[1], "MPI_Rget_accumulate is not atomic: %lld %lld",
           old[0], old[1]);
  MPI_Win_fence(0, win);
  if (rank == last) {
    MT_CHECK(base[2] == base[3] && base[2] >= 0 && base[2] < size,
             "after MPI_REPLACE: %lld %lld", base[2], base[3]);
  }
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  MPI_Win_free(&win);
  MPI_Finalize();
  if (rank == 0) {
    printf("fetch_op: ok\n");
  }
  return 0;
}
