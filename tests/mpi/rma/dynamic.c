// SPDX-License-Identifier: MIT
// MPI 4.0 §12.2.4: a window made by MPI_WIN_CREATE_DYNAMIC has no memory
// until its members attach some; an origin names target memory by its
// address at the target (MPI_Get_address, exchanged by the program) with
// disp_unit 1, and may reach only memory the target has attached.
//
// Every rank attaches two regions, a small one on the stack and a large
// one from malloc (128 KiB: the shared heap in the release build), and
// publishes their addresses with MPI_Allgather; then it puts into and gets
// from its right neighbour's regions under MPI_Win_lock_all, detaches,
// attaches one region again and repeats. With "outside", rank 0 then puts
// to an address its neighbour never attached, and the job ends with
// MPI_ERR_RMA_RANGE (shmpi only: MPICH does not check).
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

enum { kSmall = 64, kLarge = 32768 };  // ints

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  const int outside = argc > 1 && strcmp(argv[1], "outside") == 0;
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  int small[kSmall];
  int* large = malloc(kLarge * sizeof(int));
  MT_ASSERT(large != NULL);
  for (int i = 0; i < kSmall; ++i) {
    small[i] = -1;
  }
  for (int i = 0; i < kLarge; ++i) {
    large[i] = -1;
  }
  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_attach(win, small, sizeof small);
  MPI_Win_attach(win, large, kLarge * sizeof(int));
  MPI_Aint mine[2], all[2 * 64];
  MT_ASSERT(size <= 64);
  MPI_Get_address(small, &mine[0]);
  MPI_Get_address(large, &mine[1]);
  MPI_Allgather(mine, 2, MPI_AINT, all, 2, MPI_AINT, MPI_COMM_WORLD);
  const MPI_Aint right_small = all[2 * right];
  const MPI_Aint right_large = all[2 * right + 1];

  int* src = malloc(kLarge * sizeof(int));
  MT_ASSERT(src != NULL);
  for (int i = 0; i < kLarge; ++i) {
    src[i] = rank * 1000000 + i;
  }
  // Put into both of the right neighbour's regions (the middle of the
  // small one), then read them back.
  MPI_Win_lock_all(0, win);
  MPI_Put(src, 16, MPI_INT, right, right_small + 8 * (MPI_Aint)sizeof(int), 16,
          MPI_INT, win);
  MPI_Put(src, kLarge, MPI_INT, right, right_large, kLarge, MPI_INT, win);
  MPI_Win_flush(right, win);
  int check[16];
  MPI_Get(check, 16, MPI_INT, right, right_small + 8 * (MPI_Aint)sizeof(int),
          16, MPI_INT, win);
  MPI_Win_flush(right, win);
  for (int i = 0; i < 16; ++i) {
    MT_CHECK(check[i] == src[i], "get back [%d] = %d, want %d", i, check[i],
             src[i]);
  }
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < kSmall; ++i) {
    const int want = i >= 8 && i < 24 ? left * 1000000 + (i - 8) : -1;
    MT_CHECK(small[i] == want, "small[%d] = %d, want %d", i, small[i], want);
  }
  for (int i = 0; i < kLarge; ++i) {
    MT_CHECK(large[i] == left * 1000000 + i, "large[%d] = %d", i, large[i]);
  }

  // Detach both, attach the small one again: it is reachable, and an
  // accumulate into it works.
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_detach(win, large);
  MPI_Win_detach(win, small);
  MPI_Win_attach(win, small, sizeof small);
  MPI_Barrier(MPI_COMM_WORLD);
  const int one = 1;
  MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
  MPI_Accumulate(&one, 1, MPI_INT, right, right_small, 1, MPI_INT, MPI_SUM,
                 win);
  MPI_Win_unlock(right, win);
  MPI_Barrier(MPI_COMM_WORLD);
  MT_CHECK(small[0] == 0, "small[0] = %d after the accumulate, want 0",
           small[0]);

  if (outside) {
    // The large region is detached everywhere now.
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
      MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
      MPI_Put(src, 1, MPI_INT, right, right_large, 1, MPI_INT, win);
      MT_FAIL("a put outside every attached region succeeded");
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_detach(win, small);
  MPI_Win_free(&win);
  free(src);
  free(large);
  MPI_Finalize();
  if (rank == 0) {
    printf("rma dynamic: ok\n");
  }
  return 0;
}
