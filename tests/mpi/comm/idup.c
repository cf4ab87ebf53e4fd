// SPDX-License-Identifier: MIT
// MPI 4.0 §7.4.2: MPI_COMM_IDUP is the nonblocking MPI_COMM_DUP: the new
// communicator may be used once the request completes; nonblocking
// collectives on one communicator are started in the same order everywhere,
// but those on different communicators need not be.
//
//  1. One MPI_Comm_idup of MPI_COMM_WORLD, with point-to-point on
//     MPI_COMM_WORLD while it is pending.
//  2. Five in flight at once on four parents (MPI_COMM_WORLD, a dup of it
//     twice, a parity split, MPI_COMM_SELF), started in the reverse order on
//     odd ranks (the two on one parent keep their order), then one
//     MPI_Waitall.
// Each new communicator is congruent with its parent and carries
// point-to-point and collective traffic.
#include "mt_comm.h"

static int rank;
static int size;
static int world_members[kMtMaxMembers];

static void check_dup_and_free(MPI_Comm parent, MPI_Comm* comm,
                               const int* members, int n, int token,
                               const char* what) {
  MT_CHECK(*comm != MPI_COMM_NULL && *comm != parent, "%s: no new communicator",
           what);
  MT_CHECK_COMPARE(parent, *comm, MPI_CONGRUENT, what);
  MT_CHECK_MEMBERS(*comm, members, n, what);
  MT_CHECK_P2P(*comm, members, n, 2, token, what);
  MT_CHECK_COLLECTIVES(*comm, members, n, what);
  MPI_Comm_free(comm);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  rank = mt_rank();
  size = mt_size();
  MT_CHECK(size <= kMtMaxMembers, "at most %d ranks", kMtMaxMembers);
  for (int i = 0; i < size; ++i) {
    world_members[i] = i;
  }
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;

  // 1. One idup, with traffic on the parent meanwhile.
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Comm_idup(MPI_COMM_WORLD, &comm, &req);
  int in = -1;
  MPI_Sendrecv(&rank, 1, MPI_INT, right, 0, &in, 1, MPI_INT, MPI_ANY_SOURCE,
               MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MT_CHECK(in == left,
           "message on MPI_COMM_WORLD during MPI_Comm_idup came "
           "from %d, expected %d",
           in, left);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MT_CHECK(req == MPI_REQUEST_NULL, "MPI_Wait left the idup request set");
  check_dup_and_free(MPI_COMM_WORLD, &comm, world_members, size, 1,
                     "one idup of MPI_COMM_WORLD");

  // 2. Several in flight on different parents.
  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm parity = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &parity);
  int parity_members[kMtMaxMembers];
  int parity_count = 0;
  for (int r = rank % 2; r < size; r += 2) {
    parity_members[parity_count++] = r;
  }
  enum { kInFlight = 5 };
  const MPI_Comm parents[kInFlight] = {MPI_COMM_WORLD, dup, dup, parity,
                                       MPI_COMM_SELF};
  const char* names[kInFlight] = {"idup of MPI_COMM_WORLD",
                                  "first idup of a dup", "second idup of a dup",
                                  "idup of a split", "idup of MPI_COMM_SELF"};
  MPI_Comm comms[kInFlight];
  MPI_Request reqs[kInFlight];
  // Odd ranks go backwards, except that the two idups of dup keep their
  // order (indices 1 then 2).
  static const int kForward[kInFlight] = {0, 1, 2, 3, 4};
  static const int kBackward[kInFlight] = {4, 3, 1, 2, 0};
  const int* order = rank % 2 == 0 ? kForward : kBackward;
  for (int k = 0; k < kInFlight; ++k) {
    const int i = order[k];
    comms[i] = MPI_COMM_NULL;
    MPI_Comm_idup(parents[i], &comms[i], &reqs[i]);
  }
  MPI_Waitall(kInFlight, reqs, MPI_STATUSES_IGNORE);
  const int self_member[1] = {rank};
  for (int i = 0; i < kInFlight; ++i) {
    const int* members = i == 3   ? parity_members
                         : i == 4 ? self_member
                                  : world_members;
    const int n = i == 3 ? parity_count : i == 4 ? 1 : size;
    check_dup_and_free(parents[i], &comms[i], members, n, 10 + i, names[i]);
  }
  MPI_Comm_free(&parity);
  MPI_Comm_free(&dup);

  MPI_Finalize();
  return 0;
}
