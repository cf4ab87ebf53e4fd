// SPDX-License-Identifier: MIT
// A session's error handler (MPI 4.0 §9.3.4): errors in calls on a session
// go to it. With MPI_ERRORS_RETURN a bad call returns its class; a user
// handler made by MPI_Session_create_errhandler is called with the session
// and the code, by an error and by MPI_Session_call_errhandler.
#include "common.h"

static int calls;
static int last_class;
static MPI_Session last_session;

static void handler(MPI_Session* session, int* code, ...) {
  ++calls;
  MPI_Error_class(*code, &last_class);
  last_session = *session;
}

static int class_of(int code) {
  int error_class = code;
  MPI_Error_class(code, &error_class);
  return error_class;
}

int main(void) {
  MPI_Session session;
  MT_CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
  MPI_Group group = MPI_GROUP_NULL;
  int rc = MPI_Group_from_session_pset(session, "mpi://NO_SUCH_SET", &group);
  MT_CHECK(class_of(rc) == MPI_ERR_ARG, "unknown process set: %s",
           mt_error_string(rc));
  MPI_Info info = MPI_INFO_NULL;
  rc = MPI_Session_get_pset_info(session, "mpi://NO_SUCH_SET", &info);
  MT_CHECK(class_of(rc) == MPI_ERR_ARG, "pset info of an unknown set: %s",
           mt_error_string(rc));

  MPI_Errhandler mine;
  MT_CHECK_MPI(MPI_Session_create_errhandler(handler, &mine));
  MT_CHECK_MPI(MPI_Session_set_errhandler(session, mine));
  // An error in MPI_Comm_create_from_group goes to the session of its
  // group, also of a group made from the session's: here the handler for
  // the new communicator is one for sessions, which is MPI_ERR_ARG.
  MPI_Group world;
  MT_CHECK_MPI(MPI_Group_from_session_pset(session, "mpi://WORLD", &world));
  int zero = 0;
  MPI_Group first;
  MT_CHECK_MPI(MPI_Group_incl(world, 1, &zero, &first));
  MPI_Comm comm = MPI_COMM_NULL;
  rc = MPI_Comm_create_from_group(first, "org.shmpi.test.errhandler",
                                  MPI_INFO_NULL, mine, &comm);
  MT_CHECK(calls == 1 && last_class == MPI_ERR_ARG && last_session == session,
           "create_from_group with a session handler: %d calls, class %d",
           calls, last_class);
  MT_CHECK(class_of(rc) == MPI_ERR_ARG, "returned %s", mt_error_string(rc));
  calls = 0;
  MT_CHECK_MPI(MPI_Group_free(&first));
  MT_CHECK_MPI(MPI_Group_free(&world));

  MPI_Errhandler got;
  MT_CHECK_MPI(MPI_Session_get_errhandler(session, &got));
  MT_CHECK(got == mine, "MPI_Session_get_errhandler gives another handler");
  MT_CHECK_MPI(MPI_Errhandler_free(&got));
  MT_CHECK_MPI(MPI_Errhandler_free(&mine));  // the session keeps it

  rc = MPI_Group_from_session_pset(session, "mpi://NO_SUCH_SET", &group);
  MT_CHECK(calls == 1, "the handler ran %d times", calls);
  MT_CHECK(last_class == MPI_ERR_ARG, "the handler saw class %d", last_class);
  MT_CHECK(last_session == session, "the handler got another session");
  MT_CHECK(class_of(rc) == MPI_ERR_ARG, "returned %s", mt_error_string(rc));

  MT_CHECK_MPI(MPI_Session_call_errhandler(session, MPI_ERR_OTHER));
  MT_CHECK(calls == 2 && last_class == MPI_ERR_OTHER,
           "MPI_Session_call_errhandler: %d calls, class %d", calls,
           last_class);

  MT_CHECK_MPI(MPI_Session_set_errhandler(session, MPI_ERRORS_RETURN));
  rc = MPI_Group_from_session_pset(session, "mpi://NO_SUCH_SET", &group);
  MT_CHECK(calls == 2, "the old handler ran after it was replaced");
  MT_CHECK(class_of(rc) == MPI_ERR_ARG, "returned %s", mt_error_string(rc));
  MT_CHECK_MPI(MPI_Session_finalize(&session));
  return 0;
}
