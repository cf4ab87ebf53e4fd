// SPDX-License-Identifier: MIT
// MPI 4.0 §7.3.2: "union: All elements of the first group (group1), followed
// by all elements of second group (group2) not in the first group.
// intersect: all elements of the first group that are also in the second
// group, ordered as in the first group. difference: all elements of the
// first group that are not in the second group, ordered as in the first
// group." Empty results are MPI_GROUP_EMPTY.
//
// Pairs of subgroups of MPI_COMM_WORLD's group, each checked against the
// same rules computed here on world ranks.
#include "group_check.h"

static int contains(const int* list, int n, int value) {
  for (int i = 0; i < n; ++i) {
    if (list[i] == value) {
      return 1;
    }
  }
  return 0;
}

static void check_pair(MPI_Group world, const int* a, int na, const int* b,
                       int nb, const char* name) {
  const int size = mt_size();
  int* expected = mt_malloc(sizeof(int) * (size_t)(2 * size + 1));
  MPI_Group ga;
  MPI_Group gb;
  MPI_Group g;
  MT_CHECK_MPI(MPI_Group_incl(world, na, a, &ga));
  MT_CHECK_MPI(MPI_Group_incl(world, nb, b, &gb));
  char what[128];

  int n = 0;
  for (int i = 0; i < na; ++i) {
    expected[n++] = a[i];
  }
  for (int i = 0; i < nb; ++i) {
    if (!contains(a, na, b[i])) {
      expected[n++] = b[i];
    }
  }
  MT_CHECK_MPI(MPI_Group_union(ga, gb, &g));
  snprintf(what, sizeof what, "union of %s", name);
  GC_EXPECT(g, expected, n, what);
  MT_CHECK_MPI(MPI_Group_free(&g));

  n = 0;
  for (int i = 0; i < na; ++i) {
    if (contains(b, nb, a[i])) {
      expected[n++] = a[i];
    }
  }
  MT_CHECK_MPI(MPI_Group_intersection(ga, gb, &g));
  snprintf(what, sizeof what, "intersection of %s", name);
  GC_EXPECT(g, expected, n, what);
  MT_CHECK_MPI(MPI_Group_free(&g));

  n = 0;
  for (int i = 0; i < na; ++i) {
    if (!contains(b, nb, a[i])) {
      expected[n++] = a[i];
    }
  }
  MT_CHECK_MPI(MPI_Group_difference(ga, gb, &g));
  snprintf(what, sizeof what, "difference of %s", name);
  GC_EXPECT(g, expected, n, what);
  MT_CHECK_MPI(MPI_Group_free(&g));

  MT_CHECK_MPI(MPI_Group_free(&ga));
  MT_CHECK_MPI(MPI_Group_free(&gb));
  free(expected);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int size = mt_size();
  MPI_Group world;
  MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  int* all = mt_malloc(sizeof(int) * (size_t)size);
  int* reversed = mt_malloc(sizeof(int) * (size_t)size);
  int* odd_down = mt_malloc(sizeof(int) * (size_t)size);
  int* low_half = mt_malloc(sizeof(int) * (size_t)size);
  int n_odd = 0;
  int n_low = 0;
  for (int i = 0; i < size; ++i) {
    all[i] = i;
    reversed[i] = size - 1 - i;
    if (i < (size + 1) / 2) {
      low_half[n_low++] = i;
    }
  }
  for (int r = size - 1; r >= 0; --r) {
    if (r % 2 == 1) {
      odd_down[n_odd++] = r;
    }
  }

  check_pair(world, all, size, reversed, size, "world and its reverse");
  check_pair(world, reversed, size, all, size, "the reverse and world");
  check_pair(world, odd_down, n_odd, low_half, n_low,
             "odd ranks (down) and the low half");
  check_pair(world, low_half, n_low, odd_down, n_odd,
             "the low half and odd ranks (down)");
  check_pair(world, all, size, all, 0, "world and nobody");
  check_pair(world, all, 0, reversed, size, "nobody and the reverse");
  check_pair(world, all, 0, all, 0, "nobody and nobody");

  // The predefined empty group takes part like any other.
  MPI_Group g;
  MT_CHECK_MPI(MPI_Group_union(MPI_GROUP_EMPTY, world, &g));
  GC_EXPECT(g, all, size, "union of MPI_GROUP_EMPTY and world");
  MT_CHECK_MPI(MPI_Group_free(&g));
  MT_CHECK_MPI(MPI_Group_intersection(world, MPI_GROUP_EMPTY, &g));
  GC_EXPECT(g, all, 0, "intersection of world and MPI_GROUP_EMPTY");
  MT_CHECK_MPI(MPI_Group_free(&g));
  MT_CHECK_MPI(MPI_Group_difference(world, world, &g));
  GC_EXPECT(g, all, 0, "difference of world and world");
  MT_CHECK_MPI(MPI_Group_free(&g));

  // Self groups of different ranks meet only through the world group: the
  // union of my self group and the world starts with me.
  MPI_Group self;
  MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &self));
  const int rank = mt_rank();
  int* me_first = mt_malloc(sizeof(int) * (size_t)size);
  int n = 0;
  me_first[n++] = rank;
  for (int i = 0; i < size; ++i) {
    if (i != rank) {
      me_first[n++] = i;
    }
  }
  MT_CHECK_MPI(MPI_Group_union(self, world, &g));
  GC_EXPECT(g, me_first, size, "union of self and world");
  MT_CHECK_MPI(MPI_Group_free(&g));

  MT_CHECK_MPI(MPI_Group_free(&self));
  MT_CHECK_MPI(MPI_Group_free(&world));
  free(me_first);
  free(low_half);
  free(odd_down);
  free(reversed);
  free(all);
  MPI_Finalize();
  return 0;
}
