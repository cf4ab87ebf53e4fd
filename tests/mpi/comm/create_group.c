// SPDX-License-Identifier: MIT
// MPI 4.0 §7.4.2: MPI_COMM_CREATE_GROUP is collective over group only (a
// subgroup of comm's group), not over comm; its tag tells concurrent calls
// apart and does not interfere with point-to-point tags; a process that is
// not in group (e.g. it passes MPI_GROUP_EMPTY) gets MPI_COMM_NULL from a
// local call.
//
//  1. Two disjoint halves of MPI_COMM_WORLD create their communicators at the
//     same time, with different tags (the upper half in reverse order).
//  2. All ranks but the last, which does not call (the last only calls
//     with MPI_GROUP_EMPTY, locally).
//  3. Two overlapping groups one after the other, the ranks in both calling
//     in the same order: a rank only in the second group starts it while
//     the others are still creating the first.
//  4. From a dup of MPI_COMM_WORLD with a message waiting unreceived and a
//     receive pending on it, on tags other than the creation's: neither may
//     be touched. (Implementations may send point-to-point messages on the
//     parent with the creation's tag, as Open MPI 4.1 does, so the program
//     keeps that tag, and wildcard-tag receives, off the parent meanwhile.)
// Each result is checked for members, point-to-point and collectives.
#include "mt_comm.h"

static int rank;
static int size;

static int contains(const int* list, int n, int value) {
  for (int i = 0; i < n; ++i) {
    if (list[i] == value) {
      return 1;
    }
  }
  return 0;
}

// MPI_Comm_create_group over the world ranks members[0..n) of parent
// (parent has MPI_COMM_WORLD's group order), called by members only.
static MPI_Comm create_group(MPI_Comm parent, const int* members, int n,
                             int tag) {
  MPI_Group parent_group;
  MPI_Group group;
  MPI_Comm_group(parent, &parent_group);
  MPI_Group_incl(parent_group, n, members, &group);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_create_group(parent, group, tag, &comm);
  MPI_Group_free(&group);
  MPI_Group_free(&parent_group);
  return comm;
}

static void check_and_free(MPI_Comm* comm, const int* members, int n, int token,
                           const char* what) {
  MT_CHECK_MEMBERS(*comm, members, n, what);
  MT_CHECK_P2P(*comm, members, n, 6, token, what);
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

  // 1. Disjoint halves at once, different tags.
  const int half = size / 2;
  const int upper = rank >= half;
  n = 0;
  if (upper) {
    for (int r = size - 1; r >= half; --r) {
      members[n++] = r;
    }
  } else {
    for (int r = 0; r < half; ++r) {
      members[n++] = r;
    }
  }
  MPI_Comm comm = create_group(MPI_COMM_WORLD, members, n, upper ? 2 : 1);
  check_and_free(&comm, members, n, 100 + upper, "disjoint halves");

  // 2. All but the last rank; the last one does not take part.
  n = 0;
  for (int r = 0; r < size - 1; ++r) {
    members[n++] = r;
  }
  if (rank < size - 1) {
    comm = create_group(MPI_COMM_WORLD, members, n, 3);
    check_and_free(&comm, members, n, 200, "all but the last rank");
  } else {
    comm = MPI_COMM_WORLD;
    MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_EMPTY, 3, &comm);
    MT_CHECK(comm == MPI_COMM_NULL,
             "MPI_Comm_create_group(MPI_GROUP_EMPTY) gave a communicator");
  }

  // 3. Overlapping groups, one after the other: the lower half plus one,
  //    then the upper half plus one.
  int first[kMtMaxMembers];
  int second[kMtMaxMembers];
  int n_first = 0;
  int n_second = 0;
  for (int r = 0; r < size; ++r) {
    if (r <= half) {
      first[n_first++] = r;
    }
    if (r >= half - 1) {
      second[n_second++] = r;
    }
  }
  if (contains(first, n_first, rank)) {
    comm = create_group(MPI_COMM_WORLD, first, n_first, 4);
    check_and_free(&comm, first, n_first, 300, "first overlapping group");
  }
  if (contains(second, n_second, rank)) {
    comm = create_group(MPI_COMM_WORLD, second, n_second, 5);
    check_and_free(&comm, second, n_second, 301, "second overlapping group");
  }

  // 4. From a dup with a message waiting and a receive pending on it.
  MPI_Comm parent = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &parent);
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  const int early[2] = {7, rank};
  MPI_Request early_req;
  MPI_Isend(early, 2, MPI_INT, right, 7, parent, &early_req);
  int in[2] = {-1, -1};
  MPI_Request req;
  MPI_Irecv(in, 2, MPI_INT, MPI_ANY_SOURCE, 9, parent, &req);
  n = 0;
  for (int r = rank % 2; r < size; r += 2) {
    members[n++] = r;
  }
  comm = create_group(parent, members, n, 8);
  int flag = 1;
  MPI_Status status;
  MPI_Test(&req, &flag, &status);
  MT_CHECK(!flag,
           "MPI_Comm_create_group(tag 8) completed a receive pending on its "
           "parent communicator (source %d tag %d)",
           status.MPI_SOURCE, status.MPI_TAG);
  check_and_free(&comm, members, n, 400 + rank % 2, "parity, from a dup");
  MPI_Barrier(MPI_COMM_WORLD);  // every rank has tested
  const int out[2] = {9, rank};
  MPI_Send(out, 2, MPI_INT, right, 9, parent);
  MPI_Wait(&req, &status);
  MT_CHECK(in[0] == 9 && in[1] == left && status.MPI_SOURCE == left &&
               status.MPI_TAG == 9,
           "the receive pending on the parent got {%d, %d} source %d tag %d",
           in[0], in[1], status.MPI_SOURCE, status.MPI_TAG);
  MPI_Recv(in, 2, MPI_INT, MPI_ANY_SOURCE, 7, parent, &status);
  MT_CHECK(in[0] == 7 && in[1] == left && status.MPI_SOURCE == left,
           "the message sent on the parent before the creation arrived as "
           "{%d, %d} from source %d",
           in[0], in[1], status.MPI_SOURCE);
  MPI_Wait(&early_req, MPI_STATUS_IGNORE);
  MPI_Comm_free(&parent);

  MPI_Finalize();
  return 0;
}
