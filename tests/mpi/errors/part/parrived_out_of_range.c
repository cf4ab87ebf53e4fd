// SPDX-License-Identifier: MIT
// MPI 4.0 §4.2.2: MPI_PARRIVED's partition must be one of the request's
// partitions; shmpi reports MPI_ERR_ARG. MPI_Parrived on a send request is
// MPI_ERR_REQUEST.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int buf[8], out[8];
  MPI_Request sreq, rreq;
  MPI_Precv_init(out, 2, 4, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_INFO_NULL, &rreq);
  MPI_Psend_init(buf, 2, 4, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_INFO_NULL, &sreq);
  MPI_Start(&rreq);
  MPI_Start(&sreq);
  if (mt_errors_caller(fatal)) {
    int flag = 0;
    MT_EXPECT_CLASS(fatal, MPI_Parrived(rreq, 2, &flag), MPI_ERR_ARG,
                    "MPI_Parrived(partition 2 of 2)");
    MT_EXPECT_CLASS(fatal, MPI_Parrived(sreq, 0, &flag), MPI_ERR_REQUEST,
                    "MPI_Parrived on a send request");
  }
  MPI_Pready_range(0, 1, sreq);
  MPI_Wait(&sreq, MPI_STATUS_IGNORE);
  MPI_Wait(&rreq, MPI_STATUS_IGNORE);
  MPI_Request_free(&sreq);
  MPI_Request_free(&rreq);
  return mt_errors_finish(fatal);
}
