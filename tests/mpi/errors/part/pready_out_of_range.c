// SPDX-License-Identifier: MIT
// MPI 4.0 §4.2.2: "partition: partition to mark ready for transfer
// (non-negative integer)", below the request's partition count. shmpi
// reports MPI_ERR_ARG for -1 and for the partition count itself, from
// MPI_Pready, MPI_Pready_range and MPI_Pready_list.
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
    MT_EXPECT_CLASS(fatal, MPI_Pready(2, sreq), MPI_ERR_ARG,
                    "MPI_Pready(2) with 2 partitions");
    MT_EXPECT_CLASS(fatal, MPI_Pready(-1, sreq), MPI_ERR_ARG, "MPI_Pready(-1)");
    int list[1] = {5};
    MT_EXPECT_CLASS(fatal, MPI_Pready_list(1, list, sreq), MPI_ERR_ARG,
                    "MPI_Pready_list({5})");
  }
  MPI_Pready_range(0, 1, sreq);
  MPI_Wait(&sreq, MPI_STATUS_IGNORE);
  MPI_Wait(&rreq, MPI_STATUS_IGNORE);
  MPI_Request_free(&sreq);
  MPI_Request_free(&rreq);
  return mt_errors_finish(fatal);
}
