// SPDX-License-Identifier: MIT
// MPI 4.0 §7.4.2: MPI_COMM_DUP_WITH_INFO "behaves exactly as MPI_COMM_DUP
// except that the hints provided by the argument info are associated with
// the output communicator newcomm instead" of comm's hints; cached
// attributes are copied as by MPI_COMM_DUP. The new communicator's
// MPI_COMM_GET_INFO reports the hints it keeps from info (true for a
// hint set to "true", if reported), MPI_INFO_NULL is allowed, and the
// communicator works. Needs MPI_Comm_dup_with_info and MPI_Comm_free.
#include "mpitest.h"

static int copies = 0;

static int count_copy(MPI_Comm oldcomm, int keyval, void* extra_state,
                      void* value_in, void* value_out, int* flag) {
  (void)oldcomm;
  (void)keyval;
  (void)extra_state;
  copies++;
  *(void**)value_out = value_in;
  *flag = 1;
  return MPI_SUCCESS;
}

static const char* hint(MPI_Comm comm, const char* key) {
  static char value[MPI_MAX_INFO_VAL + 1];
  MPI_Info used = MPI_INFO_NULL;
  MT_CHECK_MPI(MPI_Comm_get_info(comm, &used));
  int flag = 0;
  MT_CHECK_MPI(MPI_Info_get(used, key, MPI_MAX_INFO_VAL, value, &flag));
  MT_CHECK_MPI(MPI_Info_free(&used));
  return flag ? value : NULL;
}

static void check_works(MPI_Comm comm) {
  int rank = -1;
  int size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MT_CHECK(rank == mt_rank() && size == mt_size(), "rank %d size %d", rank,
           size);
  int token = rank;
  int got = -1;
  MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT,
               (rank + size - 1) % size, 0, comm, MPI_STATUS_IGNORE);
  MT_CHECK(got == (rank + size - 1) % size, "ring on the new comm: got %d",
           got);
  int sum = 0;
  MPI_Allreduce(&token, &sum, 1, MPI_INT, MPI_SUM, comm);
  MT_CHECK(sum == size * (size - 1) / 2, "allreduce on the new comm: %d", sum);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int keyval = MPI_KEYVAL_INVALID;
  MT_CHECK_MPI(MPI_Comm_create_keyval(count_copy, MPI_COMM_NULL_DELETE_FN,
                                      &keyval, NULL));
  static int value = 5;
  MT_CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &value));

  MPI_Info info = MPI_INFO_NULL;
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
  MPI_Info_set(info, "shmpi_test_unknown_hint", "x");
  MPI_Comm comm = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm));
  MT_CHECK_MPI(MPI_Info_free(&info));
  MT_CHECK(comm != MPI_COMM_NULL && comm != MPI_COMM_WORLD, "new comm handle");
  MT_CHECK(copies == 1, "copy callback ran %d times", copies);
  void* got = NULL;
  int flag = 0;
  MT_CHECK_MPI(MPI_Comm_get_attr(comm, keyval, &got, &flag));
  MT_CHECK(flag && got == &value, "attribute not copied by dup_with_info");
  const char* no_any_tag = hint(comm, "mpi_assert_no_any_tag");
  MT_CHECK(no_any_tag == NULL || strcmp(no_any_tag, "true") == 0,
           "mpi_assert_no_any_tag is \"%s\" on the new comm", no_any_tag);
  check_works(comm);
  MT_CHECK_MPI(MPI_Comm_free(&comm));

  MT_CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &comm));
  const char* no_any_source = hint(comm, "mpi_assert_no_any_source");
  MT_CHECK(no_any_source == NULL || strcmp(no_any_source, "false") == 0,
           "MPI_INFO_NULL: mpi_assert_no_any_source is \"%s\"", no_any_source);
  check_works(comm);
  MT_CHECK_MPI(MPI_Comm_free(&comm));

  MT_CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval));
  MT_CHECK_MPI(MPI_Comm_free_keyval(&keyval));
  MPI_Finalize();
  return 0;
}
