// SPDX-License-Identifier: MIT
// Bad arguments to the session calls (MPI 4.0 §11.3, §9.4). A bad session
// handle (MPI_SESSION_NULL) names no session, so its MPI_ERR_SESSION goes
// to the handler of errors tied to no object: MPI_COMM_SELF's while the
// World Model runs (MPICH: MPI_COMM_WORLD's; both are set to return). An
// unknown process set name is MPI_ERR_ARG on the session; an n beyond the
// process sets too ("nth"). With "fatal" a sessions-only program asks for
// mpi://NO on a session with MPI_ERRORS_ARE_FATAL, which must end the job.
#include "common.h"

static int class_of(int code) {
  int error_class = code;
  MPI_Error_class(code, &error_class);
  return error_class;
}

static void expect(int rc, int expected, const char* what) {
  MT_CHECK(class_of(rc) == expected, "%s: %s, expected class %s", what,
           mt_error_string(rc), mt_class_name(expected));
}

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "fatal") == 0) {
    MPI_Session session;
    MT_CHECK_MPI(
        MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session));
    MPI_Group group;
    MPI_Group_from_session_pset(session, "mpi://NO", &group);
    fprintf(stderr, "FAIL: an unknown process set did not end the job\n");
    return 1;
  }
  MT_CHECK_MPI(MPI_Init(&argc, &argv));
  MT_CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  MT_CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  int n = 0;
  expect(MPI_Session_get_num_psets(MPI_SESSION_NULL, MPI_INFO_NULL, &n),
         MPI_ERR_SESSION, "MPI_Session_get_num_psets(MPI_SESSION_NULL)");
  MPI_Group group;
  expect(MPI_Group_from_session_pset(MPI_SESSION_NULL, "mpi://WORLD", &group),
         MPI_ERR_SESSION, "MPI_Group_from_session_pset(MPI_SESSION_NULL)");
  MPI_Info info;
  expect(MPI_Session_get_info(MPI_SESSION_NULL, &info), MPI_ERR_SESSION,
         "MPI_Session_get_info(MPI_SESSION_NULL)");

  MPI_Session session;
  MT_CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
  expect(MPI_Group_from_session_pset(session, "mpi://NO", &group), MPI_ERR_ARG,
         "MPI_Group_from_session_pset(\"mpi://NO\")");
  expect(MPI_Session_get_pset_info(session, "mpi://NO", &info), MPI_ERR_ARG,
         "MPI_Session_get_pset_info(\"mpi://NO\")");
  if (argc > 1 && strcmp(argv[1], "nth") == 0) {
    MT_CHECK_MPI(MPI_Session_get_num_psets(session, MPI_INFO_NULL, &n));
    char name[MPI_MAX_PSET_NAME_LEN];
    int length = MPI_MAX_PSET_NAME_LEN;
    expect(MPI_Session_get_nth_pset(session, MPI_INFO_NULL, n, &length, name),
           MPI_ERR_ARG, "MPI_Session_get_nth_pset(n = number of sets)");
    length = MPI_MAX_PSET_NAME_LEN;
    expect(MPI_Session_get_nth_pset(session, MPI_INFO_NULL, -1, &length, name),
           MPI_ERR_ARG, "MPI_Session_get_nth_pset(n = -1)");
  }

  MPI_Session copy = session;
  MT_CHECK_MPI(MPI_Session_finalize(&session));
  MT_CHECK(session == MPI_SESSION_NULL, "finalize left the handle");
  (void)copy;  // a freed handle is garbage; reading it is not portable
  MT_CHECK_MPI(MPI_Finalize());
  return 0;
}
