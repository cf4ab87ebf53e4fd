// SPDX-License-Identifier: MIT
// MPI 4.0 §12.2: the four ways to make a window, and what a window is
// besides its memory: the predefined attributes (§12.2.6), its group
// (§12.2.7), name (§7.8), info (§12.2.7), cached attributes with their
// delete callbacks (§7.7.3), error handlers (§9.3.2) and Fortran handles
// (§19.3.4). MPI_Win_allocate_shared memory is contiguous across ranks and
// written by direct stores that other members see after a barrier.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

static int deletes = 0;
static int delete_fn(MPI_Win win, int keyval, void* value, void* extra) {
  (void)win;
  (void)keyval;
  MT_CHECK(extra == &deletes, "extra_state not passed");
  deletes += (int)(intptr_t)value;
  return MPI_SUCCESS;
}

static MPI_Win seen_win = MPI_WIN_NULL;
static int seen_code = -1;
static void handler(MPI_Win* win, int* code, ...) {
  seen_win = *win;
  seen_code = *code;
}

static void check_attrs(MPI_Win win, void* base, MPI_Aint size, int unit,
                        int flavor) {
  void* value = NULL;
  int flag = 0;
  MPI_Win_get_attr(win, MPI_WIN_BASE, &value, &flag);
  MT_CHECK(flag && value == base, "MPI_WIN_BASE %p, want %p", value, base);
  MPI_Aint* s = NULL;
  MPI_Win_get_attr(win, MPI_WIN_SIZE, &s, &flag);
  MT_CHECK(flag && *s == size, "MPI_WIN_SIZE %ld, want %ld", (long)*s,
           (long)size);
  int* i = NULL;
  MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &i, &flag);
  MT_CHECK(flag && *i == unit, "MPI_WIN_DISP_UNIT %d, want %d", *i, unit);
  MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &i, &flag);
  MT_CHECK(flag && *i == flavor, "flavor %d, want %d", *i, flavor);
  MPI_Win_get_attr(win, MPI_WIN_MODEL, &i, &flag);
  MT_CHECK(flag && (*i == MPI_WIN_UNIFIED || *i == MPI_WIN_SEPARATE),
           "model %d", *i);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();

  // MPI_Win_create on the stack.
  double local[8];
  MPI_Win win;
  MPI_Win_create(local, sizeof local, sizeof(double), MPI_INFO_NULL,
                 MPI_COMM_WORLD, &win);
  check_attrs(win, local, sizeof local, sizeof(double), MPI_WIN_FLAVOR_CREATE);

  // Group.
  MPI_Group wg, cg;
  int cmp = -1;
  MPI_Win_get_group(win, &wg);
  MPI_Comm_group(MPI_COMM_WORLD, &cg);
  MPI_Group_compare(wg, cg, &cmp);
  MT_CHECK(cmp == MPI_IDENT, "window group compares %d", cmp);
  MPI_Group_free(&wg);
  MPI_Group_free(&cg);

  // Name.
  char name[MPI_MAX_OBJECT_NAME];
  int len = -1;
  MPI_Win_set_name(win, "halo window");
  MPI_Win_get_name(win, name, &len);
  MT_CHECK(len == 11 && strcmp(name, "halo window") == 0, "name '%s' (%d)",
           name, len);

  // Info: a hint the program set comes back.
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "no_locks", "true");
  MPI_Win_set_info(win, info);
  MPI_Info_free(&info);
  MPI_Win_get_info(win, &info);
  char value[MPI_MAX_INFO_VAL];
  int flag = 0;
  MPI_Info_get(info, "no_locks", MPI_MAX_INFO_VAL - 1, value, &flag);
  MT_CHECK(flag && strcmp(value, "true") == 0, "no_locks '%s' flag %d",
           flag ? value : "", flag);
  MPI_Info_free(&info);

  // Cached attributes: deleted at MPI_Win_delete_attr and at MPI_Win_free.
  int keyval = MPI_KEYVAL_INVALID;
  MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, delete_fn, &keyval, &deletes);
  MPI_Win_set_attr(win, keyval, (void*)(intptr_t)1);
  void* got = NULL;
  MPI_Win_get_attr(win, keyval, &got, &flag);
  MT_CHECK(flag && got == (void*)(intptr_t)1, "attribute not cached");
  MPI_Win_set_attr(win, keyval, (void*)(intptr_t)10);  // deletes the 1
  MT_CHECK(deletes == 1, "replacing ran %d deletes", deletes);
  MPI_Win_delete_attr(win, keyval);
  MT_CHECK(deletes == 11, "delete_attr: %d", deletes);
  MPI_Win_get_attr(win, keyval, &got, &flag);
  MT_CHECK(!flag, "attribute still there after delete");
  MPI_Win_set_attr(win, keyval, (void*)(intptr_t)100);

  // Error handlers: a user one sees the window and the code; errors on the
  // window go to it.
  MPI_Errhandler eh, back;
  MPI_Win_create_errhandler(handler, &eh);
  MPI_Win_set_errhandler(win, eh);
  MPI_Win_get_errhandler(win, &back);
  MT_CHECK(back == eh, "get_errhandler gave another handler");
  MPI_Errhandler_free(&back);
  MPI_Win_call_errhandler(win, MPI_ERR_OTHER);
  MT_CHECK(seen_win == win && seen_code == MPI_ERR_OTHER, "handler saw code %d",
           seen_code);
  MPI_Aint qsize;
  int qunit;
  void* qbase;
  seen_code = -1;
  int rc = MPI_Win_shared_query(win, 0, &qsize, &qunit, &qbase);
  int cls = -1;
  MPI_Error_class(rc, &cls);
  MT_CHECK(cls == MPI_ERR_RMA_FLAVOR, "shared_query on a created window: %d",
           cls);
  MPI_Error_class(seen_code, &cls);
  MT_CHECK(cls == MPI_ERR_RMA_FLAVOR, "the handler saw class %d", cls);
  MPI_Errhandler_free(&eh);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  rc = MPI_Win_set_attr(win, MPI_WIN_BASE, NULL);
  MPI_Error_class(rc, &cls);
  MT_CHECK(cls == MPI_ERR_KEYVAL, "setting MPI_WIN_BASE: class %d", cls);

  // Fortran handle.
  MPI_Fint f = MPI_Win_c2f(win);
  MT_CHECK(MPI_Win_f2c(f) == win, "c2f/f2c does not round-trip");

  MPI_Win_free(&win);
  MT_CHECK(win == MPI_WIN_NULL, "MPI_Win_free left the handle");
  MT_CHECK(deletes == 111, "MPI_Win_free ran the delete callback? %d", deletes);
  MPI_Win_free_keyval(&keyval);
  MT_CHECK(keyval == MPI_KEYVAL_INVALID, "keyval not reset");

  // MPI_Win_allocate: the library's memory, aligned for any type.
  double* mem = NULL;
  MPI_Win_allocate((MPI_Aint)(rank + 1) * 1000 * sizeof(double), sizeof(double),
                   MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
  MT_CHECK(mem != NULL && ((uintptr_t)mem % sizeof(double)) == 0,
           "allocated %p", (void*)mem);
  for (int i = 0; i < (rank + 1) * 1000; ++i) {
    mem[i] = i;  // the memory is the process's to use
  }
  check_attrs(win, mem, (MPI_Aint)(rank + 1) * 1000 * sizeof(double),
              sizeof(double), MPI_WIN_FLAVOR_ALLOCATE);
  MPI_Win_free(&win);

  // MPI_Win_create_dynamic: no memory until attached.
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  check_attrs(win, MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC);
  MPI_Win_free(&win);

  // MPI_Win_allocate_shared: rank r has r + 1 ints, back to back.
  int* mine = NULL;
  MPI_Win_allocate_shared((MPI_Aint)(rank + 1) * sizeof(int), sizeof(int),
                          MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &win);
  check_attrs(win, mine, (MPI_Aint)(rank + 1) * sizeof(int), sizeof(int),
              MPI_WIN_FLAVOR_SHARED);
  int* first = NULL;
  MPI_Win_shared_query(win, MPI_PROC_NULL, &qsize, &qunit, &first);
  MT_CHECK(qsize == sizeof(int) && qunit == sizeof(int),
           "rank 0's part: %ld bytes, unit %d", (long)qsize, qunit);
  MT_CHECK(mine == first + rank * (rank + 1) / 2, "not contiguous");
  for (int i = 0; i <= rank; ++i) {
    mine[i] = rank * 100 + i;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r) {
    int* theirs = NULL;
    MPI_Win_shared_query(win, r, &qsize, &qunit, &theirs);
    MT_CHECK(qsize == (MPI_Aint)((r + 1) * sizeof(int)), "rank %d: %ld bytes",
             r, (long)qsize);
    for (int i = 0; i <= r; ++i) {
      MT_CHECK(theirs[i] == r * 100 + i, "rank %d [%d] = %d", r, i, theirs[i]);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);

  // Zero-size members are fine, and MPI_PROC_NULL then finds the first
  // member with memory.
  MPI_Win_allocate_shared(rank == size - 1 ? 64 : 0, 1, MPI_INFO_NULL,
                          MPI_COMM_WORLD, &mine, &win);
  MPI_Win_shared_query(win, MPI_PROC_NULL, &qsize, &qunit, &first);
  MT_CHECK(qsize == 64, "the first member with memory has %ld bytes",
           (long)qsize);
  MPI_Win_free(&win);

  MPI_Finalize();
  if (rank == 0) {
    printf("win object: ok\n");
  }
  return 0;
}
