// SPDX-License-Identifier: MIT
// Attributes on datatypes (MPI 4.0 section 7.7.4): set, get, replace and
// delete on derived and predefined types; MPI_Type_dup runs the copy
// callbacks (user, MPI_TYPE_DUP_FN, MPI_TYPE_NULL_COPY_FN) and other
// constructors copy nothing; MPI_Type_free runs the delete callbacks; a
// freed keyval's attributes stay readable and deletable; a failing copy
// callback fails MPI_Type_dup and deletes the copies made; keyvals of
// communicators and datatypes are not interchangeable. With "strict", also
// that a freed keyval cannot set new attributes (shmpi-only).
#include <string.h>

#include "mpitest.h"

static int copies = 0;
static int deletes = 0;
static void* last_deleted = NULL;

// Copies value + 1 (values are small integers in pointers).
static int copy_plus_one(MPI_Datatype type, int keyval, void* extra, void* in,
                         void* out, int* flag) {
  (void)type;
  (void)keyval;
  MT_CHECK(extra == &copies, "extra_state %p", extra);
  ++copies;
  *(void**)out = (void*)((intptr_t)in + 1);
  *flag = 1;
  return MPI_SUCCESS;
}

static int record_delete(MPI_Datatype type, int keyval, void* value,
                         void* extra) {
  (void)type;
  (void)keyval;
  (void)extra;
  ++deletes;
  last_deleted = value;
  return MPI_SUCCESS;
}

static int failing_copy(MPI_Datatype type, int keyval, void* extra, void* in,
                        void* out, int* flag) {
  (void)type;
  (void)keyval;
  (void)extra;
  (void)in;
  (void)out;
  (void)flag;
  return MPI_ERR_OTHER;
}

static intptr_t get(MPI_Datatype type, int keyval, int* flag) {
  void* value = NULL;
  MT_CHECK_MPI(MPI_Type_get_attr(type, keyval, &value, flag));
  return (intptr_t)value;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int strict = argc > 1 && strcmp(argv[1], "strict") == 0;
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  int plus = MPI_KEYVAL_INVALID, same = MPI_KEYVAL_INVALID,
      none = MPI_KEYVAL_INVALID;
  MT_CHECK_MPI(
      MPI_Type_create_keyval(copy_plus_one, record_delete, &plus, &copies));
  MT_CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN,
                                      &same, NULL));
  MT_CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, record_delete,
                                      &none, NULL));

  MPI_Datatype vec;
  MT_CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &vec));
  MT_CHECK_MPI(MPI_Type_commit(&vec));
  int flag = -1;
  get(vec, plus, &flag);
  MT_CHECK(flag == 0, "a new type has an attribute");

  // Set, replace (the old value's delete callback runs), get.
  MT_CHECK_MPI(MPI_Type_set_attr(vec, plus, (void*)10));
  MT_CHECK_MPI(MPI_Type_set_attr(vec, plus, (void*)20));
  MT_CHECK(deletes == 1 && last_deleted == (void*)10,
           "replacing ran %d deletes, last %p", deletes, last_deleted);
  MT_CHECK(get(vec, plus, &flag) == 20 && flag == 1, "value after replace");
  MT_CHECK_MPI(MPI_Type_set_attr(vec, same, (void*)30));
  MT_CHECK_MPI(MPI_Type_set_attr(vec, none, (void*)40));

  // Dup: plus copies value + 1, same the value, none nothing.
  MPI_Datatype dup;
  MT_CHECK_MPI(MPI_Type_dup(vec, &dup));
  MT_CHECK(copies == 1, "dup ran %d copy callbacks of plus", copies);
  MT_CHECK(get(dup, plus, &flag) == 21 && flag, "plus on the dup");
  MT_CHECK(get(dup, same, &flag) == 30 && flag, "same on the dup");
  get(dup, none, &flag);
  MT_CHECK(!flag, "MPI_TYPE_NULL_COPY_FN's attribute was copied");

  // Other constructors copy nothing.
  MPI_Datatype contig;
  MT_CHECK_MPI(MPI_Type_contiguous(2, vec, &contig));
  get(contig, plus, &flag);
  MT_CHECK(!flag, "MPI_Type_contiguous copied an attribute");
  MT_CHECK_MPI(MPI_Type_free(&contig));
  MT_CHECK(copies == 1, "a constructor ran a copy callback");

  // Free runs the delete callbacks of the freed type's attributes only.
  // (A type nothing else was built from: MPICH 4.0.2 runs them when the
  // last internal reference goes, shmpi in MPI_Type_free.)
  MPI_Datatype victim;
  MT_CHECK_MPI(MPI_Type_dup(vec, &victim));
  MT_CHECK(get(victim, plus, &flag) == 21 && flag, "plus on the second dup");
  deletes = 0;
  MT_CHECK_MPI(MPI_Type_free(&victim));
  MT_CHECK(deletes == 1 && last_deleted == (void*)21,
           "freeing ran %d deletes, last %p; expected 1, 0x15", deletes,
           last_deleted);
  MT_CHECK(get(vec, plus, &flag) == 20 && flag, "the original lost plus");
  MT_CHECK(get(dup, plus, &flag) == 21 && flag, "the dup lost plus");

  // The dup still sends and receives.
  const int rank = mt_rank();
  int out[12], in[12];
  for (int i = 0; i < 12; ++i) {
    out[i] = rank * 100 + i;
    in[i] = -1;
  }
  MT_CHECK_MPI(MPI_Sendrecv(out, 1, dup, 0, 0, in, 1, dup, 0, 0, MPI_COMM_SELF,
                            MPI_STATUS_IGNORE));
  MT_CHECK(in[0] == out[0] && in[5] == out[5] && in[2] == -1,
           "the dup moved %d %d %d", in[0], in[5], in[2]);

  // Delete, then get: gone.
  deletes = 0;
  MT_CHECK_MPI(MPI_Type_delete_attr(dup, plus));
  MT_CHECK(deletes == 1 && last_deleted == (void*)21, "delete_attr");
  get(dup, plus, &flag);
  MT_CHECK(!flag, "attribute still there after delete");
  MT_CHECK_MPI(MPI_Type_delete_attr(dup, plus));  // absent: not an error

  // Predefined types cache attributes too.
  MT_CHECK_MPI(MPI_Type_set_attr(MPI_DOUBLE, plus, (void*)7));
  MT_CHECK(get(MPI_DOUBLE, plus, &flag) == 7 && flag, "on MPI_DOUBLE");
  get(MPI_INT, plus, &flag);
  MT_CHECK(!flag, "MPI_INT shares MPI_DOUBLE's attribute");
  MT_CHECK_MPI(MPI_Type_delete_attr(MPI_DOUBLE, plus));

  // A freed keyval: its attributes stay readable and deletable; setting a
  // new one is refused.
  MT_CHECK_MPI(MPI_Type_set_attr(dup, plus, (void*)50));
  int freed = plus;
  MT_CHECK_MPI(MPI_Type_free_keyval(&freed));
  MT_CHECK(freed == MPI_KEYVAL_INVALID, "free_keyval left %d", freed);
  MT_CHECK(get(dup, plus, &flag) == 50 && flag, "freed keyval's value");
  if (strict) {  // MPICH 4.0.2 takes it
    MT_EXPECT_CLASS(0, MPI_Type_set_attr(MPI_INT, plus, (void*)1),
                    MPI_ERR_KEYVAL, "MPI_Type_set_attr with a freed keyval");
  }
  deletes = 0;
  MT_CHECK_MPI(MPI_Type_delete_attr(dup, plus));
  MT_CHECK(deletes == 1, "the freed keyval's delete callback did not run");

  // A failing copy callback fails the dup; copies made are deleted.
  int failing = MPI_KEYVAL_INVALID;
  MT_CHECK_MPI(MPI_Type_create_keyval(failing_copy, MPI_TYPE_NULL_DELETE_FN,
                                      &failing, NULL));
  int keep = MPI_KEYVAL_INVALID;
  MT_CHECK_MPI(
      MPI_Type_create_keyval(copy_plus_one, record_delete, &keep, &copies));
  MT_CHECK_MPI(MPI_Type_set_attr(dup, keep, (void*)60));
  MT_CHECK_MPI(MPI_Type_set_attr(dup, failing, (void*)70));
  MPI_Datatype bad = MPI_INT;
  deletes = 0;
  const int rc = MPI_Type_dup(dup, &bad);
  int error_class = -1;
  MPI_Error_class(rc, &error_class);
  MT_CHECK(error_class == MPI_ERR_OTHER, "failing copy: class %d", error_class);
  MT_CHECK(bad == MPI_DATATYPE_NULL, "failed dup returned a type");
  MT_CHECK(deletes == 1 && last_deleted == (void*)61,
           "the copy made before the failure was not deleted (%d, %p)", deletes,
           last_deleted);

  // Keyvals of one kind of object are refused on the other.
  int comm_keyval = MPI_KEYVAL_INVALID;
  MT_CHECK_MPI(MPI_Comm_create_keyval(
      MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &comm_keyval, NULL));
  MT_EXPECT_CLASS(0, MPI_Type_set_attr(dup, comm_keyval, NULL), MPI_ERR_KEYVAL,
                  "MPI_Type_set_attr with a comm keyval");
  MT_EXPECT_CLASS(0, MPI_Comm_set_attr(MPI_COMM_WORLD, keep, NULL),
                  MPI_ERR_KEYVAL, "MPI_Comm_set_attr with a type keyval");
  MT_EXPECT_CLASS(0, MPI_Type_free_keyval(&comm_keyval), MPI_ERR_KEYVAL,
                  "MPI_Type_free_keyval of a comm keyval");
  MT_EXPECT_CLASS(0, MPI_Type_set_attr(MPI_DATATYPE_NULL, keep, NULL),
                  MPI_ERR_TYPE, "MPI_Type_set_attr on MPI_DATATYPE_NULL");
  MT_CHECK_MPI(MPI_Comm_free_keyval(&comm_keyval));

  deletes = 0;
  MT_CHECK_MPI(MPI_Type_free(&dup));
  MT_CHECK(deletes == 1 && last_deleted == (void*)60, "freeing the dup");
  deletes = 0;
  MT_CHECK_MPI(MPI_Type_free(&vec));
  MT_CHECK(deletes == 2, "freeing the original ran %d deletes (plus, none)",
           deletes);
  MT_CHECK_MPI(MPI_Type_free_keyval(&same));
  MT_CHECK_MPI(MPI_Type_free_keyval(&none));
  MT_CHECK_MPI(MPI_Type_free_keyval(&failing));
  MT_CHECK_MPI(MPI_Type_free_keyval(&keep));
  MPI_Finalize();
  return 0;
}
