// SPDX-License-Identifier: MIT
// MPI 4.0 §7.6.1-2: MPI_COMM_REMOTE_SIZE and MPI_INTERCOMM_MERGE take an
// intercommunicator; given an intracommunicator shmpi reports MPI_ERR_COMM
// (MPI_COMM_REMOTE_GROUP: errors/group/remote_group_intra.c). shmpi only:
// MPICH 4.0.2 returns success for the first and fails an internal assertion
// in MPI_Intercomm_merge; Open MPI 4.1.4 returns success for the first.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int value = -1;
  MPI_Comm comm = MPI_COMM_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Comm_remote_size(MPI_COMM_WORLD, &value),
                    MPI_ERR_COMM, "MPI_Comm_remote_size(MPI_COMM_WORLD)");
    MT_EXPECT_CLASS(fatal, MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &comm),
                    MPI_ERR_COMM, "MPI_Intercomm_merge(MPI_COMM_WORLD)");
  }
  return mt_errors_finish(fatal);
}
