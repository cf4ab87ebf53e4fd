// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4: MPI_ERR_GROUP, "Invalid group". MPI_GROUP_NULL names no
// group, so every group call that is given it as a group fails with that
// class, MPI_Group_free included. With "fatal", the first call must end the
// job with a readable message.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group out = MPI_GROUP_NULL;
  int value = 0;
  int rank0 = 0;
  int range[1][3] = {{0, 0, 1}};
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Group_size(MPI_GROUP_NULL, &value),
                    MPI_ERR_GROUP, "MPI_Group_size(MPI_GROUP_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Group_rank(MPI_GROUP_NULL, &value),
                    MPI_ERR_GROUP, "MPI_Group_rank(MPI_GROUP_NULL)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Group_translate_ranks(MPI_GROUP_NULL, 1, &rank0, world, &value),
        MPI_ERR_GROUP, "MPI_Group_translate_ranks(group1 = MPI_GROUP_NULL)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Group_translate_ranks(world, 1, &rank0, MPI_GROUP_NULL, &value),
        MPI_ERR_GROUP, "MPI_Group_translate_ranks(group2 = MPI_GROUP_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Group_compare(world, MPI_GROUP_NULL, &value),
                    MPI_ERR_GROUP, "MPI_Group_compare(MPI_GROUP_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Group_incl(MPI_GROUP_NULL, 1, &rank0, &out),
                    MPI_ERR_GROUP, "MPI_Group_incl(MPI_GROUP_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Group_excl(MPI_GROUP_NULL, 1, &rank0, &out),
                    MPI_ERR_GROUP, "MPI_Group_excl(MPI_GROUP_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Group_range_incl(MPI_GROUP_NULL, 1, range, &out),
                    MPI_ERR_GROUP, "MPI_Group_range_incl(MPI_GROUP_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Group_range_excl(MPI_GROUP_NULL, 1, range, &out),
                    MPI_ERR_GROUP, "MPI_Group_range_excl(MPI_GROUP_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Group_union(MPI_GROUP_NULL, world, &out),
                    MPI_ERR_GROUP, "MPI_Group_union(group1 = MPI_GROUP_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Group_intersection(world, MPI_GROUP_NULL, &out),
                    MPI_ERR_GROUP,
                    "MPI_Group_intersection(group2 = MPI_GROUP_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Group_difference(MPI_GROUP_NULL, world, &out),
                    MPI_ERR_GROUP, "MPI_Group_difference(MPI_GROUP_NULL)");
    MPI_Group null_group = MPI_GROUP_NULL;
    MT_EXPECT_CLASS(fatal, MPI_Group_free(&null_group), MPI_ERR_GROUP,
                    "MPI_Group_free(&MPI_GROUP_NULL)");
  }
  MPI_Group_free(&world);
  return mt_errors_finish(fatal);
}
