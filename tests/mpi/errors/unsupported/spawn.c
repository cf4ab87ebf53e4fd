// SPDX-License-Identifier: MIT
// shmpi's contract (issue 2): every MPI 4.0 function it does not implement
// yet is still exported and "returns MPI_ERR_UNSUPPORTED_OPERATION with a
// message naming it". Process creation is not implemented (the segment is
// sized for the job's ranks at launch), so MPI_Comm_spawn is such a
// function. shmpi only (MPICH implements it).
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  MPI_Comm children = MPI_COMM_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(
        fatal,
        MPI_Comm_spawn("true", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0,
                       MPI_COMM_SELF, &children, MPI_ERRCODES_IGNORE),
        MPI_ERR_UNSUPPORTED_OPERATION, "MPI_Comm_spawn");
    MT_CHECK(children == MPI_COMM_NULL,
             "MPI_Comm_spawn failed but set the intercommunicator");
  }
  return mt_errors_finish(fatal);
}
