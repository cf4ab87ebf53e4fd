// SPDX-License-Identifier: MIT
// MPI 4.0 §4.2.2: MPI_PREADY is called "after MPI_START" on an active
// partitioned send request; before the start (or after the completion) the
// request is inactive. shmpi reports MPI_ERR_REQUEST.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int buf[8], out[8];
  MPI_Request sreq, rreq;
  MPI_Precv_init(out, 2, 4, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_INFO_NULL, &rreq);
  MPI_Psend_init(buf, 2, 4, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_INFO_NULL, &sreq);
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Pready(0, sreq), MPI_ERR_REQUEST,
                    "MPI_Pready before MPI_Start");
  }
  MPI_Request_free(&sreq);
  MPI_Request_free(&rreq);
  return mt_errors_finish(fatal);
}
