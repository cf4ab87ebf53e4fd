// SPDX-License-Identifier: MIT
// MPI 4.0 §7.3.2, MPI_GROUP_INCL and MPI_GROUP_EXCL: "all elements must be
// distinct". shmpi detects a repeated rank and raises MPI_ERR_RANK: a group
// holding one process twice would break every later rank lookup. (Debian's
// MPICH 4.0.2 and Open MPI 4.1.4 accept it.)
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  const int size = mt_size();
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group out = MPI_GROUP_NULL;
  const int twice[] = {0, 0};
  const int last_twice[] = {size - 1, 0, size - 1};
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Group_incl(world, 2, twice, &out), MPI_ERR_RANK,
                    "MPI_Group_incl(ranks = {0, 0})");
    MT_EXPECT_CLASS(fatal, MPI_Group_incl(world, 3, last_twice, &out),
                    MPI_ERR_RANK, "MPI_Group_incl(ranks = {n-1, 0, n-1})");
    MT_EXPECT_CLASS(fatal, MPI_Group_excl(world, 2, twice, &out), MPI_ERR_RANK,
                    "MPI_Group_excl(ranks = {0, 0})");
  }
  MT_CHECK(out == MPI_GROUP_NULL, "a failed call wrote newgroup");
  MPI_Group_free(&world);
  return mt_errors_finish(fatal);
}
