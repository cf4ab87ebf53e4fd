// SPDX-License-Identifier: MIT
// MPI 4.0 §7.4.2: MPI_COMM_CREATE makes an intracommunicator whose group is
// the group argument, and gives MPI_COMM_NULL to the processes outside it.
// Since MPI 2.2 the processes may pass different groups if these are
// disjoint, each process passing the group it belongs to: one call then
// makes one communicator per group.
//
// From MPI_COMM_WORLD: the even ranks; all ranks but 0 in reverse order;
// two disjoint halves in one call (the upper half in reverse order);
// MPI_GROUP_EMPTY; the whole world group. From a reversed split of
// MPI_COMM_WORLD: every other rank of it. Each result is checked for
// members, rank, size, MPI_Comm_compare, point-to-point (concurrent parts
// on one tag) and collectives; non-members get MPI_COMM_NULL.
#include "mt_comm.h"

static int rank;
static int size;

// MPI_Comm_create(parent, the group of parent made of parent ranks
// ranks[0..n)); the members are given as world ranks.
static MPI_Comm create_from(MPI_Comm parent, const int* ranks, int n) {
  MPI_Group parent_group;
  MPI_Group group;
  MPI_Comm_group(parent, &parent_group);
  MPI_Group_incl(parent_group, n, ranks, &group);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_create(parent, group, &comm);
  MPI_Group_free(&group);
  MPI_Group_free(&parent_group);
  return comm;
}

static int contains(const int* list, int n, int value) {
  for (int i = 0; i < n; ++i) {
    if (list[i] == value) {
      return 1;
    }
  }
  return 0;
}

// Checks comm against its expected members (world ranks), or that it is
// MPI_COMM_NULL if the caller is not among them, then frees it.
static void check_and_free(MPI_Comm* comm, const int* members, int n, int token,
                           const char* what) {
  if (!contains(members, n, rank)) {
    MT_CHECK(*comm == MPI_COMM_NULL, "%s: a non-member got a communicator",
             what);
    return;
  }
  MT_CHECK_MEMBERS(*comm, members, n, what);
  MT_CHECK_P2P(*comm, members, n, 4, token, what);
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

  // The even ranks.
  n = 0;
  for (int r = 0; r < size; r += 2) {
    members[n++] = r;
  }
  MPI_Comm evens = create_from(MPI_COMM_WORLD, members, n);
  if (evens != MPI_COMM_NULL) {
    MT_CHECK_COMPARE(MPI_COMM_WORLD, evens,
                     size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT, "even ranks");
  }
  check_and_free(&evens, members, n, 1, "even ranks");

  // All ranks but 0, in reverse order.
  n = 0;
  for (int r = size - 1; r >= 1; --r) {
    members[n++] = r;
  }
  MPI_Comm reversed = create_from(MPI_COMM_WORLD, members, n);
  check_and_free(&reversed, members, n, 2, "all but rank 0, reversed");

  // Two disjoint halves in one call, each rank passing its own half.
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
  MPI_Comm halves = create_from(MPI_COMM_WORLD, members, n);
  MT_CHECK(halves != MPI_COMM_NULL, "disjoint halves: got MPI_COMM_NULL");
  check_and_free(&halves, members, n, 10 + upper, "disjoint halves");

  // MPI_GROUP_EMPTY.
  MPI_Comm empty = MPI_COMM_WORLD;
  MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &empty);
  MT_CHECK(empty == MPI_COMM_NULL,
           "MPI_Comm_create with MPI_GROUP_EMPTY gave a communicator");

  // The whole world group: congruent with MPI_COMM_WORLD.
  MPI_Group world_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Comm whole = MPI_COMM_NULL;
  MPI_Comm_create(MPI_COMM_WORLD, world_group, &whole);
  MPI_Group_free(&world_group);
  MT_CHECK_COMPARE(MPI_COMM_WORLD, whole, MPI_CONGRUENT, "whole world group");
  for (int r = 0; r < size; ++r) {
    members[r] = r;
  }
  check_and_free(&whole, members, size, 3, "whole world group");

  // From a reversed split of MPI_COMM_WORLD: its even ranks, which are
  // world ranks size-1, size-3, ...
  MPI_Comm backwards = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &backwards);
  int parent_ranks[kMtMaxMembers];
  n = 0;
  for (int p = 0; p < size; p += 2) {
    parent_ranks[n] = p;
    members[n] = size - 1 - p;
    ++n;
  }
  MPI_Comm sub = create_from(backwards, parent_ranks, n);
  check_and_free(&sub, members, n, 4, "every other rank of a reversed split");
  MPI_Comm_free(&backwards);

  MPI_Finalize();
  return 0;
}
