// SPDX-License-Identifier: MIT
// MPI_Pready_range over a partition that is already ready (or past the last
// one) is erroneous; shmpi reports MPI_ERR_ARG naming the first wrong
// partition and has made the partitions before it ready, as a loop of
// MPI_Pready would. Partitions of 256 bytes in process memory take, from
// the second iteration on (once the sender knows the receive buffer is not
// in the shared heap), the staged range path that copies a whole range at
// once; partitions of up to 24 bytes travel in their flag lines instead
// (see pready_twice and pready_out_of_range).
#include "mpitest.h"

enum { kParts = 4, kInts = 64 };

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int buf[kParts * kInts], out[kParts * kInts];
  MPI_Request sreq, rreq;
  MPI_Precv_init(out, kParts, kInts, MPI_INT, 0, 0, MPI_COMM_SELF,
                 MPI_INFO_NULL, &rreq);
  MPI_Psend_init(buf, kParts, kInts, MPI_INT, 0, 0, MPI_COMM_SELF,
                 MPI_INFO_NULL, &sreq);
  for (int iteration = 0; iteration < 4; ++iteration) {
    for (int i = 0; i < kParts * kInts; ++i) {
      buf[i] = iteration * 100000 + i;
      out[i] = -1;
    }
    MPI_Start(&rreq);
    MPI_Start(&sreq);
    if (iteration == 1) {
      MPI_Pready(2, sreq);
      if (mt_errors_caller(fatal)) {
        MT_EXPECT_CLASS(fatal, MPI_Pready_range(0, 3, sreq), MPI_ERR_ARG,
                        "MPI_Pready_range(0, 3) with partition 2 ready");
      }
      MPI_Pready(3, sreq);  // 0 and 1 went with the failed range
    } else if (iteration == 2) {
      MPI_Pready_range(0, 1, sreq);
      if (mt_errors_caller(fatal)) {
        MT_EXPECT_CLASS(fatal, MPI_Pready_range(2, kParts, sreq), MPI_ERR_ARG,
                        "MPI_Pready_range(2, partitions) past the last");
      }
    } else {
      MPI_Pready_range(0, kParts - 1, sreq);  // the plain case, 0 and 3
    }
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    MPI_Wait(&rreq, MPI_STATUS_IGNORE);
    for (int i = 0; i < kParts * kInts; ++i) {
      MT_CHECK(out[i] == buf[i], "iteration %d: out[%d] = %d, expected %d",
               iteration, i, out[i], buf[i]);
    }
  }
  MPI_Request_free(&sreq);
  MPI_Request_free(&rreq);
  return mt_errors_finish(fatal);
}
