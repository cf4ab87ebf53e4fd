// SPDX-License-Identifier: MIT
// mpi://SELF: a process set of one, whose communicator holds only the
// calling process. Every process makes its own at the same time, with the
// same string tag.
#include "common.h"

int main(void) {
  MPI_Session session;
  MT_CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
  MPI_Info info;
  MT_CHECK_MPI(MPI_Session_get_pset_info(session, "mpi://SELF", &info));
  char value[MPI_MAX_INFO_VAL + 1];
  int length = MPI_MAX_INFO_VAL;
  int flag = 0;
  MT_CHECK_MPI(MPI_Info_get_string(info, "mpi_size", &length, value, &flag));
  MT_CHECK(flag && strcmp(value, "1") == 0, "mpi://SELF mpi_size \"%s\"",
           flag ? value : "");
  MT_CHECK_MPI(MPI_Info_free(&info));
  MPI_Group group;
  MT_CHECK_MPI(MPI_Group_from_session_pset(session, "mpi://SELF", &group));
  int size = 0;
  int rank = -1;
  MT_CHECK_MPI(MPI_Group_size(group, &size));
  MT_CHECK_MPI(MPI_Group_rank(group, &rank));
  MT_CHECK(size == 1 && rank == 0, "mpi://SELF: rank %d of %d", rank, size);
  MT_CHECK_MPI(MPI_Group_free(&group));
  MPI_Comm self = st_comm_of(session, "mpi://SELF", "org.shmpi.test.self");
  MT_CHECK_MPI(MPI_Comm_size(self, &size));
  MT_CHECK(size == 1, "communicator of mpi://SELF has %d members", size);
  st_exercise(self, 77);
  // And one over the world alongside it.
  MPI_Comm world = st_comm_of(session, "mpi://WORLD", "org.shmpi.test.self");
  st_exercise(world, 88);
  st_exercise(self, 99);
  MT_CHECK_MPI(MPI_Comm_free(&world));
  MT_CHECK_MPI(MPI_Comm_free(&self));
  MT_CHECK_MPI(MPI_Session_finalize(&session));
  return 0;
}
