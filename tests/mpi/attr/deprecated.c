// SPDX-License-Identifier: MIT
// MPI 4.0 §7.7.2 and §19.1 (deprecated interfaces): MPI_KEYVAL_CREATE,
// MPI_KEYVAL_FREE, MPI_ATTR_PUT, MPI_ATTR_GET and MPI_ATTR_DELETE are the
// MPI-1 forms of MPI_COMM_CREATE_KEYVAL, MPI_COMM_FREE_KEYVAL,
// MPI_COMM_SET_ATTR, MPI_COMM_GET_ATTR and MPI_COMM_DELETE_ATTR; in C they
// behave the same, and both families see the same attributes.
#include "mpitest.h"

static int deletes = 0;
static void* deleted_value = NULL;

static int count_delete(MPI_Comm comm, int keyval, void* value,
                        void* extra_state) {
  (void)comm;
  (void)keyval;
  MT_CHECK(extra_state == &deletes, "wrong extra_state in delete callback");
  deletes++;
  deleted_value = value;
  return MPI_SUCCESS;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int keyval = MPI_KEYVAL_INVALID;
  MT_CHECK_MPI(
      MPI_Keyval_create(MPI_NULL_COPY_FN, count_delete, &keyval, &deletes));
  static int a = 1;
  static int b = 2;
  MT_CHECK_MPI(MPI_Attr_put(MPI_COMM_WORLD, keyval, &a));
  void* value = NULL;
  int flag = 0;
  MT_CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, keyval, &value, &flag));
  MT_CHECK(flag && value == &a, "MPI_Attr_get after MPI_Attr_put");
  // The new interface sees what the old one stored, and the reverse.
  MT_CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &value, &flag));
  MT_CHECK(flag && value == &a, "MPI_Comm_get_attr after MPI_Attr_put");
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &b));
  MT_CHECK(deletes == 1 && deleted_value == &a, "overwrite: %d delete calls",
           deletes);
  MT_CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, keyval, &value, &flag));
  MT_CHECK(flag && value == &b, "MPI_Attr_get after MPI_Comm_set_attr");
  MT_CHECK_MPI(MPI_Attr_delete(MPI_COMM_WORLD, keyval));
  MT_CHECK(deletes == 2 && deleted_value == &b, "MPI_Attr_delete: %d calls",
           deletes);
  MT_CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, keyval, &value, &flag));
  MT_CHECK(!flag, "attribute still present after MPI_Attr_delete");
  MT_CHECK_MPI(MPI_Keyval_free(&keyval));
  MT_CHECK(keyval == MPI_KEYVAL_INVALID, "MPI_Keyval_free left %d", keyval);
  MPI_Finalize();
  return 0;
}
