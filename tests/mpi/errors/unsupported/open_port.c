// SPDX-License-Identifier: MIT
// shmpi's contract (issue 2): every MPI 4.0 function it does not implement
// yet is still exported and "returns MPI_ERR_UNSUPPORTED_OPERATION with a
// message naming it". Dynamic process management is not implemented, so
// MPI_Open_port is such a function. shmpi only (MPICH implements it).
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  char port[MPI_MAX_PORT_NAME] = "";
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Open_port(MPI_INFO_NULL, port),
                    MPI_ERR_UNSUPPORTED_OPERATION, "MPI_Open_port");
    MT_CHECK(port[0] == '\0', "MPI_Open_port failed but set the port name");
  }
  return mt_errors_finish(fatal);
}
