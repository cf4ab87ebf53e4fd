// SPDX-License-Identifier: MIT
// MPI 4.0 §7.3.1, MPI_GROUP_COMPARE: "MPI_IDENT results if the group members
// and group order is exactly the same in both groups ... MPI_SIMILAR results
// if the group members are the same but the order is different.
// MPI_UNEQUAL results otherwise."
#include "group_check.h"

static void expect_compare(MPI_Group a, MPI_Group b, int expected,
                           const char* what) {
  int result = -1;
  MT_CHECK_MPI(MPI_Group_compare(a, b, &result));
  MT_CHECK(result == expected, "%s: %d, expected %d", what, result, expected);
  MT_CHECK_MPI(MPI_Group_compare(b, a, &result));
  MT_CHECK(result == expected, "%s (swapped): %d, expected %d", what, result,
           expected);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int size = mt_size();
  MPI_Group world;
  MPI_Group self;
  MPI_Group reversed;
  MPI_Group rotated;
  MPI_Group copy;
  MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &self));
  int* ranks = mt_malloc(sizeof(int) * (size_t)size);
  for (int i = 0; i < size; ++i) {
    ranks[i] = size - 1 - i;
  }
  MT_CHECK_MPI(MPI_Group_incl(world, size, ranks, &reversed));
  for (int i = 0; i < size; ++i) {
    ranks[i] = (i + 1) % size;
  }
  MT_CHECK_MPI(MPI_Group_incl(world, size, ranks, &rotated));
  for (int i = 0; i < size; ++i) {
    ranks[i] = i;
  }
  MT_CHECK_MPI(MPI_Group_incl(world, size, ranks, &copy));

  expect_compare(world, world, MPI_IDENT, "world vs itself");
  expect_compare(world, copy, MPI_IDENT, "world vs an identical copy");
  // One member: any order is the same order.
  const int order_differs = size > 1 ? MPI_SIMILAR : MPI_IDENT;
  expect_compare(world, reversed, order_differs, "world vs reversed");
  expect_compare(world, rotated, order_differs, "world vs rotated");
  // The self group is the world only in a world of one.
  expect_compare(world, self, size > 1 ? MPI_UNEQUAL : MPI_IDENT,
                 "world vs self");
  expect_compare(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, MPI_IDENT, "empty vs empty");
  expect_compare(world, MPI_GROUP_EMPTY, MPI_UNEQUAL, "world vs empty");
  if (size > 2) {
    // Same size, different members.
    MPI_Group first;
    MPI_Group last;
    const int zero = 0;
    const int top = size - 1;
    MT_CHECK_MPI(MPI_Group_excl(world, 1, &zero, &first));
    MT_CHECK_MPI(MPI_Group_excl(world, 1, &top, &last));
    expect_compare(first, last, MPI_UNEQUAL, "world-{0} vs world-{n-1}");
    MT_CHECK_MPI(MPI_Group_free(&first));
    MT_CHECK_MPI(MPI_Group_free(&last));
  }

  MT_CHECK_MPI(MPI_Group_free(&copy));
  MT_CHECK_MPI(MPI_Group_free(&rotated));
  MT_CHECK_MPI(MPI_Group_free(&reversed));
  MT_CHECK_MPI(MPI_Group_free(&self));
  MT_CHECK_MPI(MPI_Group_free(&world));
  free(ranks);
  MPI_Finalize();
  return 0;
}
