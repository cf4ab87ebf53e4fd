// SPDX-License-Identifier: MIT
// MPI 4.0 §7.7.2, MPI_COMM_FREE_KEYVAL: "It is not erroneous to free an
// attribute key that is in use, because the actual free does not transpire
// until after all references (in other communicators on the process) to
// the key have been freed." The attribute keeps its delete callback: here
// it runs when MPI_Finalize frees MPI_COMM_SELF, and the other keyvals
// created meanwhile are distinct from the freed one while it is in use.
#include "mpitest.h"

static int deletes = 0;

static int count_delete(MPI_Comm comm, int keyval, void* value,
                        void* extra_state) {
  (void)keyval;
  MT_CHECK(comm == MPI_COMM_SELF, "delete callback on another communicator");
  MT_CHECK(value == extra_state, "delete callback got the wrong value");
  deletes++;
  return MPI_SUCCESS;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  static int value = 7;
  int keyval = MPI_KEYVAL_INVALID;
  MT_CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete,
                                      &keyval, &value));
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, keyval, &value));
  const int freed = keyval;
  MT_CHECK_MPI(MPI_Comm_free_keyval(&keyval));
  MT_CHECK(keyval == MPI_KEYVAL_INVALID, "freed keyval is %d", keyval);
  MT_CHECK(deletes == 0, "freeing the keyval deleted the attribute");
  // A new keyval must not alias the one still in use.
  int fresh[4];
  for (int i = 0; i < 4; ++i) {
    MT_CHECK_MPI(MPI_Comm_create_keyval(
        MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &fresh[i], NULL));
    MT_CHECK(fresh[i] != freed, "a new keyval reuses one still in use");
  }
  for (int i = 0; i < 4; ++i) {
    MT_CHECK_MPI(MPI_Comm_free_keyval(&fresh[i]));
  }
  MPI_Finalize();
  if (deletes != 1) {
    fprintf(stderr, "FAIL: the delete callback ran %d times, expected 1\n",
            deletes);
    return 1;
  }
  return 0;
}
