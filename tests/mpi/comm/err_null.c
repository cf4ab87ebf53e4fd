// SPDX-License-Identifier: MIT
// MPI 4.0 §2.5.1: a null handle is an erroneous IN argument unless the
// function says otherwise; §9.4: MPI_ERR_COMM is the class of an invalid
// communicator. None of the communicator calls takes MPI_COMM_NULL
// (MPI_Comm_free of a handle that is MPI_COMM_NULL included).
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm null = MPI_COMM_NULL;
  MPI_Group group = MPI_GROUP_NULL;
  int value = 0;
  char name[MPI_MAX_OBJECT_NAME];
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Comm_dup(MPI_COMM_NULL, &comm), MPI_ERR_COMM,
                    "MPI_Comm_dup(MPI_COMM_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_split(MPI_COMM_NULL, 0, 0, &comm),
                    MPI_ERR_COMM, "MPI_Comm_split(MPI_COMM_NULL)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Comm_compare(MPI_COMM_NULL, MPI_COMM_WORLD, &value),
                    MPI_ERR_COMM, "MPI_Comm_compare(MPI_COMM_NULL, world)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_set_name(MPI_COMM_NULL, "null"),
                    MPI_ERR_COMM, "MPI_Comm_set_name(MPI_COMM_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_get_name(MPI_COMM_NULL, name, &value),
                    MPI_ERR_COMM, "MPI_Comm_get_name(MPI_COMM_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_test_inter(MPI_COMM_NULL, &value),
                    MPI_ERR_COMM, "MPI_Comm_test_inter(MPI_COMM_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_remote_size(MPI_COMM_NULL, &value),
                    MPI_ERR_COMM, "MPI_Comm_remote_size(MPI_COMM_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_group(MPI_COMM_NULL, &group), MPI_ERR_COMM,
                    "MPI_Comm_group(MPI_COMM_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_free(&null), MPI_ERR_COMM,
                    "MPI_Comm_free(&MPI_COMM_NULL)");
    MT_CHECK(comm == MPI_COMM_NULL, "a failed call set the new communicator");
  }
  return mt_errors_finish(fatal);
}
