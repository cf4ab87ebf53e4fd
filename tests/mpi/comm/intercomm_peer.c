// SPDX-License-Identifier: MIT
// MPI 4.0 §7.6.2: MPI_INTERCOMM_CREATE(local_comm, local_leader, peer_comm,
// remote_leader, tag): peer_comm and remote_leader matter only at the local
// leader; the leaders need not be rank 0; the groups may differ in size.
//
// Group A is the first quarter of MPI_COMM_WORLD (at least one rank), group
// B the rest, in reverse order. A's leader is its last rank, B's its local
// rank 1 (0 if alone). The peer communicator holds only the two leaders
// (B's first, so neither leader has its world rank there); the other ranks
// pass MPI_COMM_NULL as peer_comm. Then a second intercommunicator between
// the same groups with MPI_COMM_WORLD as the peer, leaders local rank 0,
// and the same tag. Both are checked for sizes, ranks, local and remote
// groups and messages between every pair, and kept apart from each other.
#include "mt_comm.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MT_CHECK(size >= 2 && size <= kMtMaxMembers, "needs 2 to %d ranks",
           kMtMaxMembers);
  const int a_size = size / 4 > 0 ? size / 4 : 1;
  const int in_a = rank < a_size;
  int a_members[kMtMaxMembers];
  int b_members[kMtMaxMembers];
  const int b_size = size - a_size;
  for (int i = 0; i < a_size; ++i) {
    a_members[i] = i;
  }
  for (int i = 0; i < b_size; ++i) {
    b_members[i] = size - 1 - i;  // reverse order
  }
  const int* local_members = in_a ? a_members : b_members;
  const int* remote_members = in_a ? b_members : a_members;
  const int nl = in_a ? a_size : b_size;
  const int nr = in_a ? b_size : a_size;

  MPI_Comm local = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, in_a ? 0 : 1, in_a ? rank : size - rank,
                 &local);
  MT_CHECK_MEMBERS(local, local_members, nl, "local group");
  int local_rank = -1;
  MPI_Comm_rank(local, &local_rank);

  // The peer communicator: the two leaders, B's first.
  const int a_leader = a_size - 1;
  const int b_leader = b_size > 1 ? 1 : 0;
  const int my_leader = in_a ? a_leader : b_leader;
  const int is_leader = local_rank == my_leader;
  MPI_Comm peer = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, is_leader ? 0 : MPI_UNDEFINED, in_a ? 1 : 0,
                 &peer);
  MT_CHECK((peer != MPI_COMM_NULL) == is_leader,
           "the peer communicator is %s on a %s",
           peer == MPI_COMM_NULL ? "MPI_COMM_NULL" : "set",
           is_leader ? "leader" : "non-leader");
  MPI_Comm inter = MPI_COMM_NULL;
  MPI_Intercomm_create(local, my_leader, peer, in_a ? 0 : 1, 123, &inter);
  MT_CHECK_INTER(inter, local_members, nl, remote_members, nr,
                 "A/B through a peer of the leaders");

  // The same groups again, MPI_COMM_WORLD as the peer, the same tag.
  MPI_Comm inter2 = MPI_COMM_NULL;
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD,
                       in_a ? b_members[0] : a_members[0], 123, &inter2);
  MT_CHECK_INTER(inter2, local_members, nl, remote_members, nr,
                 "A/B through MPI_COMM_WORLD");
  MT_CHECK_COMPARE(inter, inter2, MPI_CONGRUENT,
                   "two intercommunicators between the same groups");

  // Both at once on the same tag: wildcard receives posted on both, then
  // every rank sends to every remote rank on both.
  int in[2][kMtMaxMembers][2];
  int out[2][2] = {{0, rank}, {1, rank}};
  MPI_Request reqs[4 * kMtMaxMembers];
  MPI_Status statuses[4 * kMtMaxMembers];
  MPI_Comm both[2] = {inter, inter2};
  int n = 0;
  for (int c = 0; c < 2; ++c) {
    for (int j = 0; j < nr; ++j) {
      MPI_Irecv(in[c][j], 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, both[c],
                &reqs[n++]);
    }
  }
  for (int c = 1; c >= 0; --c) {
    for (int j = 0; j < nr; ++j) {
      MPI_Isend(out[c], 2, MPI_INT, j, 6, both[c], &reqs[n++]);
    }
  }
  MPI_Waitall(n, reqs, statuses);
  for (int c = 0; c < 2; ++c) {
    int seen[kMtMaxMembers] = {0};
    for (int j = 0; j < nr; ++j) {
      const MPI_Status* st = &statuses[c * nr + j];
      const int from = st->MPI_SOURCE;
      MT_CHECK(from >= 0 && from < nr && !seen[from] && st->MPI_TAG == 6 &&
                   in[c][j][0] == c && in[c][j][1] == remote_members[from],
               "intercommunicator %d: wildcard receive %d got {%d, world rank "
               "%d} from source %d tag %d",
               c, j, in[c][j][0], in[c][j][1], from, st->MPI_TAG);
      seen[from] = 1;
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MT_CHECK_INTER_P2P(inter, remote_members, nr, 2, 10, "through the leaders");
  MT_CHECK_INTER_P2P(inter2, remote_members, nr, 2, 11, "through the world");

  MPI_Comm_free(&inter2);
  MPI_Comm_free(&inter);
  if (peer != MPI_COMM_NULL) {
    MPI_Comm_free(&peer);
  }
  MPI_Comm_free(&local);
  MPI_Finalize();
  return 0;
}
