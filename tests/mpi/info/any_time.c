// SPDX-License-Identifier: MIT
// MPI 4.0 §11.4.1: "Some MPI functions may be invoked at any time,
// including prior to calling MPI_INIT or MPI_SESSION_INIT, and following
// MPI finalization"; Table 11.1 lists MPI_INFO_CREATE, MPI_INFO_SET,
// MPI_INFO_DELETE, MPI_INFO_GET_STRING, MPI_INFO_GET_NKEYS,
// MPI_INFO_GET_NTHKEY, MPI_INFO_DUP and MPI_INFO_FREE (not the deprecated
// MPI_INFO_GET). An object made before MPI_Init survives MPI_Init and
// MPI_Finalize and still works afterwards.
#include "mpitest.h"

static void expect(MPI_Info info, const char* key, const char* want) {
  char value[64];
  int buflen = (int)sizeof value;
  int flag = 0;
  if (MPI_Info_get_string(info, key, &buflen, value, &flag) != MPI_SUCCESS ||
      !flag || strcmp(value, want) != 0) {
    fprintf(stderr, "FAIL: key \"%s\" is not \"%s\"\n", key, want);
    exit(1);
  }
}

int main(int argc, char** argv) {
  MPI_Info info = MPI_INFO_NULL;
  if (MPI_Info_create(&info) != MPI_SUCCESS ||
      MPI_Info_set(info, "before", "init") != MPI_SUCCESS) {
    fprintf(stderr, "FAIL: info calls before MPI_Init\n");
    return 1;
  }
  MPI_Init(&argc, &argv);
  expect(info, "before", "init");
  MT_CHECK_MPI(MPI_Info_set(info, "during", "run"));
  MPI_Finalize();
  MPI_Info copy = MPI_INFO_NULL;
  int nkeys = 0;
  if (MPI_Info_set(info, "after", "finalize") != MPI_SUCCESS ||
      MPI_Info_dup(info, &copy) != MPI_SUCCESS ||
      MPI_Info_get_nkeys(copy, &nkeys) != MPI_SUCCESS || nkeys != 3 ||
      MPI_Info_delete(copy, "during") != MPI_SUCCESS) {
    fprintf(stderr, "FAIL: info calls after MPI_Finalize (nkeys %d)\n", nkeys);
    return 1;
  }
  expect(copy, "after", "finalize");
  if (MPI_Info_free(&copy) != MPI_SUCCESS ||
      MPI_Info_free(&info) != MPI_SUCCESS || info != MPI_INFO_NULL) {
    fprintf(stderr, "FAIL: MPI_Info_free after MPI_Finalize\n");
    return 1;
  }
  return 0;
}
