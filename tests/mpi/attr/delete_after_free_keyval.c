// SPDX-License-Identifier: MIT
// MPI 4.0 §7.7.2, MPI_COMM_FREE_KEYVAL: freeing a keyval in use is not
// erroneous; the references "need to be explicitly freed by the program,
// either via calls to MPI_COMM_DELETE_ATTR that free one attribute
// instance, or by calls to MPI_COMM_FREE". So after MPI_Comm_free_keyval
// the program may still delete (and read) the attributes under that key,
// here on MPI_COMM_WORLD, MPI_COMM_SELF and a duplicate; each delete
// callback runs exactly once, and none again at MPI_Finalize.
#include "mpitest.h"

static int deletes = 0;

static int count_delete(MPI_Comm comm, int keyval, void* value,
                        void* extra_state) {
  (void)comm;
  (void)keyval;
  MT_CHECK(value == extra_state, "delete callback got the wrong value");
  deletes++;
  return MPI_SUCCESS;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  static int value = 7;
  int keyval = MPI_KEYVAL_INVALID;
  MT_CHECK_MPI(
      MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, &keyval, &value));
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &value));
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, keyval, &value));
  MPI_Comm dup = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));  // copies the attribute
  const int freed = keyval;
  MT_CHECK_MPI(MPI_Comm_free_keyval(&keyval));
  MT_CHECK(keyval == MPI_KEYVAL_INVALID, "freed keyval is %d", keyval);

  // The attribute is still there and readable.
  void* got = NULL;
  int flag = 0;
  MT_CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, freed, &got, &flag));
  MT_CHECK(flag == 1 && got == &value,
           "attribute of a freed keyval lost (flag %d)", flag);

  // Deleting it one instance at a time, as the standard prescribes.
  MT_CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, freed));
  MT_CHECK(deletes == 1, "%d delete callbacks after one delete", deletes);
  MT_CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, freed, &got, &flag));
  MT_CHECK(flag == 0, "deleted attribute still present");
  MT_CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_SELF, freed));
  MT_CHECK(deletes == 2, "%d delete callbacks after two deletes", deletes);
  MT_CHECK_MPI(MPI_Comm_delete_attr(dup, freed));  // the last reference
  MT_CHECK(deletes == 3, "%d delete callbacks after three deletes", deletes);
  MT_CHECK_MPI(MPI_Comm_free(&dup));
  MT_CHECK(deletes == 3, "MPI_Comm_free ran a deleted attribute's callback");

  MPI_Finalize();
  if (deletes != 3) {
    fprintf(stderr, "FAIL: %d delete callbacks in all, expected 3\n", deletes);
    return 1;
  }
  return 0;
}
