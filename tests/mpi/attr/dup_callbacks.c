// SPDX-License-Identifier: MIT
// MPI 4.0 §7.7.2: "When a communicator is duplicated using MPI_COMM_DUP or
// MPI_COMM_IDUP, the copy callback functions are invoked for each key value
// ... The copy callback function ... returns flag = 0 ... then the attribute
// is deleted in the duplicated communicator. Otherwise ... the new
// attribute value is set to the value returned in attribute_val_out."
// MPI_COMM_NULL_COPY_FN "returns flag = 0"; MPI_COMM_DUP_FN "sets flag = 1
// and returns the value of attribute_val_in in attribute_val_out". "The
// delete callback function is invoked when a communicator is deleted by
// MPI_COMM_FREE or when a call is made explicitly to MPI_COMM_DELETE_ATTR."
// Needs MPI_Comm_dup and MPI_Comm_free.
#include "mpitest.h"

// One user keyval's state (its extra_state): what its callbacks saw.
struct Key {
  const char* name;
  int copy_flag;  // what the copy callback answers
  int copies;
  int deletes;
  void* deleted_value;
  MPI_Comm deleted_on;
};

static int values[8];  // attribute values point into this

// Copies the value as the next element of `values` (a different value on
// the duplicate, so a delete callback can tell them apart).
static int user_copy(MPI_Comm oldcomm, int keyval, void* extra_state,
                     void* value_in, void* value_out, int* flag) {
  (void)oldcomm;
  (void)keyval;
  struct Key* key = (struct Key*)extra_state;
  key->copies++;
  *(int**)value_out = (int*)value_in + 1;
  *flag = key->copy_flag;
  return MPI_SUCCESS;
}

static int user_delete(MPI_Comm comm, int keyval, void* value,
                       void* extra_state) {
  (void)keyval;
  struct Key* key = (struct Key*)extra_state;
  key->deletes++;
  key->deleted_value = value;
  key->deleted_on = comm;
  return MPI_SUCCESS;
}

static int create(MPI_Comm_copy_attr_function* copy, struct Key* key) {
  int keyval = MPI_KEYVAL_INVALID;
  MT_CHECK_MPI(MPI_Comm_create_keyval(copy, user_delete, &keyval, key));
  return keyval;
}

static void* get(MPI_Comm comm, int keyval, int* flag) {
  void* value = NULL;
  MT_CHECK_MPI(MPI_Comm_get_attr(comm, keyval, &value, flag));
  return value;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  struct Key copied = {"copied", 1, 0, 0, NULL, MPI_COMM_NULL};
  struct Key refused = {"refused", 0, 0, 0, NULL, MPI_COMM_NULL};
  struct Key shared = {"dup_fn", 1, 0, 0, NULL, MPI_COMM_NULL};
  struct Key dropped = {"null_copy_fn", 1, 0, 0, NULL, MPI_COMM_NULL};
  struct Key removed = {"removed", 1, 0, 0, NULL, MPI_COMM_NULL};
  const int k_copied = create(user_copy, &copied);
  const int k_refused = create(user_copy, &refused);
  const int k_shared = create(MPI_COMM_DUP_FN, &shared);
  const int k_dropped = create(MPI_COMM_NULL_COPY_FN, &dropped);
  const int k_removed = create(user_copy, &removed);
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k_copied, &values[0]));
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k_refused, &values[2]));
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k_shared, &values[4]));
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k_dropped, &values[5]));
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k_removed, &values[6]));

  MPI_Comm dup = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  MT_CHECK(copied.copies == 1 && refused.copies == 1 && removed.copies == 1,
           "copy callbacks ran %d/%d/%d times, expected once each",
           copied.copies, refused.copies, removed.copies);
  MT_CHECK(copied.deletes + refused.deletes + shared.deletes + dropped.deletes +
                   removed.deletes ==
               0,
           "MPI_Comm_dup ran delete callbacks");
  int flag = 0;
  void* value = get(dup, k_copied, &flag);
  MT_CHECK(flag && value == &values[1], "user copy: flag %d, wrong value",
           flag);
  get(dup, k_refused, &flag);
  MT_CHECK(!flag, "a copy callback answered flag = 0, yet the dup has it");
  value = get(dup, k_shared, &flag);
  MT_CHECK(flag && value == &values[4], "MPI_COMM_DUP_FN: flag %d", flag);
  get(dup, k_dropped, &flag);
  MT_CHECK(!flag, "MPI_COMM_NULL_COPY_FN copied the attribute");
  // The old communicator keeps its own values.
  value = get(MPI_COMM_WORLD, k_copied, &flag);
  MT_CHECK(flag && value == &values[0], "MPI_COMM_WORLD's value changed");

  // The duplicate is a working communicator.
  int rank = -1;
  int size = 0;
  MPI_Comm_rank(dup, &rank);
  MPI_Comm_size(dup, &size);
  MT_CHECK(rank == mt_rank() && size == mt_size(), "dup: rank %d size %d", rank,
           size);
  MPI_Barrier(dup);

  // Explicit delete on the dup: its callback sees the dup's value.
  MT_CHECK_MPI(MPI_Comm_delete_attr(dup, k_removed));
  MT_CHECK(removed.deletes == 1 && removed.deleted_value == &values[7] &&
               removed.deleted_on == dup,
           "MPI_Comm_delete_attr on the dup: %d calls or wrong value",
           removed.deletes);
  // Overwrite on the dup deletes the copy first.
  MT_CHECK_MPI(MPI_Comm_set_attr(dup, k_shared, &values[3]));
  MT_CHECK(shared.deletes == 1 && shared.deleted_value == &values[4] &&
               shared.deleted_on == dup,
           "overwrite on the dup: %d calls or wrong value", shared.deletes);

  // MPI_Comm_free runs the delete callback of each remaining attribute once,
  // with the dup's values.
  const MPI_Comm freed = dup;
  MT_CHECK_MPI(MPI_Comm_free(&dup));
  MT_CHECK(dup == MPI_COMM_NULL, "MPI_Comm_free did not set MPI_COMM_NULL");
  MT_CHECK(copied.deletes == 1 && copied.deleted_value == &values[1] &&
               copied.deleted_on == freed,
           "free: copied attribute: %d calls or wrong value", copied.deletes);
  MT_CHECK(shared.deletes == 2 && shared.deleted_value == &values[3],
           "free: shared attribute: %d calls or wrong value", shared.deletes);
  MT_CHECK(refused.deletes == 0 && dropped.deletes == 0,
           "free ran the delete callback of an attribute that was not copied");
  MT_CHECK(removed.deletes == 1, "free deleted an attribute deleted before");

  // A keyval freed while in use still copies and deletes.
  struct Key orphan = {"orphan", 1, 0, 0, NULL, MPI_COMM_NULL};
  int k_freed = create(user_copy, &orphan);
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k_freed, &values[6]));
  MT_CHECK_MPI(MPI_Comm_free_keyval(&k_freed));
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  MT_CHECK(orphan.copies == 1, "freed keyval: copy callback ran %d times",
           orphan.copies);
  MT_CHECK_MPI(MPI_Comm_free(&dup));
  MT_CHECK(orphan.deletes == 1 && orphan.deleted_value == &values[7],
           "freed keyval: delete callback not run on the dup");

  int keyvals[] = {k_copied, k_refused, k_shared, k_dropped, k_removed};
  for (int i = 0; i < 5; ++i) {
    MT_CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, keyvals[i]));
    MT_CHECK_MPI(MPI_Comm_free_keyval(&keyvals[i]));
  }
  MPI_Finalize();
  return 0;
}
