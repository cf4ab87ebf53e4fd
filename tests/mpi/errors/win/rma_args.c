// SPDX-License-Identifier: MIT
// Errors of one-sided calls come back to a window whose handler is
// MPI_ERRORS_RETURN with their classes (MPI 4.0 §12.8, §9.4), and change
// nothing: an RMA call outside every epoch (MPI_ERR_RMA_SYNC), a target
// that is no rank of the window (MPI_ERR_RANK), a negative target_disp
// (MPI_ERR_DISP), a negative count (MPI_ERR_COUNT), no datatype or a
// compare-and-swap on MPI_FLOAT (MPI_ERR_TYPE), a user-defined op in an
// accumulate and MPI_NO_OP in MPI_Accumulate (MPI_ERR_OP), unlock and
// complete without their epoch (MPI_ERR_RMA_SYNC), and MPI_Win_attach /
// MPI_Win_shared_query on a window of the wrong flavor
// (MPI_ERR_RMA_FLAVOR). With "extra" (shmpi only), also the checks MPICH
// 4.0.2 does not make or answers with MPI_ERR_ARG: data past the end of
// the target's window (MPI_ERR_RMA_RANGE; MPICH writes past it), origin
// and target sizes that differ (MPI_ERR_TYPE), a bad lock type
// (MPI_ERR_LOCKTYPE) and a bad fence assert (MPI_ERR_ASSERT). Afterwards
// the window still works.
#include <string.h>

#include "mpitest.h"

static void user_op(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)in;
  (void)inout;
  (void)len;
  (void)type;
}

static void expect(int rc, int expected, const char* expected_name,
                   const char* what) {
  int cls = -1;
  MPI_Error_class(rc, &cls);
  MT_CHECK(cls == expected, "%s: got %s, want %s", what, mt_class_name(cls),
           expected_name);
}
#define EXPECT(call, cls) expect((call), (cls), #cls, #call)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  const int extra = argc > 1 && strcmp(argv[1], "extra") == 0;
  const int right = (rank + 1) % size;
  int* base = NULL;
  MPI_Win win;
  MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                   &base, &win);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  for (int i = 0; i < 16; ++i) {
    base[i] = 7;
  }
  int data[32] = {0};

  EXPECT(MPI_Put(data, 1, MPI_INT, right, 0, 1, MPI_INT, win),
         MPI_ERR_RMA_SYNC);
  EXPECT(MPI_Win_unlock(right, win), MPI_ERR_RMA_SYNC);
  EXPECT(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
  if (extra) {
    EXPECT(MPI_Win_lock(12345, right, 0, win), MPI_ERR_LOCKTYPE);
    EXPECT(MPI_Win_fence(1 << 30, win), MPI_ERR_ASSERT);
  }

  MPI_Win_fence(0, win);
  EXPECT(MPI_Put(data, 1, MPI_INT, size, 0, 1, MPI_INT, win), MPI_ERR_RANK);
  EXPECT(MPI_Put(data, 1, MPI_INT, right, -1, 1, MPI_INT, win), MPI_ERR_DISP);
  if (extra) {
    EXPECT(MPI_Put(data, 4, MPI_INT, right, 14, 4, MPI_INT, win),
           MPI_ERR_RMA_RANGE);
    EXPECT(MPI_Get(data, 1, MPI_INT, right, 16, 1, MPI_INT, win),
           MPI_ERR_RMA_RANGE);
  }
  EXPECT(MPI_Put(data, -1, MPI_INT, right, 0, -1, MPI_INT, win), MPI_ERR_COUNT);
  EXPECT(MPI_Put(data, 1, MPI_DATATYPE_NULL, right, 0, 1, MPI_INT, win),
         MPI_ERR_TYPE);
  MPI_Op op;
  MPI_Op_create(user_op, 1, &op);
  EXPECT(MPI_Accumulate(data, 1, MPI_INT, right, 0, 1, MPI_INT, op, win),
         MPI_ERR_OP);
  MPI_Op_free(&op);
  EXPECT(MPI_Accumulate(data, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_NO_OP, win),
         MPI_ERR_OP);
  if (extra) {
    EXPECT(MPI_Put(data, 2, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_TYPE);
  }
  float f = 0, g = 0, h = 0;
  EXPECT(MPI_Compare_and_swap(&f, &g, &h, MPI_FLOAT, right, 0, win),
         MPI_ERR_TYPE);
  EXPECT(MPI_Win_attach(win, data, sizeof data), MPI_ERR_RMA_FLAVOR);
  MPI_Aint qsize;
  int qunit;
  void* qbase;
  EXPECT(MPI_Win_shared_query(win, 0, &qsize, &qunit, &qbase),
         MPI_ERR_RMA_FLAVOR);

  // Nothing changed, and a correct put still works.
  MPI_Win_fence(0, win);
  for (int i = 0; i < 16; ++i) {
    MT_CHECK(base[i] == 7, "base[%d] = %d after failed calls", i, base[i]);
  }
  MPI_Barrier(MPI_COMM_WORLD);  // every rank has looked before the put
  data[0] = rank;
  MPI_Put(data, 1, MPI_INT, right, 3, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  MT_CHECK(base[3] == (rank + size - 1) % size, "base[3] = %d", base[3]);
  MPI_Win_free(&win);
  MPI_Finalize();
  if (rank == 0) {
    printf("win rma_args: ok\n");
  }
  return 0;
}
