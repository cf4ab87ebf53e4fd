// SPDX-License-Identifier: MIT
// MPI 4.0 §7.7.2: MPI_COMM_SET_ATTR "stores the stipulated attribute value
// attribute_val for subsequent retrieval by MPI_COMM_GET_ATTR. If the value
// is already present, then the outcome is as if MPI_COMM_DELETE_ATTR was
// first called to delete the previous value (and the callback function
// comm_delete_attr_fn was executed)". MPI_COMM_DELETE_ATTR "deletes an
// attribute from cache by key. This function invokes the attribute delete
// function comm_delete_attr_fn specified when the keyval was created."
// MPI_COMM_FREE_KEYVAL "sets the value of keyval to MPI_KEYVAL_INVALID".
// Attributes are cached per communicator: MPI_COMM_WORLD and MPI_COMM_SELF
// hold separate values under one keyval.
#include "mpitest.h"

struct Record {
  int deletes;
  MPI_Comm last_comm;
  int last_keyval;
  void* last_value;
};

static int record_delete(MPI_Comm comm, int keyval, void* value,
                         void* extra_state) {
  struct Record* record = (struct Record*)extra_state;
  record->deletes++;
  record->last_comm = comm;
  record->last_keyval = keyval;
  record->last_value = value;
  return MPI_SUCCESS;
}

static void* get(MPI_Comm comm, int keyval, int* flag) {
  void* value = NULL;
  *flag = -1;
  MT_CHECK_MPI(MPI_Comm_get_attr(comm, keyval, &value, flag));
  return value;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  struct Record record = {0, MPI_COMM_NULL, 0, NULL};
  int keyval = MPI_KEYVAL_INVALID;
  MT_CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record_delete,
                                      &keyval, &record));
  MT_CHECK(keyval != MPI_KEYVAL_INVALID, "the new keyval is invalid");
  int other = MPI_KEYVAL_INVALID;
  MT_CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN,
                                      MPI_COMM_NULL_DELETE_FN, &other, NULL));
  MT_CHECK(other != keyval, "two keyvals have the same value %d", keyval);

  int flag = 0;
  get(MPI_COMM_WORLD, keyval, &flag);
  MT_CHECK(flag == 0, "an attribute that was never set is present");

  static int a = 1;
  static int b = 2;
  static int c = 3;
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &a));
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, keyval, &b));
  void* value = get(MPI_COMM_WORLD, keyval, &flag);
  MT_CHECK(flag == 1 && value == &a, "MPI_COMM_WORLD: flag %d, wrong value",
           flag);
  value = get(MPI_COMM_SELF, keyval, &flag);
  MT_CHECK(flag == 1 && value == &b, "MPI_COMM_SELF: flag %d, wrong value",
           flag);
  get(MPI_COMM_WORLD, other, &flag);
  MT_CHECK(flag == 0, "another keyval sees the attribute");
  MT_CHECK(record.deletes == 0, "delete callback ran %d times too early",
           record.deletes);

  // Overwriting runs the delete callback on the old value.
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &c));
  MT_CHECK(record.deletes == 1 && record.last_value == &a &&
               record.last_comm == MPI_COMM_WORLD &&
               record.last_keyval == keyval,
           "overwrite: %d delete calls, or wrong arguments", record.deletes);
  value = get(MPI_COMM_WORLD, keyval, &flag);
  MT_CHECK(flag == 1 && value == &c, "the new value is not stored");

  // Deleting runs it too, and the attribute is gone.
  MT_CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_SELF, keyval));
  MT_CHECK(record.deletes == 2 && record.last_value == &b &&
               record.last_comm == MPI_COMM_SELF,
           "delete: %d delete calls, or wrong arguments", record.deletes);
  get(MPI_COMM_SELF, keyval, &flag);
  MT_CHECK(flag == 0, "the deleted attribute is still there");
  value = get(MPI_COMM_WORLD, keyval, &flag);
  MT_CHECK(flag == 1 && value == &c, "MPI_COMM_WORLD lost its attribute");

  // A value that is not a pointer (an integer cast to void*) is stored as is.
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, other, (void*)(intptr_t)42));
  value = get(MPI_COMM_SELF, other, &flag);
  MT_CHECK(flag == 1 && (intptr_t)value == 42, "integer value not kept");
  MT_CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_SELF, other));

  MT_CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval));
  MT_CHECK(record.deletes == 3 && record.last_value == &c,
           "second delete: %d delete calls", record.deletes);
  MT_CHECK_MPI(MPI_Comm_free_keyval(&keyval));
  MT_CHECK(keyval == MPI_KEYVAL_INVALID,
           "MPI_Comm_free_keyval left %d, not MPI_KEYVAL_INVALID", keyval);
  MT_CHECK_MPI(MPI_Comm_free_keyval(&other));
  MT_CHECK(record.deletes == 3, "freeing the keyval ran a delete callback");
  MPI_Finalize();
  return 0;
}
