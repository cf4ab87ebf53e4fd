// SPDX-License-Identifier: MIT
// Helpers of the communicator tests (tests/mpi/comm): which MPI_COMM_WORLD
// ranks a communicator holds, and checks that a communicator has the
// expected members and carries point-to-point and collective traffic among
// exactly them. Plain C11 over standard MPI, like mpitest.h.
#ifndef SHMPI_TESTS_SUPPORT_MT_COMM_H_
#define SHMPI_TESTS_SUPPORT_MT_COMM_H_

#include "mpitest.h"

// Most members a test communicator has (tests run with at most 16 ranks).
enum { kMtMaxMembers = 64 };

// The MPI_COMM_WORLD ranks of a group, in group rank order; returns the
// group's size.
static inline int mt_group_world_ranks(MPI_Group group, int* out) {
  int n = 0;
  MPI_Group_size(group, &n);
  MT_CHECK(n >= 0 && n <= kMtMaxMembers, "group of size %d", n);
  MPI_Group world_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int ranks[kMtMaxMembers];
  for (int i = 0; i < n; ++i) {
    ranks[i] = i;
  }
  MPI_Group_translate_ranks(group, n, ranks, world_group, out);
  MPI_Group_free(&world_group);
  return n;
}

// The MPI_COMM_WORLD ranks of a communicator's (local) group.
static inline int mt_comm_world_ranks(MPI_Comm comm, int* out) {
  MPI_Group group;
  MPI_Comm_group(comm, &group);
  const int n = mt_group_world_ranks(group, out);
  MPI_Group_free(&group);
  return n;
}

// The MPI_COMM_WORLD ranks of an intercommunicator's remote group.
static inline int mt_remote_world_ranks(MPI_Comm inter, int* out) {
  MPI_Group group;
  MPI_Comm_remote_group(inter, &group);
  const int n = mt_group_world_ranks(group, out);
  MPI_Group_free(&group);
  return n;
}

static inline const char* mt_rank_list(const int* ranks, int n) {
  static char text[kMtMaxMembers * 6 + 8];
  size_t used = 0;
  text[0] = '\0';
  for (int i = 0; i < n && used + 8 < sizeof text; ++i) {
    used += (size_t)snprintf(text + used, sizeof text - used, "%s%d",
                             i == 0 ? "" : ",", ranks[i]);
  }
  return text;
}

// Checks that comm is an intracommunicator whose group is expected[0..n)
// (MPI_COMM_WORLD ranks, in rank order) and that the caller has the rank of
// its world rank in that list.
static inline void mt_check_members_at(const char* file, int line,
                                       MPI_Comm comm, const int* expected,
                                       int n, const char* what) {
  if (comm == MPI_COMM_NULL) {
    mt_fail_at(file, line, "%s: got MPI_COMM_NULL, expected members [%s]", what,
               mt_rank_list(expected, n));
  }
  int inter = -1;
  MPI_Comm_test_inter(comm, &inter);
  if (inter) {
    mt_fail_at(file, line, "%s: MPI_Comm_test_inter says intercommunicator",
               what);
  }
  int size = -1;
  int rank = -1;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  const int me = mt_rank();
  int expected_rank = -1;
  for (int i = 0; i < n; ++i) {
    if (expected[i] == me) {
      expected_rank = i;
    }
  }
  if (size != n || rank != expected_rank) {
    mt_fail_at(file, line, "%s: size %d rank %d, expected size %d rank %d",
               what, size, rank, n, expected_rank);
  }
  int members[kMtMaxMembers];
  mt_comm_world_ranks(comm, members);
  for (int i = 0; i < n; ++i) {
    if (members[i] != expected[i]) {
      char got[kMtMaxMembers * 6 + 8];
      snprintf(got, sizeof got, "%s", mt_rank_list(members, n));
      mt_fail_at(file, line, "%s: members (world ranks) [%s], expected [%s]",
                 what, got, mt_rank_list(expected, n));
    }
  }
}
#define MT_CHECK_MEMBERS(comm, expected, n, what) \
  mt_check_members_at(__FILE__, __LINE__, (comm), (expected), (n), (what))

// Checks with an MPI_Allgather of the callers' world ranks that the rank
// order of comm (an intracommunicator) is expected[0..n) (world ranks).
static inline void mt_check_gathered_order_at(const char* file, int line,
                                              MPI_Comm comm,
                                              const int* expected, int n,
                                              const char* what) {
  const int me = mt_rank();
  int got[kMtMaxMembers];
  const int rc = MPI_Allgather(&me, 1, MPI_INT, got, 1, MPI_INT, comm);
  if (rc != MPI_SUCCESS) {
    mt_fail_at(file, line, "%s: MPI_Allgather returned %s", what,
               mt_error_string(rc));
  }
  for (int i = 0; i < n; ++i) {
    if (got[i] != expected[i]) {
      mt_fail_at(file, line,
                 "%s: MPI_Allgather of the world ranks: rank %d is world "
                 "rank %d, expected %d (expected order [%s])",
                 what, i, got[i], expected[i], mt_rank_list(expected, n));
    }
  }
}
#define MT_CHECK_GATHERED_ORDER(comm, expected, n, what)                  \
  mt_check_gathered_order_at(__FILE__, __LINE__, (comm), (expected), (n), \
                             (what))

// Point-to-point on an intracommunicator whose members (world ranks, in rank
// order) are members[0..n): a ring on tag, each rank receiving from its left
// neighbour with MPI_ANY_TAG, then every rank sends to rank 0 on tag + 1,
// which rank 0 receives with MPI_ANY_SOURCE. Each message carries token
// and the sender's world and local ranks, so a message that crossed from
// another communicator (another token, or a sender that is no member) is
// caught.
static inline void mt_check_p2p_at(const char* file, int line, MPI_Comm comm,
                                   const int* members, int n, int tag,
                                   int token, const char* what) {
  int rank = -1;
  MPI_Comm_rank(comm, &rank);
  const int right = (rank + 1) % n;
  const int left = (rank + n - 1) % n;
  int out[3] = {token, mt_rank(), rank};
  int in[3] = {-1, -1, -1};
  MPI_Status status;
  MPI_Sendrecv(out, 3, MPI_INT, right, tag, in, 3, MPI_INT, left, MPI_ANY_TAG,
               comm, &status);
  if (status.MPI_SOURCE != left || status.MPI_TAG != tag || in[0] != token ||
      in[1] != members[left] || in[2] != left) {
    mt_fail_at(file, line,
               "%s: ring message from rank %d tag %d says token %d world "
               "rank %d rank %d; expected rank %d (world %d) tag %d token %d",
               what, status.MPI_SOURCE, status.MPI_TAG, in[0], in[1], in[2],
               left, members[left], tag, token);
  }
  if (rank != 0) {
    MPI_Send(out, 3, MPI_INT, 0, tag + 1, comm);
    return;
  }
  int seen[kMtMaxMembers] = {0};
  for (int i = 1; i < n; ++i) {
    MPI_Recv(in, 3, MPI_INT, MPI_ANY_SOURCE, tag + 1, comm, &status);
    const int from = status.MPI_SOURCE;
    if (from < 1 || from >= n || seen[from] || status.MPI_TAG != tag + 1 ||
        in[0] != token || in[1] != members[from] || in[2] != from) {
      mt_fail_at(file, line,
                 "%s: message to rank 0 from rank %d tag %d says token %d "
                 "world rank %d rank %d (expected tag %d token %d)",
                 what, from, status.MPI_TAG, in[0], in[1], in[2], tag + 1,
                 token);
    }
    seen[from] = 1;
  }
}
#define MT_CHECK_P2P(comm, members, n, tag, token, what)                      \
  mt_check_p2p_at(__FILE__, __LINE__, (comm), (members), (n), (tag), (token), \
                  (what))

// Collectives on an intracommunicator whose members are members[0..n):
// MPI_Barrier, MPI_Bcast from the first and the last rank, MPI_Allreduce
// (sum and max of the world ranks), MPI_Allgather of the world ranks.
static inline void mt_check_collectives_at(const char* file, int line,
                                           MPI_Comm comm, const int* members,
                                           int n, const char* what) {
  int rank = -1;
  MPI_Comm_rank(comm, &rank);
  const int me = mt_rank();
  MPI_Barrier(comm);
  const int roots[2] = {0, n - 1};
  for (int r = 0; r < (n > 1 ? 2 : 1); ++r) {
    const int root = roots[r];
    int buf[4] = {-1, -1, -1, -1};
    if (rank == root) {
      buf[0] = 1000 + root, buf[1] = me, buf[2] = n, buf[3] = 7;
    }
    MPI_Bcast(buf, 4, MPI_INT, root, comm);
    if (buf[0] != 1000 + root || buf[1] != members[root] || buf[2] != n ||
        buf[3] != 7) {
      mt_fail_at(file, line,
                 "%s: MPI_Bcast from rank %d gave {%d, %d, %d, %d}, expected "
                 "{%d, %d, %d, 7}",
                 what, root, buf[0], buf[1], buf[2], buf[3], 1000 + root,
                 members[root], n);
    }
  }
  long sum = 0;
  int max = -1;
  for (int i = 0; i < n; ++i) {
    sum += members[i] + 1;
    max = members[i] > max ? members[i] : max;
  }
  const long mine[2] = {me + 1, me};
  long reduced[2] = {-1, -1};
  MPI_Allreduce(&mine[0], &reduced[0], 1, MPI_LONG, MPI_SUM, comm);
  MPI_Allreduce(&mine[1], &reduced[1], 1, MPI_LONG, MPI_MAX, comm);
  if (reduced[0] != sum || reduced[1] != max) {
    mt_fail_at(file, line,
               "%s: MPI_Allreduce gave sum %ld max %ld, expected %ld and %d",
               what, reduced[0], reduced[1], sum, max);
  }
  int gathered[kMtMaxMembers * 2];
  const int pair[2] = {me, rank};
  MPI_Allgather(pair, 2, MPI_INT, gathered, 2, MPI_INT, comm);
  for (int i = 0; i < n; ++i) {
    if (gathered[2 * i] != members[i] || gathered[2 * i + 1] != i) {
      mt_fail_at(file, line,
                 "%s: MPI_Allgather block %d is {%d, %d}, expected {%d, %d}",
                 what, i, gathered[2 * i], gathered[2 * i + 1], members[i], i);
    }
  }
}
#define MT_CHECK_COLLECTIVES(comm, members, n, what) \
  mt_check_collectives_at(__FILE__, __LINE__, (comm), (members), (n), (what))

// Checks that inter is an intercommunicator whose local group is
// local[0..nl) and remote group remote[0..nr) (world ranks, in rank order).
static inline void mt_check_inter_at(const char* file, int line, MPI_Comm inter,
                                     const int* local, int nl,
                                     const int* remote, int nr,
                                     const char* what) {
  if (inter == MPI_COMM_NULL) {
    mt_fail_at(file, line, "%s: got MPI_COMM_NULL", what);
  }
  int is_inter = 0;
  MPI_Comm_test_inter(inter, &is_inter);
  if (!is_inter) {
    mt_fail_at(file, line, "%s: MPI_Comm_test_inter says intracommunicator",
               what);
  }
  int size = -1;
  int rank = -1;
  int remote_size = -1;
  MPI_Comm_size(inter, &size);
  MPI_Comm_rank(inter, &rank);
  MPI_Comm_remote_size(inter, &remote_size);
  const int me = mt_rank();
  int expected_rank = -1;
  for (int i = 0; i < nl; ++i) {
    if (local[i] == me) {
      expected_rank = i;
    }
  }
  if (size != nl || rank != expected_rank || remote_size != nr) {
    mt_fail_at(file, line,
               "%s: size %d rank %d remote size %d, expected %d, %d and %d",
               what, size, rank, remote_size, nl, expected_rank, nr);
  }
  int got[kMtMaxMembers];
  char text[kMtMaxMembers * 6 + 8];
  mt_comm_world_ranks(inter, got);
  for (int i = 0; i < nl; ++i) {
    if (got[i] != local[i]) {
      snprintf(text, sizeof text, "%s", mt_rank_list(got, nl));
      mt_fail_at(file, line,
                 "%s: local group (world ranks) [%s], expected [%s]", what,
                 text, mt_rank_list(local, nl));
    }
  }
  mt_remote_world_ranks(inter, got);
  for (int i = 0; i < nr; ++i) {
    if (got[i] != remote[i]) {
      snprintf(text, sizeof text, "%s", mt_rank_list(got, nr));
      mt_fail_at(file, line,
                 "%s: remote group (world ranks) [%s], expected [%s]", what,
                 text, mt_rank_list(remote, nr));
    }
  }
}
#define MT_CHECK_INTER(inter, local, nl, remote, nr, what)                \
  mt_check_inter_at(__FILE__, __LINE__, (inter), (local), (nl), (remote), \
                    (nr), (what))

// Point-to-point across an intercommunicator whose remote group is
// remote[0..nr) (world ranks): every rank sends one message to every remote
// rank on tag and receives one from each with MPI_ANY_SOURCE (the status
// must name a remote rank), then the same on tag + 1 received from each
// remote rank by rank with MPI_ANY_TAG. Messages carry token and the
// sender's world and local ranks.
static inline void mt_check_inter_p2p_at(const char* file, int line,
                                         MPI_Comm inter, const int* remote,
                                         int nr, int tag, int token,
                                         const char* what) {
  int rank = -1;
  MPI_Comm_rank(inter, &rank);
  int out[4] = {token, mt_rank(), rank, -1};
  int in[kMtMaxMembers][4];
  int outs[kMtMaxMembers][4];
  MPI_Request reqs[2 * kMtMaxMembers];
  MPI_Status statuses[2 * kMtMaxMembers];
  for (int round = 0; round < 2; ++round) {
    for (int j = 0; j < nr; ++j) {
      memcpy(outs[j], out, sizeof out);
      outs[j][3] = j;  // the receiver's rank
      MPI_Isend(outs[j], 4, MPI_INT, j, tag + round, inter, &reqs[nr + j]);
    }
    for (int j = 0; j < nr; ++j) {
      in[j][0] = in[j][1] = in[j][2] = in[j][3] = -1;
      if (round == 0) {
        MPI_Irecv(in[j], 4, MPI_INT, MPI_ANY_SOURCE, tag, inter, &reqs[j]);
      } else {
        MPI_Irecv(in[j], 4, MPI_INT, j, MPI_ANY_TAG, inter, &reqs[j]);
      }
    }
    MPI_Waitall(2 * nr, reqs, statuses);
    int seen[kMtMaxMembers] = {0};
    for (int j = 0; j < nr; ++j) {
      const int from = statuses[j].MPI_SOURCE;
      const int ok =
          from >= 0 && from < nr && !seen[from] && (round == 0 || from == j) &&
          statuses[j].MPI_TAG == tag + round && in[j][0] == token &&
          in[j][1] == remote[from] && in[j][2] == from && in[j][3] == rank;
      if (!ok) {
        mt_fail_at(file, line,
                   "%s: %s receive %d across the intercommunicator: source "
                   "%d tag %d, message {token %d, world rank %d, rank %d, to "
                   "%d}; expected token %d tag %d to %d from a remote rank "
                   "(remote group, world ranks: [%s])",
                   what, round == 0 ? "MPI_ANY_SOURCE" : "MPI_ANY_TAG", j, from,
                   statuses[j].MPI_TAG, in[j][0], in[j][1], in[j][2], in[j][3],
                   token, tag + round, rank, mt_rank_list(remote, nr));
      }
      seen[from] = 1;
    }
  }
}
#define MT_CHECK_INTER_P2P(inter, remote, nr, tag, token, what)             \
  mt_check_inter_p2p_at(__FILE__, __LINE__, (inter), (remote), (nr), (tag), \
                        (token), (what))

// Checks MPI_Comm_compare(a, b).
static inline const char* mt_compare_name(int result) {
  return result == MPI_IDENT       ? "MPI_IDENT"
         : result == MPI_CONGRUENT ? "MPI_CONGRUENT"
         : result == MPI_SIMILAR   ? "MPI_SIMILAR"
         : result == MPI_UNEQUAL   ? "MPI_UNEQUAL"
                                   : "(not a comparison result)";
}
#define MT_CHECK_COMPARE(a, b, expected, what)                             \
  do {                                                                     \
    int mt_cmp_ = -1;                                                      \
    MPI_Comm_compare((a), (b), &mt_cmp_);                                  \
    MT_CHECK(mt_cmp_ == (expected),                                        \
             "%s: MPI_Comm_compare gave %s, expected "                     \
             "%s",                                                         \
             (what), mt_compare_name(mt_cmp_), mt_compare_name(expected)); \
  } while (0)

#endif  // SHMPI_TESTS_SUPPORT_MT_COMM_H_
