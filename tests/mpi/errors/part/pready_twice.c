// SPDX-License-Identifier: MIT
// MPI 4.0 §4.2.2: "MPI_PREADY ... It is erroneous to call MPI_PREADY on a
// partition that has already been marked ready" in the same iteration.
// shmpi reports MPI_ERR_ARG.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int buf[8], out[8];
  MPI_Request sreq, rreq;
  MPI_Precv_init(out, 2, 4, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_INFO_NULL, &rreq);
  MPI_Psend_init(buf, 2, 4, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_INFO_NULL, &sreq);
  MPI_Start(&rreq);
  MPI_Start(&sreq);
  MPI_Pready(1, sreq);
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Pready(1, sreq), MPI_ERR_ARG,
                    "MPI_Pready(1) twice in one iteration");
  }
  MPI_Pready(0, sreq);
  MPI_Wait(&sreq, MPI_STATUS_IGNORE);
  MPI_Wait(&rreq, MPI_STATUS_IGNORE);
  MPI_Request_free(&sreq);
  MPI_Request_free(&rreq);
  return mt_errors_finish(fatal);
}
