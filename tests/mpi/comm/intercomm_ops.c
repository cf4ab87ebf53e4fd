// SPDX-License-Identifier: MIT
// Communicators made from an intercommunicator (MPI 4.0 §7.4.2):
//  - MPI_COMM_DUP of an intercommunicator is an intercommunicator with the
//    same groups and a new context: congruent, traffic kept apart.
//  - MPI_COMM_CREATE: the result is an intercommunicator whose local group
//    is the group argument; each side passes a subgroup of its local group,
//    and processes outside it, or everyone if either side's group is empty,
//    get MPI_COMM_NULL.
// Both on the even/odd intercommunicator of MPI_COMM_WORLD; each result is
// checked for local and remote groups and point-to-point between every
// pair. MPI_COMM_SPLIT of an intercommunicator is in intercomm_split.c.
#include "mt_comm.h"

static int rank;
static int size;
static int side;                     // 0: even world ranks, 1: odd ones
static int sides[2][kMtMaxMembers];  // world ranks of each side, in order
static int side_size[2];

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
  const int other = 1 - side;
  const int local_rank = rank / 2;
  MPI_Comm local = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, side, rank, &local);
  MPI_Comm inter = MPI_COMM_NULL;
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, other, 8, &inter);

  // Dup.
  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Comm_dup(inter, &dup);
  MT_CHECK_INTER(dup, sides[side], side_size[side], sides[other],
                 side_size[other], "dup of the intercommunicator");
  MT_CHECK_COMPARE(inter, dup, MPI_CONGRUENT, "dup of the intercommunicator");
  {
    // Wildcard receives on both, messages on the dup sent first.
    const int nr = side_size[other];
    int in[2][kMtMaxMembers][2];
    const int out[2][2] = {{0, rank}, {1, rank}};
    MPI_Request reqs[4 * kMtMaxMembers];
    MPI_Status statuses[4 * kMtMaxMembers];
    MPI_Comm both[2] = {inter, dup};
    int n = 0;
    for (int c = 0; c < 2; ++c) {
      for (int j = 0; j < nr; ++j) {
        MPI_Irecv(in[c][j], 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, both[c],
                  &reqs[n++]);
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int c = 1; c >= 0; --c) {
      for (int j = 0; j < nr; ++j) {
        MPI_Isend(out[c], 2, MPI_INT, j, 4, both[c], &reqs[n++]);
      }
    }
    MPI_Waitall(n, reqs, statuses);
    for (int c = 0; c < 2; ++c) {
      for (int j = 0; j < nr; ++j) {
        const MPI_Status* st = &statuses[c * nr + j];
        MT_CHECK(st->MPI_SOURCE >= 0 && st->MPI_SOURCE < nr &&
                     st->MPI_TAG == 4 && in[c][j][0] == c &&
                     in[c][j][1] == sides[other][st->MPI_SOURCE],
                 "%s: wildcard receive %d got {%d, world rank %d} from "
                 "source %d tag %d",
                 c == 0 ? "intercommunicator" : "its dup", j, in[c][j][0],
                 in[c][j][1], st->MPI_SOURCE, st->MPI_TAG);
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MT_CHECK_INTER_P2P(dup, sides[other], side_size[other], 2, 100,
                     "dup of the intercommunicator");
  MPI_Comm_free(&dup);

  // Create: side 0 keeps its even local ranks in reverse order, side 1 all
  // but its local rank 0 (if it has 2 or more).
  {
    int keep[2][kMtMaxMembers];  // local ranks kept by each side
    int kept[2] = {0, 0};
    for (int l = side_size[0] - 1; l >= 0; --l) {
      if (l % 2 == 0) {
        keep[0][kept[0]++] = l;
      }
    }
    for (int l = side_size[1] >= 2 ? 1 : 0; l < side_size[1]; ++l) {
      keep[1][kept[1]++] = l;
    }
    int members[2][kMtMaxMembers];
    int mine = 0;
    for (int s = 0; s < 2; ++s) {
      for (int i = 0; i < kept[s]; ++i) {
        members[s][i] = sides[s][keep[s][i]];
        mine = mine || (s == side && keep[s][i] == local_rank);
      }
    }
    MPI_Group local_group;
    MPI_Group group;
    MPI_Comm_group(inter, &local_group);
    MPI_Group_incl(local_group, kept[side], keep[side], &group);
    MPI_Comm sub = MPI_COMM_NULL;
    MPI_Comm_create(inter, group, &sub);
    MPI_Group_free(&group);
    if (!mine) {
      MT_CHECK(sub == MPI_COMM_NULL,
               "MPI_Comm_create on the intercommunicator gave a communicator "
               "to a process outside its group");
    } else {
      MT_CHECK_INTER(sub, members[side], kept[side], members[other],
                     kept[other], "MPI_Comm_create on the intercommunicator");
      MT_CHECK_INTER_P2P(sub, members[other], kept[other], 2, 300,
                         "MPI_Comm_create on the intercommunicator");
      MPI_Comm_free(&sub);
    }

    // Side 1 passes MPI_GROUP_EMPTY: nobody gets a communicator.
    sub = MPI_COMM_WORLD;
    MPI_Comm_create(inter, side == 0 ? local_group : MPI_GROUP_EMPTY, &sub);
    MT_CHECK(sub == MPI_COMM_NULL,
             "MPI_Comm_create on the intercommunicator with one side's group "
             "empty gave a communicator");
    MPI_Group_free(&local_group);
  }

  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
  MPI_Finalize();
  return 0;
}
