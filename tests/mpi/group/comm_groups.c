// SPDX-License-Identifier: MIT
// MPI 4.0 §7.3.2: MPI_COMM_GROUP "returns in group a handle to the group of
// comm" (the local group of an inter-communicator, §7.6.1), and
// MPI_COMM_REMOTE_GROUP returns the remote group of an inter-communicator.
//
// The world split by parity with descending keys, and the
// inter-communicator between the two halves.
#include "group_check.h"

// World ranks of parity `color`, highest first; returns how many.
static int half(int size, int color, int* ranks) {
  int n = 0;
  for (int r = size - 1; r >= 0; --r) {
    if (r % 2 == color) {
      ranks[n++] = r;
    }
  }
  return n;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  if (size < 2) {
    MPI_Finalize();
    return MT_SKIP_CODE;
  }
  const int color = rank % 2;
  int* mine = mt_malloc(sizeof(int) * (size_t)size);
  int* theirs = mt_malloc(sizeof(int) * (size_t)size);
  const int n_mine = half(size, color, mine);
  const int n_theirs = half(size, 1 - color, theirs);

  MPI_Comm split;
  MT_CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, -rank, &split));
  MPI_Group local;
  MT_CHECK_MPI(MPI_Comm_group(split, &local));
  GC_EXPECT(local, mine, n_mine, "MPI_Comm_group of the split");

  // Leaders: rank 0 of each half (its highest world rank).
  MPI_Comm inter;
  MT_CHECK_MPI(
      MPI_Intercomm_create(split, 0, MPI_COMM_WORLD, theirs[0], 7, &inter));
  MPI_Group inter_local;
  MPI_Group remote;
  MT_CHECK_MPI(MPI_Comm_group(inter, &inter_local));
  MT_CHECK_MPI(MPI_Comm_remote_group(inter, &remote));
  GC_EXPECT(inter_local, mine, n_mine, "MPI_Comm_group of the intercomm");
  GC_EXPECT(remote, theirs, n_theirs, "MPI_Comm_remote_group");
  int result = -1;
  MT_CHECK_MPI(MPI_Group_compare(local, inter_local, &result));
  MT_CHECK(result == MPI_IDENT, "local groups compare as %d", result);

  // Together the two groups are the world: mine, then theirs.
  MPI_Group both;
  MPI_Group world;
  int* concatenated = mt_malloc(sizeof(int) * (size_t)size);
  int ascending = 1;
  for (int i = 0; i < size; ++i) {
    concatenated[i] = i < n_mine ? mine[i] : theirs[i - n_mine];
    ascending = ascending && concatenated[i] == i;
  }
  MT_CHECK_MPI(MPI_Group_union(inter_local, remote, &both));
  GC_EXPECT(both, concatenated, size, "union of the local and remote group");
  MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  MT_CHECK_MPI(MPI_Group_compare(both, world, &result));
  MT_CHECK(result == (ascending ? MPI_IDENT : MPI_SIMILAR),
           "local + remote vs world: %d", result);
  free(concatenated);
  MPI_Group none;
  MT_CHECK_MPI(MPI_Group_intersection(inter_local, remote, &none));
  MT_CHECK(none == MPI_GROUP_EMPTY, "the two groups of an intercomm overlap");

  MT_CHECK_MPI(MPI_Group_free(&none));
  MT_CHECK_MPI(MPI_Group_free(&world));
  MT_CHECK_MPI(MPI_Group_free(&both));
  MT_CHECK_MPI(MPI_Group_free(&remote));
  MT_CHECK_MPI(MPI_Group_free(&inter_local));
  MT_CHECK_MPI(MPI_Group_free(&local));
  MT_CHECK_MPI(MPI_Comm_free(&inter));
  MT_CHECK_MPI(MPI_Comm_free(&split));
  free(theirs);
  free(mine);
  MPI_Finalize();
  return 0;
}
