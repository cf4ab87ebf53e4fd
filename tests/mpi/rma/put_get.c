// SPDX-License-Identifier: MIT
// MPI 4.0 §12.3.1-12.3.2: MPI_PUT "transfers origin_count successive
// entries of the type specified by the origin_datatype, starting at
// address origin_addr on the origin node, to the target node specified by
// the win, target_rank pair", at "target_addr = window_base +
// target_disp × disp_unit"; MPI_GET is "similar to the put operation,
// except that data is transferred from the target memory to the origin
// process". §12.3.5: MPI_RPUT / MPI_RGET return a request whose completion
// means local completion.
//
// Contiguous and derived (vector, indexed) data on both sides, to the
// right neighbour, from the left neighbour and from itself, through every
// kind of window memory (args: allocate, stack, malloc, shared), and
// MPI_PROC_NULL as a target.
#include "mpitest.h"

enum { kStackInts = 256, kMallocInts = 32768 };  // malloc: 128 KiB

static int value(int rank, int i) { return rank * 100000 + i; }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  const char* kind = argc > 1 ? argv[1] : "allocate";
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  int stack_buffer[kStackInts];
  const int ints = strcmp(kind, "malloc") == 0 ? kMallocInts : kStackInts;
  const MPI_Aint bytes = (MPI_Aint)ints * (MPI_Aint)sizeof(int);
  int* base = NULL;
  void* to_free = NULL;
  MPI_Win win = MPI_WIN_NULL;
  if (strcmp(kind, "allocate") == 0) {
    MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                     &win);
  } else if (strcmp(kind, "shared") == 0) {
    MPI_Win_allocate_shared(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                            &base, &win);
  } else if (strcmp(kind, "stack") == 0) {
    base = stack_buffer;
    MPI_Win_create(base, bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                   &win);
  } else if (strcmp(kind, "malloc") == 0) {
    base = malloc((size_t)bytes);
    to_free = base;
    MT_ASSERT(base != NULL);
    MPI_Win_create(base, bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                   &win);
  } else {
    MT_FAIL("unknown window kind %s", kind);
  }
  for (int i = 0; i < ints; ++i) {
    base[i] = -1;
  }
  const int half = ints / 2;
  int* src = malloc((size_t)bytes);
  int* dst = malloc((size_t)bytes);
  MT_ASSERT(src != NULL && dst != NULL);
  for (int i = 0; i < ints; ++i) {
    src[i] = value(rank, i);
  }

  // 1. Contiguous put of half the window to the right.
  MPI_Win_fence(0, win);
  MPI_Put(src, half, MPI_INT, right, 0, half, MPI_INT, win);
  MPI_Win_fence(0, win);
  for (int i = 0; i < half; ++i) {
    MT_CHECK(base[i] == value(left, i), "%s put: [%d] = %d, want %d", kind, i,
             base[i], value(left, i));
  }

  // 2. Vector origin (every other int) into an indexed target.
  MPI_Datatype vec;
  MPI_Type_vector(16, 1, 2, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  const int lengths[3] = {3, 5, 8};
  const int displs[3] = {0, 10, 40};
  MPI_Datatype idx;
  MPI_Type_indexed(3, lengths, displs, MPI_INT, &idx);
  MPI_Type_commit(&idx);
  MPI_Put(src, 1, vec, right, half, 1, idx, win);
  MPI_Win_fence(0, win);
  {
    int k = 0;
    for (int b = 0; b < 3; ++b) {
      for (int j = 0; j < lengths[b]; ++j, ++k) {
        const int at = half + displs[b] + j;
        MT_CHECK(base[at] == value(left, 2 * k), "%s derived put: [%d] = %d",
                 kind, at, base[at]);
      }
    }
    MT_CHECK(base[half + 3] == -1 && base[half + 9] == -1,
             "%s derived put wrote between the blocks", kind);
  }

  // 3. Gets: every rank rewrites its whole window locally, then reads its
  // left neighbour's, contiguous and through a vector on either side.
  for (int i = 0; i < ints; ++i) {
    base[i] = value(rank, i);
  }
  MPI_Win_fence(0, win);
  MPI_Get(dst, half, MPI_INT, left, half, half, MPI_INT, win);
  int strided[16];
  MPI_Datatype tvec;  // 8 blocks of 2, 3 apart
  MPI_Type_vector(8, 2, 3, MPI_INT, &tvec);
  MPI_Type_commit(&tvec);
  MPI_Get(strided, 16, MPI_INT, left, 4, 1, tvec, win);
  int spread[32];
  for (int i = 0; i < 32; ++i) {
    spread[i] = -7;
  }
  MPI_Get(spread, 1, vec, rank, 100, 16, MPI_INT, win);  // from itself
  MPI_Win_fence(0, win);
  for (int i = 0; i < half; ++i) {
    MT_CHECK(dst[i] == value(left, half + i), "%s get: [%d] = %d", kind, i,
             dst[i]);
  }
  for (int b = 0; b < 8; ++b) {
    for (int j = 0; j < 2; ++j) {
      MT_CHECK(strided[2 * b + j] == value(left, 4 + 3 * b + j),
               "%s strided get: [%d] = %d", kind, 2 * b + j,
               strided[2 * b + j]);
    }
  }
  for (int i = 0; i < 32; ++i) {
    const int want = i % 2 == 0 ? value(rank, 100 + i / 2) : -7;
    MT_CHECK(spread[i] == want, "%s self get: [%d] = %d, want %d", kind, i,
             spread[i], want);
  }

  // 4. Request forms: complete at the origin once MPI_Wait returns.
  MPI_Request requests[2];
  int got[10];
  MPI_Rget(got, 10, MPI_INT, left, 5, 10, MPI_INT, win, &requests[0]);
  MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
  for (int i = 0; i < 10; ++i) {
    MT_CHECK(got[i] == value(left, 5 + i), "%s rget: [%d] = %d", kind, i,
             got[i]);
  }
  int mine[10];
  for (int i = 0; i < 10; ++i) {
    mine[i] = -(rank * 100 + i);
  }
  MPI_Rput(mine, 10, MPI_INT, right, 20, 10, MPI_INT, win, &requests[0]);
  MPI_Rput(mine, 10, MPI_INT, MPI_PROC_NULL, 0, 10, MPI_INT, win, &requests[1]);
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  MT_ASSERT(requests[0] == MPI_REQUEST_NULL && requests[1] == MPI_REQUEST_NULL);
  // MPI_PROC_NULL is a no-op for every operation.
  MPI_Put(mine, 10, MPI_INT, MPI_PROC_NULL, 1 << 20, 10, MPI_INT, win);
  MPI_Get(mine, 10, MPI_INT, MPI_PROC_NULL, 1 << 20, 10, MPI_INT, win);
  MPI_Win_fence(0, win);
  for (int i = 0; i < 10; ++i) {
    MT_CHECK(base[20 + i] == -(left * 100 + i), "%s rput: [%d] = %d", kind,
             20 + i, base[20 + i]);
    MT_CHECK(mine[i] == -(rank * 100 + i), "get from MPI_PROC_NULL wrote");
  }

  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  MPI_Type_free(&vec);
  MPI_Type_free(&idx);
  MPI_Type_free(&tvec);
  MPI_Win_free(&win);
  free(to_free);
  free(src);
  free(dst);
  MPI_Finalize();
  if (rank == 0) {
    printf("put_get %s: ok\n", kind);
  }
  return 0;
}
