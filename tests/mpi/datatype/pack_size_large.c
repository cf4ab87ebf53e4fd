// SPDX-License-Identifier: MIT
// MPI_Pack_size of a message whose packed size does not fit in an int:
// MPI 4.0 §5.2 sets size to MPI_UNDEFINED (no error), as MPI_Type_size and
// MPI_Get_count do; MPI_Pack_size_c gives the size. shmpi raised
// MPI_ERR_COUNT (fatal under the default handler).
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  MPI_Datatype run, huge;
  MT_CHECK_MPI(MPI_Type_contiguous(1 << 12, MPI_INT, &run));
  MT_CHECK_MPI(MPI_Type_contiguous(1 << 20, run, &huge));  // 16 GiB
  MT_CHECK_MPI(MPI_Type_commit(&run));
  MT_CHECK_MPI(MPI_Type_commit(&huge));

  int size = 0;
  MT_CHECK_MPI(MPI_Pack_size(1, huge, MPI_COMM_WORLD, &size));
  MT_CHECK(size == MPI_UNDEFINED, "MPI_Pack_size(1, 16 GiB type) = %d", size);
  size = 0;
  MT_CHECK_MPI(MPI_Pack_size(1 << 20, run, MPI_COMM_WORLD, &size));
  MT_CHECK(size == MPI_UNDEFINED, "MPI_Pack_size(2^20, 16 KiB type) = %d",
           size);
  MPI_Count size_c = 0;
  MT_CHECK_MPI(MPI_Pack_size_c(1, huge, MPI_COMM_WORLD, &size_c));
  MT_CHECK(size_c >= (MPI_Count)1 << 34, "MPI_Pack_size_c(1, 16 GiB) = %lld",
           (long long)size_c);
  size = 0;
  MT_CHECK_MPI(MPI_Pack_size(3, run, MPI_COMM_WORLD, &size));
  MT_CHECK(size >= 3 << 14, "MPI_Pack_size(3, 16 KiB type) = %d", size);

  MT_CHECK_MPI(MPI_Type_free(&run));
  MT_CHECK_MPI(MPI_Type_free(&huge));
  MPI_Finalize();
  return 0;
}
