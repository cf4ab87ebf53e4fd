// SPDX-License-Identifier: MIT
// MPI 4.0 §7.6.1: MPI_COMM_REMOTE_GROUP takes an inter-communicator; an
// intracommunicator has no remote group, so it is an invalid communicator
// for this call: MPI_ERR_COMM, as Open MPI raises (Debian's MPICH 4.0.2
// returns the local group instead).
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  MPI_Group out = MPI_GROUP_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Comm_remote_group(MPI_COMM_WORLD, &out),
                    MPI_ERR_COMM, "MPI_Comm_remote_group(MPI_COMM_WORLD)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_remote_group(MPI_COMM_SELF, &out),
                    MPI_ERR_COMM, "MPI_Comm_remote_group(MPI_COMM_SELF)");
  }
  MT_CHECK(out == MPI_GROUP_NULL, "a failed call wrote group");
  return mt_errors_finish(fatal);
}
