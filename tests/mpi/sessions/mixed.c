// SPDX-License-Identifier: MIT
// The Sessions and World Models in one program (MPI 4.0 §11.1), in either
// order: "init_first" calls MPI_Init, opens a session, calls MPI_Finalize
// and goes on with the session's communicator; "session_first" opens a
// session, then runs MPI_Init..MPI_Finalize inside it. "restart" opens and
// ends a session twice, without MPI_Init. "forget" opens a session and
// exits without ending it, which shmpirun must report as an unfinished
// rank.
#include "common.h"

static void init_first(void) {
  MT_CHECK_MPI(MPI_Init(NULL, NULL));
  MPI_Session session;
  MT_CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
  st_expect_world_model(1, 0);
  MPI_Comm comm = st_comm_of(session, "mpi://WORLD", "org.shmpi.test.mixed");
  int result = MPI_UNEQUAL;
  MT_CHECK_MPI(MPI_Comm_compare(comm, MPI_COMM_WORLD, &result));
  MT_CHECK(result == MPI_CONGRUENT, "compares with MPI_COMM_WORLD as %d",
           result);
  st_exercise(comm, 5);
  MT_CHECK_MPI(MPI_Finalize());
  st_expect_world_model(1, 1);
  // The session outlives the World Model.
  st_exercise(comm, 6);
  MT_CHECK_MPI(MPI_Comm_free(&comm));
  MT_CHECK_MPI(MPI_Session_finalize(&session));
  st_expect_world_model(1, 1);
}

static void session_first(void) {
  MPI_Session session;
  MT_CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
  st_expect_world_model(0, 0);
  MPI_Comm comm = st_comm_of(session, "mpi://WORLD", "org.shmpi.test.mixed");
  st_exercise(comm, 7);
  MT_CHECK_MPI(MPI_Init(NULL, NULL));
  st_expect_world_model(1, 0);
  st_exercise(MPI_COMM_WORLD, 8);
  st_exercise(comm, 9);
  MT_CHECK_MPI(MPI_Comm_free(&comm));
  MT_CHECK_MPI(MPI_Session_finalize(&session));
  // The World Model still runs after its session ended.
  st_exercise(MPI_COMM_WORLD, 10);
  MT_CHECK_MPI(MPI_Finalize());
  st_expect_world_model(1, 1);
}

static void restart(void) {
  for (int round = 0; round < 2; ++round) {
    MPI_Session session;
    MT_CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
    MPI_Comm comm =
        st_comm_of(session, "mpi://WORLD", "org.shmpi.test.restart");
    st_exercise(comm, 100 * round);
    MT_CHECK_MPI(MPI_Comm_free(&comm));
    MT_CHECK_MPI(MPI_Session_finalize(&session));
    st_expect_world_model(0, 0);
  }
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "init_first") == 0) {
    init_first();
  } else if (strcmp(mode, "session_first") == 0) {
    session_first();
  } else if (strcmp(mode, "restart") == 0) {
    restart();
  } else if (strcmp(mode, "forget") == 0) {
    MPI_Session session;
    MT_CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
    return 0;
  } else {
    fprintf(stderr, "usage: mixed init_first|session_first|restart|forget\n");
    return 2;
  }
  return 0;
}
