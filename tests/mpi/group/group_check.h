// SPDX-License-Identifier: MIT
// Helpers of the group tests: a group's members as MPI_COMM_WORLD ranks, and
// checks of a group against an expected member list.
#ifndef SHMPI_TESTS_MPI_GROUP_GROUP_CHECK_H_
#define SHMPI_TESTS_MPI_GROUP_GROUP_CHECK_H_

#include "mpitest.h"

// members[i] = world rank of rank i of `group`; returns the group's size.
static inline int gc_members(MPI_Group group, int* members) {
  MPI_Group world;
  int size = 0;
  MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  MT_CHECK_MPI(MPI_Group_size(group, &size));
  if (size > 0) {
    int* ranks = mt_malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < size; ++i) {
      ranks[i] = i;
    }
    MT_CHECK_MPI(MPI_Group_translate_ranks(group, size, ranks, world, members));
    free(ranks);
  }
  MT_CHECK_MPI(MPI_Group_free(&world));
  return size;
}

// The group has exactly the world ranks expected[0..n) in this order, and
// MPI_Group_rank agrees with where this process appears. An empty group
// must be MPI_GROUP_EMPTY.
#define GC_EXPECT(group, expected, n, what) \
  gc_expect_at(__FILE__, __LINE__, (group), (expected), (n), (what))

static inline void gc_expect_at(const char* file, int line, MPI_Group group,
                                const int* expected, int n, const char* what) {
  int world_rank = -1;
  int size = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Group_size(group, &size);
  if (size != n) {
    mt_fail_at(file, line, "%s: size %d, expected %d", what, size, n);
  }
  if (n == 0 && group != MPI_GROUP_EMPTY) {
    mt_fail_at(file, line, "%s: an empty result is not MPI_GROUP_EMPTY", what);
  }
  int* members = mt_malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  gc_members(group, members);
  int my_rank = MPI_UNDEFINED;
  for (int i = 0; i < n; ++i) {
    if (members[i] != expected[i]) {
      mt_fail_at(file, line, "%s: rank %d is world rank %d, expected %d", what,
                 i, members[i], expected[i]);
    }
    if (expected[i] == world_rank) {
      my_rank = i;
    }
  }
  free(members);
  int rank = -2;
  MT_CHECK_MPI(MPI_Group_rank(group, &rank));
  if (rank != my_rank) {
    mt_fail_at(file, line, "%s: MPI_Group_rank gives %d, expected %d", what,
               rank, my_rank);
  }
}

#endif  // SHMPI_TESTS_MPI_GROUP_GROUP_CHECK_H_
