// SPDX-License-Identifier: MIT
// MPI 4.0 §7.4.2: MPI_COMM_SPLIT_TYPE with MPI_COMM_TYPE_SHARED splits comm
// into subcommunicators whose processes can share memory; ranks are ordered
// by key, ties by the old rank; a process passing MPI_UNDEFINED gets
// MPI_COMM_NULL. On one machine every process can share memory with every
// other, so each split holds all the processes that take part.
//
// MPI_COMM_WORLD split with keys in rank order and with equal keys (both
// congruent with it), with reversed keys (similar), with MPI_UNDEFINED on
// every third rank; and a split of each part of a parity split; members,
// point-to-point and collectives checked on each.
#include "mt_comm.h"

static int rank;
static int size;

static MPI_Comm split_shared(MPI_Comm parent, int type, int key) {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split_type(parent, type, key, MPI_INFO_NULL, &comm);
  return comm;
}

static void check_and_free(MPI_Comm* comm, const int* members, int n, int token,
                           const char* what) {
  MT_CHECK_MEMBERS(*comm, members, n, what);
  MT_CHECK_P2P(*comm, members, n, 8, token, what);
  MT_CHECK_COLLECTIVES(*comm, members, n, what);
  MPI_Comm_free(comm);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  rank = mt_rank();
  size = mt_size();
  MT_CHECK(size <= kMtMaxMembers, "at most %d ranks", kMtMaxMembers);
  int members[kMtMaxMembers];
  int n = 0;

  // Keys in rank order.
  for (int r = 0; r < size; ++r) {
    members[r] = r;
  }
  MPI_Comm comm = split_shared(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank);
  MT_CHECK(comm != MPI_COMM_NULL, "MPI_COMM_TYPE_SHARED gave MPI_COMM_NULL");
  MT_CHECK_COMPARE(MPI_COMM_WORLD, comm, MPI_CONGRUENT,
                   "MPI_COMM_TYPE_SHARED, keys in rank order");
  check_and_free(&comm, members, size, 1, "keys in rank order");

  // Equal keys: ties broken by rank.
  comm = split_shared(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0);
  MT_CHECK_COMPARE(MPI_COMM_WORLD, comm, MPI_CONGRUENT,
                   "MPI_COMM_TYPE_SHARED, equal keys");
  check_and_free(&comm, members, size, 2, "equal keys");

  // Reversed keys.
  for (int r = 0; r < size; ++r) {
    members[r] = size - 1 - r;
  }
  comm = split_shared(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, size - rank);
  MT_CHECK_COMPARE(MPI_COMM_WORLD, comm, size > 1 ? MPI_SIMILAR : MPI_CONGRUENT,
                   "MPI_COMM_TYPE_SHARED, reversed keys");
  check_and_free(&comm, members, size, 3, "reversed keys");

  // MPI_UNDEFINED on every third rank.
  n = 0;
  for (int r = 0; r < size; ++r) {
    if (r % 3 != 1) {
      members[n++] = r;
    }
  }
  comm =
      split_shared(MPI_COMM_WORLD,
                   rank % 3 == 1 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED, rank);
  if (rank % 3 == 1) {
    MT_CHECK(comm == MPI_COMM_NULL,
             "split_type MPI_UNDEFINED gave a communicator");
  } else {
    check_and_free(&comm, members, n, 4, "MPI_UNDEFINED on every third rank");
  }

  // From each part of a parity split.
  MPI_Comm parity = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &parity);
  n = 0;
  for (int r = rank % 2; r < size; r += 2) {
    members[n++] = r;
  }
  comm = split_shared(parity, MPI_COMM_TYPE_SHARED, 0);
  MT_CHECK_COMPARE(parity, comm, MPI_CONGRUENT,
                   "MPI_COMM_TYPE_SHARED of a parity split");
  check_and_free(&comm, members, n, 10 + rank % 2, "from a parity split");
  MPI_Comm_free(&parity);

  MPI_Finalize();
  return 0;
}
