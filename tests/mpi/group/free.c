// SPDX-License-Identifier: MIT
// MPI 4.0 §7.3.3, MPI_GROUP_FREE: "This operation marks a group object for
// deallocation. The handle group is set to MPI_GROUP_NULL by the call."
//
// Handles are reused without limit (many create/free rounds), freeing one
// group leaves the others intact, and MPI_GROUP_EMPTY, which constructors
// hand out for empty results, can be freed like the groups it stands for.
#include "group_check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int size = mt_size();
  const int rank = mt_rank();
  MPI_Group world;
  MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));

  // Far more rounds than any handle table would hold at once.
  const long rounds = mt_scale(100000);
  for (long i = 0; i < rounds; ++i) {
    MPI_Group g;
    MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &g));
    MT_CHECK_MPI(MPI_Group_free(&g));
    MT_CHECK(g == MPI_GROUP_NULL, "round %ld: handle not reset", i);
  }

  // Freeing one group of several leaves the others usable.
  MPI_Group keep[8];
  for (int i = 0; i < 8; ++i) {
    MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &keep[i]));
  }
  for (int i = 0; i < 8; i += 2) {
    MT_CHECK_MPI(MPI_Group_free(&keep[i]));
  }
  int* all = mt_malloc(sizeof(int) * (size_t)size);
  for (int i = 0; i < size; ++i) {
    all[i] = i;
  }
  for (int i = 1; i < 8; i += 2) {
    GC_EXPECT(keep[i], all, size, "a group whose neighbours were freed");
    MT_CHECK_MPI(MPI_Group_free(&keep[i]));
  }

  // A derived group does not depend on the group it came from.
  MPI_Group derived;
  MPI_Group source;
  MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &source));
  MT_CHECK_MPI(MPI_Group_incl(source, 1, &rank, &derived));
  MT_CHECK_MPI(MPI_Group_free(&source));
  GC_EXPECT(derived, &rank, 1, "a group whose source was freed");
  MT_CHECK_MPI(MPI_Group_free(&derived));

  // An empty result is MPI_GROUP_EMPTY, and freeing it is fine.
  MPI_Group empty;
  MT_CHECK_MPI(MPI_Group_incl(world, 0, all, &empty));
  MT_CHECK(empty == MPI_GROUP_EMPTY, "empty incl is not MPI_GROUP_EMPTY");
  MT_CHECK_MPI(MPI_Group_free(&empty));
  MT_CHECK(empty == MPI_GROUP_NULL, "freed MPI_GROUP_EMPTY handle not reset");
  int value = -1;
  MT_CHECK_MPI(MPI_Group_size(MPI_GROUP_EMPTY, &value));
  MT_CHECK(value == 0, "MPI_GROUP_EMPTY has size %d after a free", value);

  MT_CHECK_MPI(MPI_Group_free(&world));
  free(all);
  MPI_Finalize();
  return 0;
}
