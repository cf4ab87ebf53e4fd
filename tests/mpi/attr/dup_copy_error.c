// SPDX-License-Identifier: MIT
// MPI 4.0 §7.7.2: "If a copy function returns anything other than
// MPI_SUCCESS, then the call that caused it to be invoked (for example,
// MPI_COMM_DUP), is erroneous." Under MPI_ERRORS_RETURN, MPI_Comm_dup then
// fails with an error of the callback's class, and attributes copied
// before the failure are deleted again (their delete callbacks run once per
// copy), so nothing leaks. Needs MPI_Comm_dup.
#include "mpitest.h"

static int good_copies = 0;
static int good_deletes = 0;

static int good_copy(MPI_Comm oldcomm, int keyval, void* extra_state,
                     void* value_in, void* value_out, int* flag) {
  (void)oldcomm;
  (void)keyval;
  (void)extra_state;
  good_copies++;
  *(void**)value_out = value_in;
  *flag = 1;
  return MPI_SUCCESS;
}

static int good_delete(MPI_Comm comm, int keyval, void* value,
                       void* extra_state) {
  (void)keyval;
  (void)value;
  (void)extra_state;
  if (comm != MPI_COMM_WORLD) {
    good_deletes++;
  }
  return MPI_SUCCESS;
}

static int failing_copy(MPI_Comm oldcomm, int keyval, void* extra_state,
                        void* value_in, void* value_out, int* flag) {
  (void)oldcomm;
  (void)keyval;
  (void)extra_state;
  *(void**)value_out = value_in;
  *flag = 1;
  return MPI_ERR_OTHER;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int good = MPI_KEYVAL_INVALID;
  int bad = MPI_KEYVAL_INVALID;
  MT_CHECK_MPI(MPI_Comm_create_keyval(good_copy, good_delete, &good, NULL));
  MT_CHECK_MPI(MPI_Comm_create_keyval(failing_copy, MPI_COMM_NULL_DELETE_FN,
                                      &bad, NULL));
  static int value = 1;
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, good, &value));
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, bad, &value));
  MPI_Comm dup = MPI_COMM_NULL;
  const int rc = MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MT_CHECK(rc != MPI_SUCCESS, "MPI_Comm_dup succeeded despite the callback");
  int error_class = -1;
  MPI_Error_class(rc, &error_class);
  MT_CHECK(error_class == MPI_ERR_OTHER,
           "MPI_Comm_dup: error class %d, expected the callback's %d",
           error_class, MPI_ERR_OTHER);
  MT_CHECK(good_deletes == good_copies,
           "%d copies made before the failure, %d deleted", good_copies,
           good_deletes);
  // Without the failing attribute, MPI_Comm_dup works again.
  MT_CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, bad));
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  MT_CHECK_MPI(MPI_Comm_free(&dup));
  MT_CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, good));
  MT_CHECK_MPI(MPI_Comm_free_keyval(&good));
  MT_CHECK_MPI(MPI_Comm_free_keyval(&bad));
  MPI_Finalize();
  return 0;
}
