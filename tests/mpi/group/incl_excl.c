// SPDX-License-Identifier: MIT
// MPI 4.0 §7.3.2: MPI_GROUP_INCL: "The process with rank i in newgroup is
// the process with rank ranks[i] in group ... If n = 0, then newgroup is
// MPI_GROUP_EMPTY." MPI_GROUP_EXCL: "The ordering of processes in newgroup
// is identical to the ordering in group ... If n = 0, then newgroup is
// identical to group."
#include "group_check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int size = mt_size();
  MPI_Group world;
  MPI_Group g;
  MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  int* ranks = mt_malloc(sizeof(int) * (size_t)size);
  int* expected = mt_malloc(sizeof(int) * (size_t)size);

  // incl: every odd rank, highest first.
  int n = 0;
  for (int r = size - 1; r >= 0; --r) {
    if (r % 2 == 1) {
      ranks[n] = r;
      expected[n] = r;
      ++n;
    }
  }
  MT_CHECK_MPI(MPI_Group_incl(world, n, ranks, &g));
  GC_EXPECT(g, expected, n, "incl of the odd ranks, reversed");
  MT_CHECK_MPI(MPI_Group_free(&g));

  // incl of a permutation of everyone.
  for (int i = 0; i < size; ++i) {
    ranks[i] = (i * 5 + 3) % size;
  }
  int distinct = 1;  // the permutation needs gcd(5, size) = 1
  for (int i = 0; i < size && distinct; ++i) {
    for (int j = 0; j < i; ++j) {
      distinct = distinct && ranks[i] != ranks[j];
    }
  }
  if (distinct) {
    MT_CHECK_MPI(MPI_Group_incl(world, size, ranks, &g));
    GC_EXPECT(g, ranks, size, "incl of a permutation");
    MT_CHECK_MPI(MPI_Group_free(&g));
  }

  // incl of nobody is MPI_GROUP_EMPTY; the array may be NULL then.
  MT_CHECK_MPI(MPI_Group_incl(world, 0, ranks, &g));
  GC_EXPECT(g, expected, 0, "incl with n = 0");
  MT_CHECK_MPI(MPI_Group_free(&g));
  MT_CHECK_MPI(MPI_Group_incl(MPI_GROUP_EMPTY, 0, NULL, &g));
  GC_EXPECT(g, expected, 0, "incl of MPI_GROUP_EMPTY with n = 0");
  MT_CHECK_MPI(MPI_Group_free(&g));

  // excl: the even ranks, named in any order, leave the odd ones in order.
  n = 0;
  for (int r = size - 1; r >= 0; --r) {
    if (r % 2 == 0) {
      ranks[n++] = r;
    }
  }
  int kept = 0;
  for (int r = 0; r < size; ++r) {
    if (r % 2 == 1) {
      expected[kept++] = r;
    }
  }
  MT_CHECK_MPI(MPI_Group_excl(world, n, ranks, &g));
  GC_EXPECT(g, expected, kept, "excl of the even ranks");
  MT_CHECK_MPI(MPI_Group_free(&g));

  // excl of nobody is the same group.
  for (int i = 0; i < size; ++i) {
    expected[i] = i;
  }
  MT_CHECK_MPI(MPI_Group_excl(world, 0, ranks, &g));
  GC_EXPECT(g, expected, size, "excl with n = 0");
  int result = -1;
  MT_CHECK_MPI(MPI_Group_compare(world, g, &result));
  MT_CHECK(result == MPI_IDENT, "excl with n = 0 compares as %d", result);
  MT_CHECK_MPI(MPI_Group_free(&g));

  // excl of everyone is MPI_GROUP_EMPTY.
  for (int i = 0; i < size; ++i) {
    ranks[i] = i;
  }
  MT_CHECK_MPI(MPI_Group_excl(world, size, ranks, &g));
  GC_EXPECT(g, expected, 0, "excl of everyone");
  MT_CHECK_MPI(MPI_Group_free(&g));

  // A subgroup of a subgroup: ranks refer to the subgroup.
  if (size >= 4) {
    MPI_Group top;
    MPI_Group sub;
    const int upper[] = {size - 1, size - 2, size - 3};
    const int pick[] = {2, 0};
    MT_CHECK_MPI(MPI_Group_incl(world, 3, upper, &top));
    MT_CHECK_MPI(MPI_Group_incl(top, 2, pick, &sub));
    const int want[] = {size - 3, size - 1};
    GC_EXPECT(sub, want, 2, "incl of an incl");
    MT_CHECK_MPI(MPI_Group_free(&sub));
    MT_CHECK_MPI(MPI_Group_excl(top, 2, pick, &sub));
    GC_EXPECT(sub, &upper[1], 1, "excl of an incl");
    MT_CHECK_MPI(MPI_Group_free(&sub));
    MT_CHECK_MPI(MPI_Group_free(&top));
  }

  MT_CHECK_MPI(MPI_Group_free(&world));
  free(expected);
  free(ranks);
  MPI_Finalize();
  return 0;
}
