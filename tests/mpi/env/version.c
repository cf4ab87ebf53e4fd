// SPDX-License-Identifier: MIT
// MPI 4.0 §9.1.1: MPI_GET_VERSION returns the version of the standard the
// library supports, matching MPI_VERSION and MPI_SUBVERSION; this is an MPI
// 4.0 library. MPI_GET_LIBRARY_VERSION returns a string of at most
// MPI_MAX_LIBRARY_VERSION_STRING - 1 characters.
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int version = 0;
  int subversion = -1;
  MPI_Get_version(&version, &subversion);
  MT_CHECK(version == MPI_VERSION && subversion == MPI_SUBVERSION,
           "MPI_Get_version says %d.%d, mpi.h says %d.%d", version, subversion,
           MPI_VERSION, MPI_SUBVERSION);
  MT_CHECK(version == 4 && subversion == 0,
           "MPI_Get_version says %d.%d, expected 4.0", version, subversion);
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  memset(text, 'x', sizeof text);
  int len = -1;
  MPI_Get_library_version(text, &len);
  MT_CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING,
           "MPI_Get_library_version length %d", len);
  MT_CHECK(text[len] == '\0' && strlen(text) == (size_t)len,
           "MPI_Get_library_version: length %d but strlen %zu", len,
           strnlen(text, sizeof text));
  MPI_Finalize();
  return 0;
}
