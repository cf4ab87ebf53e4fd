// SPDX-License-Identifier: MIT
// MPI 4.0 §11.3: a program that uses only the Sessions Model. It opens a
// session, lists the process sets, reads the session's and mpi://WORLD's
// info, makes a communicator from mpi://WORLD's group and sends and reduces
// on it, then frees everything; MPI_Initialized says 0 throughout. With
// "keys" the session's info must also hold a key given to
// MPI_Session_init: MPI 4.0 §11.3.1 lets an implementation drop hints it
// does not know (MPICH does), shmpi keeps them.
#include "common.h"

int main(int argc, char** argv) {
  const int check_keys = argc > 1 && strcmp(argv[1], "keys") == 0;
  st_expect_world_model(0, 0);
  MPI_Info info;
  MT_CHECK_MPI(MPI_Info_create(&info));
  MT_CHECK_MPI(MPI_Info_set(info, "shmpi_test_key", "some value"));
  MPI_Session session = MPI_SESSION_NULL;
  MT_CHECK_MPI(MPI_Session_init(info, MPI_ERRORS_RETURN, &session));
  MT_CHECK_MPI(MPI_Info_free(&info));
  st_expect_world_model(0, 0);

  int npsets = 0;
  MT_CHECK_MPI(MPI_Session_get_num_psets(session, MPI_INFO_NULL, &npsets));
  MT_CHECK(npsets >= 2, "%d process sets, expected at least 2", npsets);
  int seen_world = 0;
  int seen_self = 0;
  for (int n = 0; n < npsets; ++n) {
    int length = 0;
    MT_CHECK_MPI(
        MPI_Session_get_nth_pset(session, MPI_INFO_NULL, n, &length, NULL));
    MT_CHECK(length > 1 && length <= MPI_MAX_PSET_NAME_LEN,
             "pset %d: length %d", n, length);
    char name[MPI_MAX_PSET_NAME_LEN];
    MT_CHECK_MPI(
        MPI_Session_get_nth_pset(session, MPI_INFO_NULL, n, &length, name));
    MT_CHECK((int)strlen(name) == length - 1, "pset %d: \"%s\" is not %d long",
             n, name, length - 1);
    seen_world += strcmp(name, "mpi://WORLD") == 0;
    seen_self += strcmp(name, "mpi://SELF") == 0;
  }
  MT_CHECK(seen_world == 1 && seen_self == 1,
           "mpi://WORLD listed %d times, mpi://SELF %d times", seen_world,
           seen_self);

  MPI_Info used;
  MT_CHECK_MPI(MPI_Session_get_info(session, &used));
  char value[MPI_MAX_INFO_VAL + 1];
  int length = MPI_MAX_INFO_VAL;
  int flag = 0;
  MT_CHECK_MPI(
      MPI_Info_get_string(used, "thread_level", &length, value, &flag));
  MT_CHECK(flag && strncmp(value, "MPI_THREAD_", 11) == 0,
           "thread_level is \"%s\" (flag %d)", flag ? value : "", flag);
  length = MPI_MAX_INFO_VAL;
  MT_CHECK_MPI(
      MPI_Info_get_string(used, "shmpi_test_key", &length, value, &flag));
  MT_CHECK(!check_keys || (flag && strcmp(value, "some value") == 0),
           "the key given at init is \"%s\" (flag %d)", flag ? value : "",
           flag);
  MT_CHECK_MPI(MPI_Info_free(&used));
  MT_CHECK(MPI_Session_f2c(MPI_Session_c2f(session)) == session,
           "MPI_Session_c2f/f2c do not round-trip");

  MPI_Info pset_info;
  MT_CHECK_MPI(MPI_Session_get_pset_info(session, "mpi://WORLD", &pset_info));
  length = MPI_MAX_INFO_VAL;
  MT_CHECK_MPI(
      MPI_Info_get_string(pset_info, "mpi_size", &length, value, &flag));
  MT_CHECK(flag, "mpi://WORLD has no mpi_size");
  const int world_size = atoi(value);
  MT_CHECK_MPI(MPI_Info_free(&pset_info));

  MPI_Group group;
  MT_CHECK_MPI(MPI_Group_from_session_pset(session, "mpi://WORLD", &group));
  int group_size = 0;
  int group_rank = -1;
  MT_CHECK_MPI(MPI_Group_size(group, &group_size));
  MT_CHECK_MPI(MPI_Group_rank(group, &group_rank));
  MT_CHECK(group_size == world_size, "group size %d, mpi_size %d", group_size,
           world_size);
  MT_CHECK(group_rank >= 0 && group_rank < group_size, "group rank %d",
           group_rank);
  MPI_Comm comm;
  MT_CHECK_MPI(MPI_Comm_create_from_group(
      group, "org.shmpi.test.basic", MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm));
  int rank = -1;
  int size = 0;
  MT_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  MT_CHECK_MPI(MPI_Comm_size(comm, &size));
  MT_CHECK(rank == group_rank && size == group_size,
           "communicator rank %d of %d, group rank %d of %d", rank, size,
           group_rank, group_size);
  MPI_Errhandler handler;
  MT_CHECK_MPI(MPI_Comm_get_errhandler(comm, &handler));
  MT_CHECK(handler == MPI_ERRORS_RETURN,
           "the communicator has not the error handler it was given");
  MT_CHECK_MPI(MPI_Errhandler_free(&handler));
  st_expect_world_model(0, 0);
  st_exercise(comm, 1000);
  int root_value = rank == 0 ? 42 : 0;
  MT_CHECK_MPI(MPI_Bcast(&root_value, 1, MPI_INT, 0, comm));
  MT_CHECK(root_value == 42, "bcast gave %d", root_value);
  MT_CHECK_MPI(MPI_Comm_free(&comm));
  MT_CHECK_MPI(MPI_Group_free(&group));
  MT_CHECK_MPI(MPI_Session_finalize(&session));
  MT_CHECK(session == MPI_SESSION_NULL, "session not set to MPI_SESSION_NULL");
  st_expect_world_model(0, 0);
  return 0;
}
