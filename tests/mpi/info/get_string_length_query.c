// SPDX-License-Identifier: MIT
// MPI 4.0 §10, MPI_INFO_GET_STRING: "If buflen is set to 0, value is not
// changed", so a program may ask for the length alone with value = NULL
// (the replacement for the deprecated MPI_INFO_GET_VALUELEN). MPICH 4.0.2
// refuses the NULL (pmodels/mpich#6442, fixed later).
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Info info = MPI_INFO_NULL;
  MPI_Info_create(&info);
  MT_CHECK_MPI(MPI_Info_set(info, "key", "0123456789"));
  int buflen = 0;
  int flag = -1;
  MT_CHECK_MPI(MPI_Info_get_string(info, "key", &buflen, NULL, &flag));
  MT_CHECK(flag == 1 && buflen == 11, "flag %d buflen %d, expected 1 and 11",
           flag, buflen);
  char* value = mt_malloc((size_t)buflen);
  MT_CHECK_MPI(MPI_Info_get_string(info, "key", &buflen, value, &flag));
  MT_CHECK(strcmp(value, "0123456789") == 0, "value \"%s\"", value);
  free(value);
  MPI_Info_free(&info);
  MPI_Finalize();
  return 0;
}
