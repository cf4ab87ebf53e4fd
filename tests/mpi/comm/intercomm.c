// SPDX-License-Identifier: MIT
// MPI 4.0 §7.6: an intercommunicator joins two disjoint groups;
// MPI_INTERCOMM_CREATE builds one from two intracommunicators whose leaders
// can talk through peer_comm. MPI_COMM_SIZE/RANK give the local group,
// MPI_COMM_REMOTE_SIZE/REMOTE_GROUP the remote one, MPI_COMM_TEST_INTER
// says which kind a communicator is. In point-to-point a process is named by
// its rank in the remote group, for sends and receives alike, and a
// receive's status.MPI_SOURCE is a remote rank.
//
// MPI_COMM_WORLD is split into even and odd ranks, joined with leaders
// world ranks 0 and 1 and MPI_COMM_WORLD as the peer. Checked: the kind of
// each communicator, MPI_Comm_compare (§7.6.1: an intracommunicator and an
// intercommunicator compare MPI_UNEQUAL), sizes, ranks, the local and
// remote groups (through MPI_Group_translate_ranks), messages between every
// pair across it with MPI_ANY_SOURCE, MPI_ANY_TAG and MPI_Probe, and that
// traffic on the intercommunicator, the local communicator and
// MPI_COMM_WORLD with one tag stays apart. Needs at least 2 ranks.
#include "mt_comm.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MT_CHECK(size >= 2 && size <= kMtMaxMembers, "needs 2 to %d ranks",
           kMtMaxMembers);
  const int side = rank % 2;
  int local_members[kMtMaxMembers];
  int remote_members[kMtMaxMembers];
  int nl = 0;
  int nr = 0;
  for (int r = 0; r < size; ++r) {
    if (r % 2 == side) {
      local_members[nl++] = r;
    } else {
      remote_members[nr++] = r;
    }
  }
  MPI_Comm local = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, side, rank, &local);
  MPI_Comm inter = MPI_COMM_NULL;
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, side == 0 ? 1 : 0, 77, &inter);

  int flag = -1;
  MPI_Comm_test_inter(MPI_COMM_WORLD, &flag);
  MT_CHECK(flag == 0, "MPI_Comm_test_inter(MPI_COMM_WORLD) is %d", flag);
  MPI_Comm_test_inter(local, &flag);
  MT_CHECK(flag == 0, "MPI_Comm_test_inter(local) is %d", flag);
  MT_CHECK_INTER(inter, local_members, nl, remote_members, nr,
                 "even/odd intercommunicator");
  MT_CHECK_COMPARE(inter, inter, MPI_IDENT, "intercommunicator with itself");
  // An intracommunicator and an intercommunicator are MPI_UNEQUAL, even
  // when the local groups are the same.
  MT_CHECK_COMPARE(local, inter, MPI_UNEQUAL,
                   "local communicator against the intercommunicator");
  MT_CHECK_COMPARE(MPI_COMM_WORLD, inter, MPI_UNEQUAL,
                   "MPI_COMM_WORLD against the intercommunicator");

  // The remote group against one built from MPI_COMM_WORLD's group.
  MPI_Group world_group;
  MPI_Group remote_group;
  MPI_Group expected_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Comm_remote_group(inter, &remote_group);
  MPI_Group_incl(world_group, nr, remote_members, &expected_group);
  int result = -1;
  MPI_Group_compare(remote_group, expected_group, &result);
  MT_CHECK(result == MPI_IDENT,
           "MPI_Group_compare of the remote group and "
           "the other parity's ranks gave %d, expected MPI_IDENT",
           result);
  int remote_rank_of[kMtMaxMembers];
  int all[kMtMaxMembers];
  for (int r = 0; r < size; ++r) {
    all[r] = r;
  }
  MPI_Group_translate_ranks(world_group, size, all, remote_group,
                            remote_rank_of);
  for (int r = 0; r < size; ++r) {
    const int expected = r % 2 == side ? MPI_UNDEFINED : r / 2;
    MT_CHECK(remote_rank_of[r] == expected,
             "world rank %d translates to remote rank %d, expected %d", r,
             remote_rank_of[r], expected);
  }
  MPI_Group_free(&expected_group);
  MPI_Group_free(&remote_group);
  MPI_Group_free(&world_group);

  // Every pair, wildcards.
  MT_CHECK_INTER_P2P(inter, remote_members, nr, 5, 1, "even/odd");

  // MPI_Probe with wildcards: the status names a remote rank.
  const int my_local = rank / 2;
  const int target = my_local % nr;
  int expect_count = 0;  // remote ranks j with j % nl == my local rank
  for (int j = 0; j < nr; ++j) {
    expect_count += j % nl == my_local;
  }
  const int probe_out[2] = {rank, my_local};
  MPI_Request send_req;
  MPI_Isend(probe_out, 2, MPI_INT, target, 40 + my_local, inter, &send_req);
  for (int k = 0; k < expect_count; ++k) {
    MPI_Status status;
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, inter, &status);
    const int from = status.MPI_SOURCE;
    MT_CHECK(from >= 0 && from < nr && from % nl == my_local &&
                 status.MPI_TAG == 40 + from,
             "MPI_Probe on the intercommunicator: source %d tag %d", from,
             status.MPI_TAG);
    int in[2] = {-1, -1};
    MPI_Recv(in, 2, MPI_INT, from, status.MPI_TAG, inter, MPI_STATUS_IGNORE);
    MT_CHECK(in[0] == remote_members[from] && in[1] == from,
             "probed message from remote rank %d says world rank %d rank %d",
             from, in[0], in[1]);
  }
  MPI_Wait(&send_req, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);

  // One tag on the intercommunicator, the local communicator and
  // MPI_COMM_WORLD at once; wildcard receives on all three.
  enum { kTag = 9 };
  MPI_Comm comms[3] = {inter, local, MPI_COMM_WORLD};
  const int dests[3] = {target, (my_local + 1) % nl, (rank + 1) % size};
  int outs[3][2];
  MPI_Request sreqs[3];
  for (int c = 2; c >= 0; --c) {
    outs[c][0] = c, outs[c][1] = rank;
    MPI_Isend(outs[c], 2, MPI_INT, dests[c], kTag, comms[c], &sreqs[c]);
  }
  const int left_local = (my_local + nl - 1) % nl;
  const int left_world = (rank + size - 1) % size;
  for (int c = 0; c < 3; ++c) {
    const int count = c == 0 ? expect_count : 1;
    for (int k = 0; k < count; ++k) {
      int in[2] = {-1, -1};
      MPI_Status status;
      MPI_Recv(in, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comms[c], &status);
      const int from = status.MPI_SOURCE;
      const int expected_world =
          c == 0   ? (from >= 0 && from < nr ? remote_members[from] : -2)
          : c == 1 ? local_members[left_local]
                   : left_world;
      MT_CHECK(in[0] == c && in[1] == expected_world && status.MPI_TAG == kTag,
               "wildcard receive on %s got the message for %s from world rank "
               "%d (source %d tag %d)",
               c == 0   ? "the intercommunicator"
               : c == 1 ? "the local communicator"
                        : "MPI_COMM_WORLD",
               in[0] == 0   ? "the intercommunicator"
               : in[0] == 1 ? "the local communicator"
                            : "MPI_COMM_WORLD",
               in[1], from, status.MPI_TAG);
    }
  }
  MPI_Waitall(3, sreqs, MPI_STATUSES_IGNORE);

  MPI_Comm_free(&inter);
  MT_CHECK(inter == MPI_COMM_NULL, "MPI_Comm_free left the handle set");
  MPI_Comm_free(&local);
  MPI_Finalize();
  return 0;
}
