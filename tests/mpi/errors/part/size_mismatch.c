// SPDX-License-Identifier: MIT
// MPI 4.0 §4.2.2: a partitioned receive matches one partitioned send, and
// their total sizes must agree. A send longer than the receive buffer is an
// overflow (§3.2.5: MPI_ERR_TRUNCATE); shmpi reports a shorter one with the
// same class, from the receive's completion. MPICH 4.0.2 reports both as
// MPI_ERR_OTHER ("buffers are not identical in size").
//
// usage: size_mismatch [longer|shorter] [fatal]
#include "mpitest.h"

int main(int argc, char** argv) {
  const int shorter = argc > 1 && strcmp(argv[1], "shorter") == 0;
  if (argc > 1 && strcmp(argv[1], "fatal") != 0) {
    --argc;
    ++argv;
  }
  const int fatal = mt_errors_init(&argc, &argv);
  int buf[16], out[16];
  for (int i = 0; i < 16; ++i) {
    buf[i] = i;
  }
  MPI_Request sreq, rreq;
  // Receive room for 8 ints; the send has 16 (longer) or 4 (shorter).
  MPI_Precv_init(out, 2, 4, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_INFO_NULL, &rreq);
  MPI_Psend_init(buf, 4, shorter ? 1 : 4, MPI_INT, 0, 0, MPI_COMM_SELF,
                 MPI_INFO_NULL, &sreq);
  MPI_Start(&rreq);
  MPI_Start(&sreq);
  MPI_Pready_range(0, 3, sreq);
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Wait(&rreq, MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE,
                    shorter ? "MPI_Wait on a receive of 8 ints for 4"
                            : "MPI_Wait on a receive of 8 ints for 16");
  } else {
    MPI_Wait(&rreq, MPI_STATUS_IGNORE);
  }
  MPI_Wait(&sreq, MPI_STATUS_IGNORE);
  MPI_Request_free(&sreq);
  MPI_Request_free(&rreq);
  return mt_errors_finish(fatal);
}
