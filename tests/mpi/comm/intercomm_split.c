// SPDX-License-Identifier: MIT
// MPI 4.0 §7.4.2, MPI_COMM_SPLIT of an intercommunicator: the processes of
// each color on one side and those of the same color on the other side
// form a new intercommunicator, ranked on each side by key; a color found
// on one side only gives MPI_COMM_NULL, as does MPI_UNDEFINED.
//
// On the even/odd intercommunicator of MPI_COMM_WORLD (side 0 the even
// ranks, side 1 the odd ones):
//  1. colors by local rank parity on both sides, keys reversing side 0's
//     order;
//  2. the same, except that side 1's local rank 0 (its leader in the
//     parent, if it has 2 or more ranks) passes MPI_UNDEFINED and side 0's
//     last rank (if it has 3 or more) takes a color side 1 lacks.
// Each part is checked for local and remote groups and messages between
// every pair (failing after 10 s rather than hanging if they never arrive),
// then merged (side 0 low) and checked with an Allreduce.
//
// Debian's MPICH 4.0.2 gets case 2 wrong from 4 ranks on: when the
// parent's local rank 0 is in no new communicator, it hands the other side
// a bad context ID, and messages to that side are lost
// (github.com/pmodels/mpich/issues/6878, fixed by pull request 6880 in
// January 2024).
#include "mt_comm.h"

static int rank;
static int size;
static int side;
static int sides[2][kMtMaxMembers];  // world ranks of each side, in order
static int side_size[2];

typedef int (*ColorFn)(int side, int local_rank, int local_size);

static int color_parity(int s, int l, int n) {
  (void)s, (void)n;
  return l % 2;
}
static int color_leader_out(int s, int l, int n) {
  if (s == 0) {
    return n >= 3 && l == n - 1 ? 5 : l % 2;
  }
  return n >= 2 && l == 0 ? MPI_UNDEFINED : l % 2;
}
static int key_of(int s, int l) { return s == 0 ? -l : l; }

// The world ranks of side s with this color, ordered by key.
static int members_of(ColorFn color_of, int s, int color, int* out) {
  int n = 0;
  int keys[kMtMaxMembers];
  for (int l = 0; l < side_size[s]; ++l) {
    if (color == MPI_UNDEFINED || color_of(s, l, side_size[s]) != color) {
      continue;
    }
    const int key = key_of(s, l);
    int at = n;
    while (at > 0 && keys[at - 1] > key) {
      keys[at] = keys[at - 1];
      out[at] = out[at - 1];
      --at;
    }
    keys[at] = key;
    out[at] = sides[s][l];
    ++n;
  }
  return n;
}

// Every rank sends to every remote rank and receives one message from each
// with MPI_ANY_SOURCE; fails after 10 s if they have not all arrived.
static void exchange_with_deadline(MPI_Comm inter, const int* remote, int nr,
                                   int token, const char* what) {
  int my_rank = -1;
  MPI_Comm_rank(inter, &my_rank);
  const int out[3] = {token, rank, my_rank};
  int in[kMtMaxMembers][3];
  MPI_Request reqs[2 * kMtMaxMembers];
  MPI_Status statuses[2 * kMtMaxMembers];
  for (int j = 0; j < nr; ++j) {
    MPI_Irecv(in[j], 3, MPI_INT, MPI_ANY_SOURCE, 7, inter, &reqs[j]);
  }
  for (int j = 0; j < nr; ++j) {
    MPI_Isend(out, 3, MPI_INT, j, 7, inter, &reqs[nr + j]);
  }
  const double deadline = MPI_Wtime() + 10.0;
  int done = 0;
  while (!done) {
    MPI_Testall(2 * nr, reqs, &done, statuses);
    if (!done && MPI_Wtime() > deadline) {
      MT_FAIL(
          "%s: messages across the intercommunicator did not arrive "
          "within 10 s",
          what);
    }
  }
  int seen[kMtMaxMembers] = {0};
  for (int j = 0; j < nr; ++j) {
    const int from = statuses[j].MPI_SOURCE;
    MT_CHECK(from >= 0 && from < nr && !seen[from] && in[j][0] == token &&
                 in[j][1] == remote[from] && in[j][2] == from,
             "%s: receive %d got {token %d, world rank %d, rank %d} from "
             "source %d; remote group (world ranks) [%s]",
             what, j, in[j][0], in[j][1], in[j][2], from,
             mt_rank_list(remote, nr));
    seen[from] = 1;
  }
}

static void split_case(MPI_Comm inter, ColorFn color_of, int token,
                       const char* name) {
  const int other = 1 - side;
  const int local_rank = rank / 2;
  const int color = color_of(side, local_rank, side_size[side]);
  MPI_Comm part = MPI_COMM_NULL;
  MPI_Comm_split(inter, color, key_of(side, local_rank), &part);
  int local_members[kMtMaxMembers];
  int remote_members[kMtMaxMembers];
  const int nl = members_of(color_of, side, color, local_members);
  const int nr = members_of(color_of, other, color, remote_members);
  char what[96];
  snprintf(what, sizeof what, "%s, color %d", name, color);
  if (nl == 0 || nr == 0) {
    MT_CHECK(part == MPI_COMM_NULL, "%s (%s) gave a communicator", what,
             nl == 0 ? "MPI_UNDEFINED" : "no remote process of this color");
    return;
  }
  MT_CHECK_INTER(part, local_members, nl, remote_members, nr, what);
  exchange_with_deadline(part, remote_members, nr, token + color, what);
  MT_CHECK_INTER_P2P(part, remote_members, nr, 2, token + color, what);

  // Merged, side 0 first.
  MPI_Comm merged = MPI_COMM_NULL;
  MPI_Intercomm_merge(part, side, &merged);
  int members[kMtMaxMembers];
  const int* first = side == 0 ? local_members : remote_members;
  const int* second = side == 0 ? remote_members : local_members;
  const int n_first = side == 0 ? nl : nr;
  const int n_second = side == 0 ? nr : nl;
  memcpy(members, first, sizeof(int) * (size_t)n_first);
  memcpy(members + n_first, second, sizeof(int) * (size_t)n_second);
  MT_CHECK_MEMBERS(merged, members, nl + nr, what);
  long sum = -1;
  const long mine = rank + 1;
  long expected = 0;
  for (int i = 0; i < nl + nr; ++i) {
    expected += members[i] + 1;
  }
  MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, merged);
  MT_CHECK(sum == expected, "%s, merged: MPI_Allreduce gave %ld, expected %ld",
           what, sum, expected);
  MPI_Comm_free(&merged);
  MPI_Comm_free(&part);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  rank = mt_rank();
  size = mt_size();
  MT_CHECK(size >= 2 && size <= kMtMaxMembers, "needs 2 to %d ranks",
           kMtMaxMembers);
  side = rank % 2;
  for (int r = 0; r < size; ++r) {
    sides[r % 2][side_size[r % 2]++] = r;
  }
  MPI_Comm local = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, side, rank, &local);
  MPI_Comm inter = MPI_COMM_NULL;
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - side, 8, &inter);

  split_case(inter, color_parity, 100, "split by parity");
  split_case(inter, color_leader_out, 200,
             "split with the parent's leader left out");

  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
  MPI_Finalize();
  return 0;
}
