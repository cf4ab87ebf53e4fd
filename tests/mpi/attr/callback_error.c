// SPDX-License-Identifier: MIT
// MPI 4.0 §7.7.2: "If an attribute delete function returns other than
// MPI_SUCCESS, then the call that caused it to be invoked (for example,
// MPI_COMM_FREE), is erroneous" -- under MPI_ERRORS_RETURN the call fails
// and returns an error of the callback's class, and the attribute stays: a
// failing delete callback fails MPI_Comm_set_attr (overwrite) and
// MPI_Comm_delete_attr, and the old value is still there. Once the callback
// succeeds, the attribute can be deleted.
#include "mpitest.h"

static int fail_deletes = 1;
static int delete_calls = 0;

static int failing_delete(MPI_Comm comm, int keyval, void* value,
                          void* extra_state) {
  (void)comm;
  (void)keyval;
  (void)value;
  (void)extra_state;
  delete_calls++;
  return fail_deletes ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static void expect_other(int rc, const char* what) {
  MT_CHECK(rc != MPI_SUCCESS, "%s succeeded despite the failing callback",
           what);
  int error_class = -1;
  MPI_Error_class(rc, &error_class);
  MT_CHECK(error_class == MPI_ERR_OTHER,
           "%s: error class %d, expected the callback's MPI_ERR_OTHER (%d)",
           what, error_class, MPI_ERR_OTHER);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  int keyval = MPI_KEYVAL_INVALID;
  MT_CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, failing_delete,
                                      &keyval, NULL));
  static int a = 1;
  static int b = 2;
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &a));
  expect_other(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &b),
               "MPI_Comm_set_attr over a value");
  expect_other(MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval),
               "MPI_Comm_delete_attr");
  MT_CHECK(delete_calls == 2, "the delete callback ran %d times, expected 2",
           delete_calls);
  void* value = NULL;
  int flag = 0;
  MT_CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &value, &flag));
  MT_CHECK(flag && value == &a, "the attribute changed after failed calls");
  fail_deletes = 0;
  MT_CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval));
  MT_CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &value, &flag));
  MT_CHECK(!flag, "the attribute survived a successful delete");
  MT_CHECK_MPI(MPI_Comm_free_keyval(&keyval));
  MPI_Finalize();
  return 0;
}
