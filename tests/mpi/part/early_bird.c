// SPDX-License-Identifier: MIT
// MPI 4.0 §4.2.2: MPI_PARRIVED "returns flag = true if the operation
// associated with the given partition has completed": a receive partition
// can be consumed while the sender still holds back others.
//
// Rank 0 makes one send partition ready at a time and then waits for rank
// 1's acknowledgement; rank 1 polls MPI_Parrived until exactly the receive
// partitions whose send partitions are all ready say true (the others must
// stay false, since the sender is blocked), checks their content, and
// acknowledges. Send and receive partition counts differ (args).
//
// usage: early_bird SEND_PARTS RECV_PARTS TOTAL_INTS
#include "mpitest.h"

// Receive partition q has arrived once send partitions up to `ready` (all
// below it) cover q's last int.
static int should_have_arrived(int q, int ready, int total, int send_parts,
                               int recv_parts) {
  const int last_int = (q + 1) * (total / recv_parts) - 1;
  const int needed_send = last_int / (total / send_parts);
  return needed_send < ready;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc < 4) {
    MT_FAIL("usage: early_bird SEND_PARTS RECV_PARTS TOTAL_INTS");
  }
  const int send_parts = atoi(argv[1]);
  const int recv_parts = atoi(argv[2]);
  const int total = atoi(argv[3]);
  const int rank = mt_rank();
  int* buf = mt_malloc((size_t)total * sizeof(int));
  MPI_Request req;
  if (rank == 0) {
    MPI_Psend_init(buf, send_parts, total / send_parts, MPI_INT, 1, 0,
                   MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  } else if (rank == 1) {
    MPI_Precv_init(buf, recv_parts, total / recv_parts, MPI_INT, 0, 0,
                   MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  }
  const long iterations = mt_scale(50);
  for (long iter = 0; iter < iterations && rank < 2; ++iter) {
    if (rank == 0) {
      for (int i = 0; i < total; ++i) {
        buf[i] = (int)mt_seed(0, (uint32_t)iter, (uint32_t)i, 3);
      }
      MPI_Start(&req);
      for (int p = 0; p < send_parts; ++p) {
        MPI_Pready(p, req);
        MPI_Recv(NULL, 0, MPI_BYTE, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
      memset(buf, 0xff, (size_t)total * sizeof(int));
      MPI_Start(&req);
      for (int ready = 1; ready <= send_parts; ++ready) {
        for (int q = 0; q < recv_parts; ++q) {
          int flag = 0;
          if (should_have_arrived(q, ready, total, send_parts, recv_parts)) {
            while (!flag) {
              MPI_Parrived(req, q, &flag);
            }
            const int per = total / recv_parts;
            for (int i = q * per; i < (q + 1) * per; ++i) {
              const int expected =
                  (int)mt_seed(0, (uint32_t)iter, (uint32_t)i, 3);
              MT_CHECK(buf[i] == expected,
                       "iteration %ld: partition %d int %d is %d, expected %d",
                       iter, q, i, buf[i], expected);
            }
          } else {
            MPI_Parrived(req, q, &flag);
            MT_CHECK(!flag,
                     "iteration %ld: partition %d arrived with only %d of %d "
                     "send partitions ready",
                     iter, q, ready, send_parts);
          }
        }
        MPI_Send(NULL, 0, MPI_BYTE, 0, 99, MPI_COMM_WORLD);
      }
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
  }
  if (rank < 2) {
    MPI_Request_free(&req);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
