// SPDX-License-Identifier: MIT
// MPI 4.0 §7.4.4: MPI_COMM_SET_INFO "updates the hints of the communicator";
// MPI_COMM_GET_INFO "returns a new info object containing the hints of the
// communicator ... The user is responsible for freeing info_used via
// MPI_INFO_FREE." An implementation may ignore hints, so only what it
// reports is checked: the assertion hints of §7.4.4 (mpi_assert_no_any_tag
// and friends) that it reports carry "true" or "false", and "true" after
// the program set "true". The returned object belongs to the program:
// changing or freeing it does not change the communicator.
#include "mpitest.h"

static const char* const kAssertions[] = {
    "mpi_assert_no_any_tag", "mpi_assert_no_any_source",
    "mpi_assert_exact_length", "mpi_assert_allow_overtaking"};

// The value of `key` in the communicator's info, or NULL if not reported.
static const char* hint(MPI_Comm comm, const char* key) {
  static char value[MPI_MAX_INFO_VAL + 1];
  MPI_Info used = MPI_INFO_NULL;
  MT_CHECK_MPI(MPI_Comm_get_info(comm, &used));
  MT_CHECK(used != MPI_INFO_NULL, "MPI_Comm_get_info gave MPI_INFO_NULL");
  int flag = 0;
  MT_CHECK_MPI(MPI_Info_get(used, key, MPI_MAX_INFO_VAL, value, &flag));
  MT_CHECK_MPI(MPI_Info_free(&used));
  return flag ? value : NULL;
}

static void check_booleans(MPI_Comm comm, const char* name) {
  for (int i = 0; i < 4; ++i) {
    const char* value = hint(comm, kAssertions[i]);
    MT_CHECK(value == NULL || strcmp(value, "true") == 0 ||
                 strcmp(value, "false") == 0,
             "%s: %s is \"%s\"", name, kAssertions[i], value);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  check_booleans(MPI_COMM_WORLD, "MPI_COMM_WORLD");
  check_booleans(MPI_COMM_SELF, "MPI_COMM_SELF");

  MPI_Info info = MPI_INFO_NULL;
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
  MPI_Info_set(info, "shmpi_test_unknown_hint", "whatever");
  MT_CHECK_MPI(MPI_Comm_set_info(MPI_COMM_SELF, info));
  MT_CHECK_MPI(MPI_Info_free(&info));  // the communicator keeps its hints
  const char* value = hint(MPI_COMM_SELF, "mpi_assert_no_any_tag");
  MT_CHECK(value == NULL || strcmp(value, "true") == 0,
           "MPI_COMM_SELF: mpi_assert_no_any_tag is \"%s\" after \"true\"",
           value);
  value = hint(MPI_COMM_SELF, "shmpi_test_unknown_hint");
  MT_CHECK(value == NULL || strcmp(value, "whatever") == 0,
           "an unknown hint came back as \"%s\"", value);

  // A later MPI_Comm_set_info updates; keys it does not name keep their
  // value.
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_assert_allow_overtaking", "true");
  MT_CHECK_MPI(MPI_Comm_set_info(MPI_COMM_SELF, info));
  MPI_Info_free(&info);
  value = hint(MPI_COMM_SELF, "mpi_assert_allow_overtaking");
  MT_CHECK(value == NULL || strcmp(value, "true") == 0,
           "mpi_assert_allow_overtaking is \"%s\" after \"true\"", value);
  value = hint(MPI_COMM_SELF, "mpi_assert_no_any_tag");
  MT_CHECK(value == NULL || strcmp(value, "true") == 0,
           "mpi_assert_no_any_tag is \"%s\" after another set_info", value);

  // The returned info is the program's own object.
  MPI_Info used = MPI_INFO_NULL;
  MT_CHECK_MPI(MPI_Comm_get_info(MPI_COMM_SELF, &used));
  MT_CHECK_MPI(MPI_Info_set(used, "mpi_assert_no_any_tag", "false"));
  MT_CHECK_MPI(MPI_Info_free(&used));
  value = hint(MPI_COMM_SELF, "mpi_assert_no_any_tag");
  MT_CHECK(value == NULL || strcmp(value, "true") == 0,
           "changing info_used changed the communicator's hint");

  // MPI_Comm_set_info is collective on MPI_COMM_WORLD; the communicator
  // still works (the hints are only promises the program keeps).
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_assert_no_any_source", "true");
  MT_CHECK_MPI(MPI_Comm_set_info(MPI_COMM_WORLD, info));
  MPI_Info_free(&info);
  value = hint(MPI_COMM_WORLD, "mpi_assert_no_any_source");
  MT_CHECK(value == NULL || strcmp(value, "true") == 0,
           "MPI_COMM_WORLD: mpi_assert_no_any_source is \"%s\"", value);
  const int rank = mt_rank();
  const int size = mt_size();
  int token = rank;
  int got = -1;
  MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 3, &got, 1, MPI_INT,
               (rank + size - 1) % size, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MT_CHECK(got == (rank + size - 1) % size, "ring after set_info: got %d", got);
  MPI_Finalize();
  return 0;
}
