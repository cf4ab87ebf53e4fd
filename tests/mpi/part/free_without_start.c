// SPDX-License-Identifier: MIT
// MPI 4.0 §4.2 / §3.7.3: a partitioned request that was never started may
// be freed with MPI_REQUEST_FREE. Nothing of it may remain to be matched:
// later partitioned and ordinary operations with the same source, tag and
// communicator see only their own partners.
//
// Rank 0 initialises and frees partitioned sends (one with a partner that
// is freed too, one without), rank 1 a partitioned receive; after a barrier
// a new pair with the same tag must carry the new data, and an ordinary
// message with that tag must reach an ordinary receive.
#include "mpitest.h"

enum { kInts = 1024 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  int* buf = mt_malloc(kInts * sizeof(int));
  MPI_Request req;
  for (int round = 0; round < 3; ++round) {
    if (rank == 0) {
      MPI_Psend_init(buf, 4, kInts / 4, MPI_INT, 1, 3, MPI_COMM_WORLD,
                     MPI_INFO_NULL, &req);
      MPI_Request_free(&req);
      MT_ASSERT(req == MPI_REQUEST_NULL);
      MPI_Psend_init(buf, 2, kInts / 2, MPI_INT, 1, 3, MPI_COMM_WORLD,
                     MPI_INFO_NULL, &req);
      MPI_Request_free(&req);
    } else if (rank == 1) {
      MPI_Precv_init(buf, 4, kInts / 4, MPI_INT, 0, 3, MPI_COMM_WORLD,
                     MPI_INFO_NULL, &req);
      MPI_Request_free(&req);
      MT_ASSERT(req == MPI_REQUEST_NULL);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  for (long iter = 0; iter < mt_scale(20) && rank < 2; ++iter) {
    if (rank == 0) {
      for (int i = 0; i < kInts; ++i) {
        buf[i] = (int)mt_seed(9, (uint32_t)iter, (uint32_t)i, 0);
      }
      MPI_Psend_init(buf, 8, kInts / 8, MPI_INT, 1, 3, MPI_COMM_WORLD,
                     MPI_INFO_NULL, &req);
      MPI_Start(&req);
      MPI_Pready_range(0, 7, req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      MPI_Request_free(&req);
      MPI_Send(buf, 16, MPI_INT, 1, 3, MPI_COMM_WORLD);
    } else {
      memset(buf, 0, kInts * sizeof(int));
      MPI_Precv_init(buf, 2, kInts / 2, MPI_INT, 0, 3, MPI_COMM_WORLD,
                     MPI_INFO_NULL, &req);
      MPI_Start(&req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      MPI_Request_free(&req);
      for (int i = 0; i < kInts; ++i) {
        MT_CHECK(buf[i] == (int)mt_seed(9, (uint32_t)iter, (uint32_t)i, 0),
                 "iteration %ld: int %d is %d: a freed request matched", iter,
                 i, buf[i]);
      }
      int small[16];
      MPI_Status status;
      MPI_Recv(small, 16, MPI_INT, 0, 3, MPI_COMM_WORLD, &status);
      int count = 0;
      MPI_Get_count(&status, MPI_INT, &count);
      MT_CHECK(count == 16 && small[5] == buf[5],
               "the ordinary message after the partitioned ones is wrong");
    }
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
