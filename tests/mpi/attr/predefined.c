// SPDX-License-Identifier: MIT
// MPI 4.0 §9.1: "The following attributes are ... cached with
// MPI_COMM_WORLD": MPI_TAG_UB ("at least 32767"), MPI_HOST, MPI_IO,
// MPI_WTIME_IS_GLOBAL, and, when available, MPI_UNIVERSE_SIZE, MPI_APPNUM
// and MPI_LASTUSEDCODE. "The attribute_val is a pointer to the value."
//
// The same values come back on MPI_COMM_SELF: the standard caches them on
// MPI_COMM_WORLD only, but MPICH answers on every communicator and shmpi
// does the same.
#include "mpitest.h"

// Returns the int value of a predefined attribute, or -12345 if absent.
static int get_int(MPI_Comm comm, int keyval, int required, const char* name) {
  int* value = NULL;
  int flag = -1;
  MT_CHECK_MPI(MPI_Comm_get_attr(comm, keyval, &value, &flag));
  MT_CHECK(flag == 0 || flag == 1, "%s: flag %d is not a boolean", name, flag);
  MT_CHECK(flag || !required, "%s is not cached", name);
  if (!flag) {
    return -12345;
  }
  MT_CHECK(value != NULL, "%s: the value pointer is NULL", name);
  return *value;
}

static void check(MPI_Comm comm, const char* comm_name) {
  const int size = mt_size();
  const int tag_ub = get_int(comm, MPI_TAG_UB, 1, "MPI_TAG_UB");
  MT_CHECK(tag_ub >= 32767, "%s: MPI_TAG_UB is %d", comm_name, tag_ub);
  const int host = get_int(comm, MPI_HOST, 1, "MPI_HOST");
  MT_CHECK(host == MPI_PROC_NULL || (host >= 0 && host < size),
           "%s: MPI_HOST is %d", comm_name, host);
  const int io = get_int(comm, MPI_IO, 1, "MPI_IO");
  MT_CHECK(
      io == MPI_PROC_NULL || io == MPI_ANY_SOURCE || (io >= 0 && io < size),
      "%s: MPI_IO is %d", comm_name, io);
  const int global = get_int(comm, MPI_WTIME_IS_GLOBAL, 1, "WTIME_IS_GLOBAL");
  MT_CHECK(global == 0 || global == 1, "%s: MPI_WTIME_IS_GLOBAL is %d",
           comm_name, global);
  const int universe = get_int(comm, MPI_UNIVERSE_SIZE, 0, "UNIVERSE_SIZE");
  MT_CHECK(universe == -12345 || universe >= size,
           "%s: MPI_UNIVERSE_SIZE %d is below the world size %d", comm_name,
           universe, size);
  const int appnum = get_int(comm, MPI_APPNUM, 0, "MPI_APPNUM");
  MT_CHECK(appnum == -12345 || appnum >= 0, "%s: MPI_APPNUM is %d", comm_name,
           appnum);
  const int last = get_int(comm, MPI_LASTUSEDCODE, 0, "MPI_LASTUSEDCODE");
  MT_CHECK(last == -12345 || last >= MPI_ERR_LASTCODE,
           "%s: MPI_LASTUSEDCODE %d is below MPI_ERR_LASTCODE", comm_name,
           last);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  check(MPI_COMM_WORLD, "MPI_COMM_WORLD");
  check(MPI_COMM_SELF, "MPI_COMM_SELF");
  // The value is the same wherever it is read.
  int* world = NULL;
  int* self = NULL;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &world, &flag);
  MPI_Comm_get_attr(MPI_COMM_SELF, MPI_TAG_UB, &self, &flag);
  MT_CHECK(*world == *self, "MPI_TAG_UB: %d on MPI_COMM_WORLD, %d on SELF",
           *world, *self);
  // The deprecated MPI-1 form reads the same attribute.
  int* old_style = NULL;
  MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &old_style, &flag);
  MT_CHECK(flag && *old_style == *world, "MPI_Attr_get(MPI_TAG_UB) differs");
  // The largest tag can be used.
  const int rank = mt_rank();
  int value = rank;
  int got = -1;
  MPI_Sendrecv(&value, 1, MPI_INT, rank, *world, &got, 1, MPI_INT, rank, *world,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MT_CHECK(got == rank, "message with tag MPI_TAG_UB: got %d", got);
  MPI_Finalize();
  return 0;
}
