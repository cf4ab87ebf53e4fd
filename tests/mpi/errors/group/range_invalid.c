// SPDX-License-Identifier: MIT
// MPI 4.0 §7.3.2, MPI_GROUP_RANGE_INCL/EXCL: "Each computed rank must be a
// valid rank in group and all computed ranks must be distinct ... stride
// may be negative, but cannot be zero." A triplet whose ends are not ranks
// of the group, a zero stride, a stride that points away from last, and a
// rank computed twice are each an invalid triplet: MPI_ERR_ARG, as in MPICH
// (the standard names no class).
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  const int size = mt_size();
  const int top = size - 1;
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group out = MPI_GROUP_NULL;
  int zero_stride[1][3] = {{0, top, 0}};
  int first_too_big[1][3] = {{size, 0, -1}};
  int first_negative[1][3] = {{-1, top, 1}};
  int last_too_big[1][3] = {{0, size, 1}};
  int wrong_way[1][3] = {{top, 0, 1}};
  int twice[2][3] = {{0, top, 1}, {top, top, 1}};
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Group_range_incl(world, 1, zero_stride, &out),
                    MPI_ERR_ARG, "MPI_Group_range_incl(stride 0)");
    MT_EXPECT_CLASS(fatal, MPI_Group_range_excl(world, 1, zero_stride, &out),
                    MPI_ERR_ARG, "MPI_Group_range_excl(stride 0)");
    MT_EXPECT_CLASS(fatal, MPI_Group_range_incl(world, 1, first_too_big, &out),
                    MPI_ERR_ARG, "MPI_Group_range_incl(first = size)");
    MT_EXPECT_CLASS(fatal, MPI_Group_range_excl(world, 1, first_too_big, &out),
                    MPI_ERR_ARG, "MPI_Group_range_excl(first = size)");
    MT_EXPECT_CLASS(fatal, MPI_Group_range_incl(world, 1, first_negative, &out),
                    MPI_ERR_ARG, "MPI_Group_range_incl(first = -1)");
    MT_EXPECT_CLASS(fatal, MPI_Group_range_incl(world, 1, last_too_big, &out),
                    MPI_ERR_ARG, "MPI_Group_range_incl(last = size)");
    MT_EXPECT_CLASS(fatal, MPI_Group_range_excl(world, 1, last_too_big, &out),
                    MPI_ERR_ARG, "MPI_Group_range_excl(last = size)");
    MT_EXPECT_CLASS(fatal, MPI_Group_range_incl(world, 2, twice, &out),
                    MPI_ERR_ARG, "MPI_Group_range_incl(rank n-1 twice)");
    MT_EXPECT_CLASS(fatal, MPI_Group_range_excl(world, 2, twice, &out),
                    MPI_ERR_ARG, "MPI_Group_range_excl(rank n-1 twice)");
    if (size > 1) {
      MT_EXPECT_CLASS(fatal, MPI_Group_range_incl(world, 1, wrong_way, &out),
                      MPI_ERR_ARG, "MPI_Group_range_incl(n-1 up to 0)");
      MT_EXPECT_CLASS(fatal, MPI_Group_range_excl(world, 1, wrong_way, &out),
                      MPI_ERR_ARG, "MPI_Group_range_excl(n-1 up to 0)");
    }
  }
  MT_CHECK(out == MPI_GROUP_NULL, "a failed call wrote newgroup");
  MPI_Group_free(&world);
  return mt_errors_finish(fatal);
}
