// SPDX-License-Identifier: MIT
// MPI 4.0 §4.2.2: "If MPI_PARRIVED is called on an inactive request or
// MPI_REQUEST_NULL, flag will be set to true."
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int buf[8], out[8];
  int flag = 0;
  MPI_Parrived(MPI_REQUEST_NULL, 0, &flag);
  MT_CHECK(flag, "MPI_Parrived(MPI_REQUEST_NULL) set flag false");
  MPI_Request sreq, rreq;
  MPI_Precv_init(out, 2, 4, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_INFO_NULL, &rreq);
  MPI_Psend_init(buf, 2, 4, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_INFO_NULL, &sreq);
  flag = 0;
  MPI_Parrived(rreq, 1, &flag);
  MT_CHECK(flag, "MPI_Parrived on a never-started request set flag false");
  MPI_Start(&rreq);
  MPI_Start(&sreq);
  MPI_Pready(0, sreq);
  MPI_Pready(1, sreq);
  MPI_Wait(&rreq, MPI_STATUS_IGNORE);
  MPI_Wait(&sreq, MPI_STATUS_IGNORE);
  flag = 0;
  MPI_Parrived(rreq, 0, &flag);
  MT_CHECK(flag, "MPI_Parrived on a completed request set flag false");
  MPI_Request_free(&sreq);
  MPI_Request_free(&rreq);
  MPI_Finalize();
  return 0;
}
