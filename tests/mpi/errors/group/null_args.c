// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4: MPI_ERR_ARG, "Invalid argument of some other kind": a NULL
// pointer where a group call stores its result, a negative n, or a NULL
// array with n > 0 for an output.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group out = MPI_GROUP_NULL;
  int rank0 = 0;
  int value = 0;
  int range[1][3] = {{0, 0, 1}};
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Group_size(world, NULL), MPI_ERR_ARG,
                    "MPI_Group_size(size = NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Group_rank(world, NULL), MPI_ERR_ARG,
                    "MPI_Group_rank(rank = NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Group_compare(world, world, NULL), MPI_ERR_ARG,
                    "MPI_Group_compare(result = NULL)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Group_translate_ranks(world, 1, &rank0, world, NULL),
                    MPI_ERR_ARG, "MPI_Group_translate_ranks(ranks2 = NULL)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Group_translate_ranks(world, -1, &rank0, world, &value),
                    MPI_ERR_ARG, "MPI_Group_translate_ranks(n = -1)");
    MT_EXPECT_CLASS(fatal, MPI_Group_incl(world, 1, &rank0, NULL), MPI_ERR_ARG,
                    "MPI_Group_incl(newgroup = NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Group_incl(world, -1, &rank0, &out), MPI_ERR_ARG,
                    "MPI_Group_incl(n = -1)");
    MT_EXPECT_CLASS(fatal, MPI_Group_excl(world, -1, &rank0, &out), MPI_ERR_ARG,
                    "MPI_Group_excl(n = -1)");
    MT_EXPECT_CLASS(fatal, MPI_Group_range_incl(world, -1, range, &out),
                    MPI_ERR_ARG, "MPI_Group_range_incl(n = -1)");
    MT_EXPECT_CLASS(fatal, MPI_Group_range_excl(world, 1, range, NULL),
                    MPI_ERR_ARG, "MPI_Group_range_excl(newgroup = NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Group_union(world, world, NULL), MPI_ERR_ARG,
                    "MPI_Group_union(newgroup = NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Group_intersection(world, world, NULL),
                    MPI_ERR_ARG, "MPI_Group_intersection(newgroup = NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Group_difference(world, world, NULL),
                    MPI_ERR_ARG, "MPI_Group_difference(newgroup = NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Group_free(NULL), MPI_ERR_ARG,
                    "MPI_Group_free(NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_group(MPI_COMM_WORLD, NULL), MPI_ERR_ARG,
                    "MPI_Comm_group(group = NULL)");
  }
  MPI_Group_free(&world);
  return mt_errors_finish(fatal);
}
