// SPDX-License-Identifier: MIT
// MPI 4.0 §4.2.2: partitioned operations match "in the order in which the
// initialization calls are made", on source, tag and communicator, and
// "partitioned communication operations ... do not match point-to-point"
// ones.
//
// Rank 0 sends an ordinary message with tag 7 before two partitioned sends
// A and B with tag 7; rank 1 initialises two partitioned receives with tag
// 7 and receives the ordinary message last: each must get its own. A third
// pair is initialised by the receiver first (before a barrier), the sender
// after it. MPI_Iprobe never sees a partitioned request.
#include "mpitest.h"

enum { kInts = 64 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  int a[kInts], b[kInts], c[kInts], plain[4] = {1, 2, 3, 4};
  MPI_Request reqs[3];
  if (rank == 0) {
    MPI_Send(plain, 4, MPI_INT, 1, 7, MPI_COMM_WORLD);
    MPI_Psend_init(a, 4, kInts / 4, MPI_INT, 1, 7, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &reqs[0]);
    MPI_Psend_init(b, 2, kInts / 2, MPI_INT, 1, 7, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &reqs[1]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Psend_init(c, 1, kInts, MPI_INT, 1, 8, MPI_COMM_WORLD, MPI_INFO_NULL,
                   &reqs[2]);
  } else if (rank == 1) {
    MPI_Precv_init(c, 8, kInts / 8, MPI_INT, 0, 8, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &reqs[2]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Precv_init(a, 1, kInts, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_INFO_NULL,
                   &reqs[0]);
    MPI_Precv_init(b, 4, kInts / 4, MPI_INT, 0, 7, MPI_COMM_WORLD,
                   MPI_INFO_NULL, &reqs[1]);
    int got[4] = {0, 0, 0, 0};
    MPI_Status status;
    MPI_Recv(got, 4, MPI_INT, 0, 7, MPI_COMM_WORLD, &status);
    int count = 0;
    MPI_Get_count(&status, MPI_INT, &count);
    MT_CHECK(count == 4 && got[0] == 1 && got[3] == 4,
             "the ordinary message was not received intact (count %d)", count);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  for (long iter = 0; iter < mt_scale(50) && rank < 2; ++iter) {
    if (rank == 0) {
      for (int i = 0; i < kInts; ++i) {
        a[i] = (int)mt_seed(1, (uint32_t)iter, (uint32_t)i, 0);
        b[i] = (int)mt_seed(2, (uint32_t)iter, (uint32_t)i, 0);
        c[i] = (int)mt_seed(3, (uint32_t)iter, (uint32_t)i, 0);
      }
      MPI_Startall(3, reqs);
      MPI_Pready_range(0, 3, reqs[0]);
      MPI_Pready_range(0, 1, reqs[1]);
      MPI_Pready(0, reqs[2]);
      MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE);
    } else {
      MPI_Startall(3, reqs);
      MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE);
      for (int i = 0; i < kInts; ++i) {
        MT_CHECK(a[i] == (int)mt_seed(1, (uint32_t)iter, (uint32_t)i, 0),
                 "iteration %ld: first receive got the wrong message", iter);
        MT_CHECK(b[i] == (int)mt_seed(2, (uint32_t)iter, (uint32_t)i, 0),
                 "iteration %ld: second receive got the wrong message", iter);
        MT_CHECK(c[i] == (int)mt_seed(3, (uint32_t)iter, (uint32_t)i, 0),
                 "iteration %ld: receive-first pair got the wrong data", iter);
      }
      int flag = 1;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
                 MPI_STATUS_IGNORE);
      MT_CHECK(!flag, "MPI_Iprobe saw a message; none was sent");
    }
  }
  if (rank < 2) {
    for (int i = 0; i < 3; ++i) {
      MPI_Request_free(&reqs[i]);
    }
  }
  MPI_Finalize();
  return 0;
}
