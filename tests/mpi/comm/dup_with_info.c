// SPDX-License-Identifier: MIT
// MPI 4.0 §7.4.2: MPI_COMM_DUP_WITH_INFO is MPI_COMM_DUP with hints, which
// an implementation may ignore (§10: unknown keys are ignored); the new
// communicator does not depend on the info object, which may be freed at
// once.
//
// With MPI_INFO_NULL, and with an info object holding two assertions set to
// "false" (so the wildcard receives of the checks stay allowed) and a key
// no implementation knows; twice in a row on the same parent. Each new
// communicator is congruent with MPI_COMM_WORLD and carries point-to-point
// and collective traffic.
#include "mt_comm.h"

static void check_dup_and_free(MPI_Comm* comm, const int* members, int n,
                               int token, const char* what) {
  MT_CHECK(*comm != MPI_COMM_NULL && *comm != MPI_COMM_WORLD,
           "%s: no new communicator", what);
  MT_CHECK_COMPARE(MPI_COMM_WORLD, *comm, MPI_CONGRUENT, what);
  MT_CHECK_MEMBERS(*comm, members, n, what);
  MT_CHECK_P2P(*comm, members, n, 2, token, what);
  MT_CHECK_COLLECTIVES(*comm, members, n, what);
  MPI_Comm_free(comm);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int size = mt_size();
  MT_CHECK(size <= kMtMaxMembers, "at most %d ranks", kMtMaxMembers);
  int world_members[kMtMaxMembers];
  for (int i = 0; i < size; ++i) {
    world_members[i] = i;
  }

  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &comm);
  check_dup_and_free(&comm, world_members, size, 1,
                     "MPI_Comm_dup_with_info(MPI_INFO_NULL)");

  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_assert_no_any_tag", "false");
  MPI_Info_set(info, "mpi_assert_no_any_source", "false");
  MPI_Info_set(info, "shmpi_test_unknown_key", "ignored");
  MPI_Comm first = MPI_COMM_NULL;
  MPI_Comm second = MPI_COMM_NULL;
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &first);
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &second);
  MPI_Info_free(&info);
  MT_CHECK_COMPARE(first, second, MPI_CONGRUENT, "two dups with hints");
  check_dup_and_free(&second, world_members, size, 2,
                     "second MPI_Comm_dup_with_info(hints)");
  check_dup_and_free(&first, world_members, size, 3,
                     "first MPI_Comm_dup_with_info(hints), info freed");

  MPI_Finalize();
  return 0;
}
