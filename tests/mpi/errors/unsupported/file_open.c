// SPDX-License-Identifier: MIT
// shmpi's contract (issue 2): every MPI 4.0 function it does not implement
// yet is still exported and "returns MPI_ERR_UNSUPPORTED_OPERATION with a
// message naming it". MPI-IO is not implemented, so MPI_File_open is such a
// function. shmpi only (MPICH implements it).
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  MPI_File file = MPI_FILE_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal,
                    MPI_File_open(MPI_COMM_WORLD, "/nonexistent/shmpi_test",
                                  MPI_MODE_RDONLY, MPI_INFO_NULL, &file),
                    MPI_ERR_UNSUPPORTED_OPERATION, "MPI_File_open");
    MT_CHECK(file == MPI_FILE_NULL, "MPI_File_open failed but set the file");
  }
  return mt_errors_finish(fatal);
}
