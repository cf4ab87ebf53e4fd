// SPDX-License-Identifier: MIT
// MPI 4.0 §7.3.2, MPI_GROUP_RANGE_INCL: the triplets (first, last, stride)
// give "ranks first, first + stride, ..., first + floor((last - first) /
// stride) * stride ... Note that we may have first > last, and stride may be
// negative, but cannot be zero." Range_incl is equivalent to MPI_GROUP_INCL
// of the expanded ranks, range_excl to MPI_GROUP_EXCL of them.
#include "group_check.h"

enum { kMaxTriplets = 3 };

struct Case {
  const char* what;
  int n;
  int ranges[kMaxTriplets][3];
};

// The ranks the triplets stand for.
static int expand(const struct Case* c, int* ranks) {
  int n = 0;
  for (int t = 0; t < c->n; ++t) {
    const int first = c->ranges[t][0];
    const int last = c->ranges[t][1];
    const int stride = c->ranges[t][2];
    for (int k = 0; k <= (last - first) / stride; ++k) {
      ranks[n++] = first + k * stride;
    }
  }
  return n;
}

static void run_case(MPI_Group world, int size, const struct Case* c) {
  int* ranks = mt_malloc(sizeof(int) * (size_t)size);
  int* expected = mt_malloc(sizeof(int) * (size_t)size);
  const int n = expand(c, ranks);
  char what[128];
  int ranges[kMaxTriplets][3];
  memcpy(ranges, c->ranges, sizeof ranges);

  MPI_Group g;
  MT_CHECK_MPI(MPI_Group_range_incl(world, c->n, ranges, &g));
  snprintf(what, sizeof what, "range_incl %s", c->what);
  GC_EXPECT(g, ranks, n, what);
  MT_CHECK_MPI(MPI_Group_free(&g));

  int kept = 0;
  for (int r = 0; r < size; ++r) {
    int excluded = 0;
    for (int i = 0; i < n; ++i) {
      excluded = excluded || ranks[i] == r;
    }
    if (!excluded) {
      expected[kept++] = r;
    }
  }
  MT_CHECK_MPI(MPI_Group_range_excl(world, c->n, ranges, &g));
  snprintf(what, sizeof what, "range_excl %s", c->what);
  GC_EXPECT(g, expected, kept, what);
  MT_CHECK_MPI(MPI_Group_free(&g));
  free(expected);
  free(ranks);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int size = mt_size();
  const int top = size - 1;
  MPI_Group world;
  MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  const struct Case cases[] = {
      {"everyone", 1, {{0, top, 1}}},
      {"everyone backwards", 1, {{top, 0, -1}}},
      {"one rank", 1, {{top, top, 1}}},
      {"one rank, negative stride", 1, {{0, 0, -3}}},
      {"stride 2 from 0", 1, {{0, top, 2}}},
      {"stride 3, last not reached", 1, {{0, top, 3}}},
      {"stride -2 from the top", 1, {{top, 0, -2}}},
      {"stride larger than the group", 1, {{0, top, size + 5}}},
      {"nothing", 0, {{0, 0, 1}}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    run_case(world, size, &cases[i]);
  }
  if (size >= 4) {
    // Several disjoint triplets in both directions: the odd ranks upwards,
    // the even ranks from the top down to 2, then 0.
    const int top_even = top % 2 == 0 ? top : top - 1;
    const struct Case multi = {
        "three triplets", 3, {{1, top, 2}, {top_even, 2, -2}, {0, 0, 1}}};
    run_case(world, size, &multi);
  }
  MT_CHECK_MPI(MPI_Group_free(&world));
  MPI_Finalize();
  return 0;
}
