// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4: MPI_ERR_ARG, "Invalid argument of some other kind": a NULL
// rank or range array with n > 0 is an invalid argument. (Debian's MPICH
// 4.0.2 dereferences it and crashes instead.)
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group out = MPI_GROUP_NULL;
  int value = 0;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Group_incl(world, 1, NULL, &out), MPI_ERR_ARG,
                    "MPI_Group_incl(ranks = NULL, n = 1)");
    MT_EXPECT_CLASS(fatal, MPI_Group_excl(world, 1, NULL, &out), MPI_ERR_ARG,
                    "MPI_Group_excl(ranks = NULL, n = 1)");
    MT_EXPECT_CLASS(fatal, MPI_Group_range_incl(world, 1, NULL, &out),
                    MPI_ERR_ARG, "MPI_Group_range_incl(ranges = NULL, n = 1)");
    MT_EXPECT_CLASS(fatal, MPI_Group_range_excl(world, 1, NULL, &out),
                    MPI_ERR_ARG, "MPI_Group_range_excl(ranges = NULL, n = 1)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Group_translate_ranks(world, 1, NULL, world, &value),
                    MPI_ERR_ARG, "MPI_Group_translate_ranks(ranks1 = NULL)");
  }
  MPI_Group_free(&world);
  return mt_errors_finish(fatal);
}
