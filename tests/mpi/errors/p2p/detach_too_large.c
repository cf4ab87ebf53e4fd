// SPDX-License-Identifier: MIT
// (shmpi-only: MPI 4.1 names the class; MPICH 4.0.2 returns success.)
// A buffer attached with MPI_Buffer_attach_c beyond INT_MAX bytes cannot be
// returned by the int MPI_Buffer_detach: it fails with
// MPI_ERR_VALUE_TOO_LARGE and leaves the buffer attached, so that
// MPI_Buffer_detach_c still returns its whole size (rather than a truncated
// one the program would then free or re-attach wrongly).
#include <limits.h>

#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  // Never touched: the pages stay unmapped.
  const MPI_Count bytes = (MPI_Count)INT_MAX + 4096;
  char* buffer = mt_malloc((size_t)bytes);
  MT_CHECK_MPI(MPI_Buffer_attach_c(buffer, bytes));
  if (mt_errors_caller(fatal)) {
    void* address = NULL;
    int size = -1;
    MT_EXPECT_CLASS(fatal, MPI_Buffer_detach(&address, &size),
                    MPI_ERR_VALUE_TOO_LARGE,
                    "MPI_Buffer_detach of INT_MAX + 4096 bytes");
    MT_CHECK(address == NULL && size == -1,
             "the failed detach wrote its outputs: %p/%d", address, size);
  }
  void* address = NULL;
  MPI_Count size = -1;
  MT_CHECK_MPI(MPI_Buffer_detach_c(&address, &size));
  MT_CHECK(address == buffer && size == bytes,
           "MPI_Buffer_detach_c gave %p/%lld, attached %p/%lld", address,
           (long long)size, (void*)buffer, (long long)bytes);
  free(buffer);
  return mt_errors_finish(fatal);
}
