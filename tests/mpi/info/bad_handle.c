// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4: MPI_ERR_INFO, "invalid info argument": MPI_INFO_NULL is
// not an info object to read, change, duplicate or free, and
// MPI_COMM_SET_INFO needs one too. shmpi raises MPI_ERR_INFO; MPICH 4.0.2
// raises MPI_ERR_ARG, which this test accepts as well.
#include "mpitest.h"

static void expect_info_error(int fatal, int rc, const char* what) {
  if (fatal) {
    MT_FAIL("%s returned (%s) under MPI_ERRORS_ARE_FATAL", what,
            mt_error_string(rc));
  }
  MT_CHECK(rc != MPI_SUCCESS, "%s succeeded", what);
  int error_class = -1;
  MPI_Error_class(rc, &error_class);
  MT_CHECK(error_class == MPI_ERR_INFO || error_class == MPI_ERR_ARG,
           "%s: error class %d, expected MPI_ERR_INFO (%d) or MPI_ERR_ARG",
           what, error_class, MPI_ERR_INFO);
}

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int nkeys = 0;
  MPI_Info copy = MPI_INFO_NULL;
  MPI_Info null = MPI_INFO_NULL;
  if (mt_errors_caller(fatal)) {
    expect_info_error(fatal, MPI_Info_set(MPI_INFO_NULL, "k", "v"),
                      "MPI_Info_set(MPI_INFO_NULL)");
    expect_info_error(fatal, MPI_Info_get_nkeys(MPI_INFO_NULL, &nkeys),
                      "MPI_Info_get_nkeys(MPI_INFO_NULL)");
    expect_info_error(fatal, MPI_Info_dup(MPI_INFO_NULL, &copy),
                      "MPI_Info_dup(MPI_INFO_NULL)");
    expect_info_error(fatal, MPI_Info_free(&null),
                      "MPI_Info_free(MPI_INFO_NULL)");
    expect_info_error(fatal, MPI_Comm_set_info(MPI_COMM_WORLD, MPI_INFO_NULL),
                      "MPI_Comm_set_info(MPI_INFO_NULL)");
  }
  return mt_errors_finish(fatal);
}
