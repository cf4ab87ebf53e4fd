// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4: MPI_ERR_COMM, "Invalid communicator": MPI_Comm_group and
// MPI_Comm_remote_group of MPI_COMM_NULL.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  MPI_Group out = MPI_GROUP_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Comm_group(MPI_COMM_NULL, &out), MPI_ERR_COMM,
                    "MPI_Comm_group(MPI_COMM_NULL)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_remote_group(MPI_COMM_NULL, &out),
                    MPI_ERR_COMM, "MPI_Comm_remote_group(MPI_COMM_NULL)");
  }
  MT_CHECK(out == MPI_GROUP_NULL, "a failed call wrote group");
  return mt_errors_finish(fatal);
}
