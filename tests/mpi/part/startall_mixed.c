// SPDX-License-Identifier: MIT
// MPI 4.0 §3.9 and §4.2: MPI_STARTALL starts persistent and partitioned
// requests alike; the wait and test functions complete both.
//
// Every rank exchanges with both neighbours: a partitioned pair to the
// right, a persistent pair to the left, all four started by one
// MPI_Startall and completed by MPI_Waitall, MPI_Waitsome and MPI_Testany in
// turn (argument "rotate"), or by MPI_Testall (argument "testall").
#include "mpitest.h"

enum { kInts = 4096, kParts = 16 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int testall = argc > 1 && strcmp(argv[1], "testall") == 0;
  const int rank = mt_rank();
  const int size = mt_size();
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  int* psend = mt_malloc(kInts * sizeof(int));
  int* precv = mt_malloc(kInts * sizeof(int));
  int* send = mt_malloc(kInts * sizeof(int));
  int* recv = mt_malloc(kInts * sizeof(int));
  MPI_Request reqs[4];
  MPI_Precv_init(precv, kParts, kInts / kParts, MPI_INT, left, 1,
                 MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]);
  MPI_Recv_init(recv, kInts, MPI_INT, right, 2, MPI_COMM_WORLD, &reqs[1]);
  MPI_Psend_init(psend, kParts, kInts / kParts, MPI_INT, right, 1,
                 MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[2]);
  MPI_Send_init(send, kInts, MPI_INT, left, 2, MPI_COMM_WORLD, &reqs[3]);
  const long iterations = mt_scale(200);
  for (long iter = 0; iter < iterations; ++iter) {
    for (int i = 0; i < kInts; ++i) {
      psend[i] = (int)mt_seed((uint32_t)rank, 1, (uint32_t)iter, (uint32_t)i);
      send[i] = (int)mt_seed((uint32_t)rank, 2, (uint32_t)iter, (uint32_t)i);
    }
    MPI_Startall(4, reqs);
    MPI_Pready_range(0, kParts - 1, reqs[2]);
    switch (testall ? 3 : iter % 3) {
      case 0:
        MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
        break;
      case 1: {
        int done = 0;
        while (done < 4) {
          int outcount = 0;
          int indices[4];
          MPI_Waitsome(4, reqs, &outcount, indices, MPI_STATUSES_IGNORE);
          MT_ASSERT(outcount != MPI_UNDEFINED);
          done += outcount;
        }
        break;
      }
      case 2: {
        int done = 0;
        while (done < 4) {
          int index = 0;
          int flag = 0;
          MPI_Testany(4, reqs, &index, &flag, MPI_STATUS_IGNORE);
          if (flag && index != MPI_UNDEFINED) {
            ++done;
          }
        }
        break;
      }
      default: {
        int flag = 0;
        while (!flag) {
          MPI_Testall(4, reqs, &flag, MPI_STATUSES_IGNORE);
        }
        break;
      }
    }
    for (int i = 0; i < kInts; ++i) {
      MT_CHECK(precv[i] ==
                   (int)mt_seed((uint32_t)left, 1, (uint32_t)iter, (uint32_t)i),
               "iteration %ld: partitioned int %d wrong", iter, i);
      MT_CHECK(recv[i] == (int)mt_seed((uint32_t)right, 2, (uint32_t)iter,
                                       (uint32_t)i),
               "iteration %ld: persistent int %d wrong", iter, i);
    }
  }
  for (int i = 0; i < 4; ++i) {
    MPI_Request_free(&reqs[i]);
  }
  free(psend);
  free(precv);
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
