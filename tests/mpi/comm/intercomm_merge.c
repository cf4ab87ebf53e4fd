// SPDX-License-Identifier: MIT
// MPI 4.0 §7.6.2: MPI_INTERCOMM_MERGE makes an intracommunicator of the
// union of the two groups: the group whose processes pass high = false
// comes first, then the other; if every process passes the same high, the
// order of the two groups is arbitrary.
//
// The even/odd intercommunicator of MPI_COMM_WORLD merged with the even
// ranks low (evens first), with the even ranks high (odds first) and with
// the same high everywhere (membership only); an intercommunicator between
// the first quarter of MPI_COMM_WORLD and the rest in reverse order merged
// with the first group high. Each merged communicator is an
// intracommunicator with the expected members, compares as expected with
// MPI_COMM_WORLD, and carries point-to-point and collective traffic.
#include "mt_comm.h"

static int rank;
static int size;

// Merges inter with this process's high flag; checks the result against
// members[0..n) (or, if n is 0, only that it holds every world rank) and
// frees it.
static void merge_and_check(MPI_Comm inter, int high, const int* members, int n,
                            int token, const char* what) {
  MPI_Comm merged = MPI_COMM_NULL;
  MPI_Intercomm_merge(inter, high, &merged);
  int got[kMtMaxMembers];
  if (n == 0) {
    n = mt_comm_world_ranks(merged, got);
    MT_CHECK(n == size, "%s: %d members, expected %d", what, n, size);
    int seen[kMtMaxMembers] = {0};
    for (int i = 0; i < n; ++i) {
      MT_CHECK(got[i] >= 0 && got[i] < size && !seen[got[i]],
               "%s: members [%s] are not the world ranks", what,
               mt_rank_list(got, n));
      seen[got[i]] = 1;
    }
    members = got;
  }
  MT_CHECK_MEMBERS(merged, members, n, what);
  int in_order = 1;
  for (int i = 0; i < n; ++i) {
    in_order = in_order && members[i] == i;
  }
  MT_CHECK_COMPARE(MPI_COMM_WORLD, merged,
                   in_order ? MPI_CONGRUENT : MPI_SIMILAR, what);
  MT_CHECK_P2P(merged, members, n, 3, token, what);
  MT_CHECK_COLLECTIVES(merged, members, n, what);
  MPI_Comm_free(&merged);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  rank = mt_rank();
  size = mt_size();
  MT_CHECK(size >= 2 && size <= kMtMaxMembers, "needs 2 to %d ranks",
           kMtMaxMembers);
  int members[kMtMaxMembers];
  int n = 0;

  // Even/odd.
  const int odd = rank % 2;
  MPI_Comm local = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, odd, rank, &local);
  MPI_Comm inter = MPI_COMM_NULL;
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, odd ? 0 : 1, 5, &inter);

  n = 0;
  for (int r = 0; r < size; r += 2) {
    members[n++] = r;
  }
  for (int r = 1; r < size; r += 2) {
    members[n++] = r;
  }
  merge_and_check(inter, odd, members, n, 1, "evens low, odds high");

  n = 0;
  for (int r = 1; r < size; r += 2) {
    members[n++] = r;
  }
  for (int r = 0; r < size; r += 2) {
    members[n++] = r;
  }
  merge_and_check(inter, !odd, members, n, 2, "evens high, odds low");

  merge_and_check(inter, 0, members, 0, 3, "the same high everywhere");
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);

  // Unequal groups: A the first quarter, B the rest reversed; A high.
  const int a_size = size / 4 > 0 ? size / 4 : 1;
  const int in_a = rank < a_size;
  MPI_Comm_split(MPI_COMM_WORLD, in_a ? 0 : 1, in_a ? rank : size - rank,
                 &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, in_a ? size - 1 : 0, 6,
                       &inter);
  n = 0;
  for (int r = size - 1; r >= a_size; --r) {
    members[n++] = r;
  }
  for (int r = 0; r < a_size; ++r) {
    members[n++] = r;
  }
  merge_and_check(inter, in_a, members, n, 4, "unequal groups, first high");
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);

  MPI_Finalize();
  return 0;
}
