// SPDX-License-Identifier: MIT
// MPI_Intercomm_create_from_groups (MPI 4.0 §7.6.2): the even and the odd
// ranks of mpi://WORLD, with no communicator between them, make an
// intercommunicator; messages cross it both ways, a second one with
// another tag works beside the first, and merging gives the whole world.
#include "common.h"

static MPI_Comm make(MPI_Group world, int parity, const char* tag) {
  int size = 0;
  MT_CHECK_MPI(MPI_Group_size(world, &size));
  int mine[256];
  int theirs[256];
  int mine_count = 0;
  int theirs_count = 0;
  for (int r = 0; r < size && r < 256; ++r) {
    if (r % 2 == parity) {
      mine[mine_count++] = r;
    } else {
      theirs[theirs_count++] = r;
    }
  }
  MPI_Group local;
  MPI_Group remote;
  MT_CHECK_MPI(MPI_Group_incl(world, mine_count, mine, &local));
  MT_CHECK_MPI(MPI_Group_incl(world, theirs_count, theirs, &remote));
  MPI_Comm inter = MPI_COMM_NULL;
  MT_CHECK_MPI(MPI_Intercomm_create_from_groups(
      local, 0, remote, 0, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &inter));
  int flag = 0;
  int remote_size = 0;
  MT_CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
  MT_CHECK_MPI(MPI_Comm_remote_size(inter, &remote_size));
  MT_CHECK(flag && remote_size == theirs_count,
           "inter %d, remote size %d, expected %d", flag, remote_size,
           theirs_count);
  MT_CHECK_MPI(MPI_Group_free(&local));
  MT_CHECK_MPI(MPI_Group_free(&remote));
  return inter;
}

// Rank r of each side sends to rank r of the other (when there is one).
static void cross(MPI_Comm inter, int parity, int base) {
  int rank = 0;
  int remote_size = 0;
  MT_CHECK_MPI(MPI_Comm_rank(inter, &rank));
  MT_CHECK_MPI(MPI_Comm_remote_size(inter, &remote_size));
  if (rank >= remote_size) {
    return;
  }
  int out = base + 2 * rank + parity;
  int in = -1;
  MT_CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, rank, 3, &in, 1, MPI_INT, rank, 3,
                            inter, MPI_STATUS_IGNORE));
  MT_CHECK(in == base + 2 * rank + (1 - parity), "got %d from remote rank %d",
           in, rank);
}

int main(void) {
  MPI_Session session;
  MT_CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
  MPI_Group world;
  MT_CHECK_MPI(MPI_Group_from_session_pset(session, "mpi://WORLD", &world));
  int rank = 0;
  MT_CHECK_MPI(MPI_Group_rank(world, &rank));
  const int parity = rank % 2;
  MPI_Comm first = make(world, parity, "org.shmpi.test.inter.first");
  MPI_Comm second = make(world, parity, "org.shmpi.test.inter.second");
  cross(first, parity, 100);
  cross(second, parity, 200);
  cross(first, parity, 300);
  MPI_Comm merged;
  MT_CHECK_MPI(MPI_Intercomm_merge(first, parity, &merged));
  st_exercise(merged, 50);
  MT_CHECK_MPI(MPI_Comm_free(&merged));
  MT_CHECK_MPI(MPI_Comm_free(&second));
  MT_CHECK_MPI(MPI_Comm_free(&first));
  MT_CHECK_MPI(MPI_Group_free(&world));
  MT_CHECK_MPI(MPI_Session_finalize(&session));
  return 0;
}
