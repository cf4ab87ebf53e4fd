// SPDX-License-Identifier: MIT
// MPI 4.0 §7.3.1, MPI_GROUP_TRANSLATE_RANKS: "MPI_PROC_NULL is a valid rank
// for input to MPI_GROUP_TRANSLATE_RANKS, which returns MPI_PROC_NULL as the
// translated rank", whatever the groups, MPI_GROUP_EMPTY included. (Debian's
// MPICH 4.0.2 and Open MPI 4.1.4 return MPI_UNDEFINED when group2 is
// empty.)
#include "group_check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Group world;
  MT_CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  const int ranks[] = {MPI_PROC_NULL, mt_rank(), MPI_PROC_NULL};
  int out[3] = {-7, -7, -7};
  MT_CHECK_MPI(
      MPI_Group_translate_ranks(world, 3, ranks, MPI_GROUP_EMPTY, out));
  MT_CHECK(out[0] == MPI_PROC_NULL && out[1] == MPI_UNDEFINED &&
               out[2] == MPI_PROC_NULL,
           "world -> MPI_GROUP_EMPTY: %d %d %d, expected %d %d %d", out[0],
           out[1], out[2], MPI_PROC_NULL, MPI_UNDEFINED, MPI_PROC_NULL);
  out[0] = -7;
  MT_CHECK_MPI(
      MPI_Group_translate_ranks(MPI_GROUP_EMPTY, 1, ranks, world, out));
  MT_CHECK(out[0] == MPI_PROC_NULL, "MPI_GROUP_EMPTY -> world: %d", out[0]);
  out[0] = -7;
  MT_CHECK_MPI(MPI_Group_translate_ranks(MPI_GROUP_EMPTY, 1, ranks,
                                         MPI_GROUP_EMPTY, out));
  MT_CHECK(out[0] == MPI_PROC_NULL, "MPI_GROUP_EMPTY -> MPI_GROUP_EMPTY: %d",
           out[0]);
  MT_CHECK_MPI(MPI_Group_free(&world));
  MPI_Finalize();
  return 0;
}
