// SPDX-License-Identifier: MIT
// MPI 4.0 §3.2.3: the tag "must be in the range 0,...,UB, where the value of
// UB is implementation dependent" (attribute MPI_TAG_UB, at least 32767);
// a larger tag raises MPI_ERR_TAG.
//
// Skipped (status 77) when MPI_TAG_UB is INT_MAX: no int is above it.
#include <limits.h>

#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int* tag_ub = NULL;
  // MPI 4.0 §9.1.2: MPI_TAG_UB is a predefined attribute of MPI_COMM_WORLD.
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &found);
  MT_CHECK(found && tag_ub != NULL,
           "MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB) found no value");
  MT_CHECK(*tag_ub >= 32767, "MPI_TAG_UB is %d, below 32767", *tag_ub);
  if (*tag_ub == INT_MAX) {
    if (mt_rank() == 0) {
      printf("skipped: MPI_TAG_UB is INT_MAX, no tag is above it\n");
    }
    MPI_Finalize();
    return MT_SKIP_CODE;
  }
  const int bad = *tag_ub + 1;
  int value = 1;
  MPI_Request req = MPI_REQUEST_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Send(&value, 1, MPI_INT, 0, bad, MPI_COMM_WORLD),
                    MPI_ERR_TAG, "MPI_Send(tag = MPI_TAG_UB + 1)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Irecv(&value, 1, MPI_INT, 0, bad, MPI_COMM_WORLD, &req),
                    MPI_ERR_TAG, "MPI_Irecv(tag = MPI_TAG_UB + 1)");
  }
  // The upper bound itself is valid.
  if (!fatal) {
    MPI_Request reqs[2];
    MT_CHECK_MPI(MPI_Irecv(&value, 1, MPI_INT, mt_rank(), *tag_ub,
                           MPI_COMM_WORLD, &reqs[0]));
    MT_CHECK_MPI(MPI_Isend(&value, 1, MPI_INT, mt_rank(), *tag_ub,
                           MPI_COMM_WORLD, &reqs[1]));
    MT_CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
  }
  return mt_errors_finish(fatal);
}
