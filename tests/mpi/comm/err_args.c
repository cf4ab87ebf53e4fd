// SPDX-License-Identifier: MIT
// Bad arguments to the communicator constructors (MPI 4.0 §7.4.2, error
// classes §9.4), each raised on MPI_COMM_WORLD by every rank alike:
//  - MPI_Comm_split_type with a split_type that is neither a predefined
//    type nor MPI_UNDEFINED: MPI_ERR_ARG;
//  - MPI_Comm_create with MPI_GROUP_NULL: MPI_ERR_GROUP;
//  - MPI_Comm_create_group with a wildcard tag, which it does not allow:
//    MPI_ERR_TAG;
//  - MPI_Comm_dup with a NULL newcomm pointer: MPI_ERR_ARG.
// MPICH 4.0.2 gives the same classes.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Group world_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(
        fatal,
        MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL, &comm),
        MPI_ERR_ARG, "MPI_Comm_split_type(split_type = 12345)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &comm),
                    MPI_ERR_GROUP, "MPI_Comm_create(MPI_GROUP_NULL)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Comm_create_group(MPI_COMM_WORLD, world_group, MPI_ANY_TAG, &comm),
        MPI_ERR_TAG, "MPI_Comm_create_group(tag = MPI_ANY_TAG)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_dup(MPI_COMM_WORLD, NULL), MPI_ERR_ARG,
                    "MPI_Comm_dup(newcomm = NULL)");
    MT_CHECK(comm == MPI_COMM_NULL, "a failed call set the new communicator");
  }
  MPI_Group_free(&world_group);
  return mt_errors_finish(fatal);
}
