// SPDX-License-Identifier: MIT
// MPI 4.0 §10, MPI_INFO_GET (deprecated, still in MPI 4.0): "valuelen is
// the number of characters available in value. If it is less than the
// actual size of the value, the value is truncated. In C, valuelen should
// be one less than the amount of allocated space to allow for the null
// terminator." Truncation is not an error; MPICH 4.0.2 returns
// MPI_ERR_INFO_VALUE instead.
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Info info = MPI_INFO_NULL;
  MPI_Info_create(&info);
  MT_CHECK_MPI(MPI_Info_set(info, "key", "0123456789"));
  char value[16];
  memset(value, 'X', sizeof value);
  int flag = -1;
  MT_CHECK_MPI(MPI_Info_get(info, "key", 4, value, &flag));
  MT_CHECK(flag == 1, "flag %d", flag);
  MT_CHECK(strcmp(value, "0123") == 0 && value[5] == 'X',
           "value \"%.5s\", byte 5 '%c'", value, value[5]);
  memset(value, 'X', sizeof value);
  MT_CHECK_MPI(MPI_Info_get(info, "key", 0, value, &flag));
  MT_CHECK(flag == 1 && value[0] == '\0' && value[1] == 'X',
           "valuelen 0: flag %d", flag);
  MPI_Info_free(&info);
  MPI_Finalize();
  return 0;
}
