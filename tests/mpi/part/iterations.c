// SPDX-License-Identifier: MIT
// MPI 4.0 §4.2: "MPI_PREADY ... indicates that a given portion of the send
// buffer in the partitioned send is ready to be transferred", and the send
// and the receive "may have different numbers of partitions" as long as
// they describe the same message.
//
// Every rank sends to its right neighbour and receives from its left, for
// many iterations with new data each time; the send partitions are made
// ready in the order given (forward, reverse, random) with MPI_Pready,
// MPI_Pready_range or MPI_Pready_list. Even ranks initialise the send
// first, odd ranks the receive, so either side initialises first.
//
// usage: iterations ORDER SEND_PARTS RECV_PARTS TOTAL_INTS MODE
#include "mpitest.h"

static void permutation(int* perm, int n, const char* order, unsigned seed) {
  for (int i = 0; i < n; ++i) {
    perm[i] = strcmp(order, "reverse") == 0 ? n - 1 - i : i;
  }
  if (strcmp(order, "random") == 0) {
    for (int i = n - 1; i > 0; --i) {
      seed = seed * 1103515245u + 12345u;
      const int j = (int)((seed >> 8) % (unsigned)(i + 1));
      const int t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc < 6) {
    MT_FAIL("usage: iterations ORDER SEND_PARTS RECV_PARTS TOTAL_INTS MODE");
  }
  const char* order = argv[1];
  const int send_parts = atoi(argv[2]);
  const int recv_parts = atoi(argv[3]);
  const int total = atoi(argv[4]);
  const char* mode = argv[5];
  MT_ASSERT(total % send_parts == 0 && total % recv_parts == 0);
  const int rank = mt_rank();
  const int size = mt_size();
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  int* sbuf = mt_malloc((size_t)total * sizeof(int));
  int* rbuf = mt_malloc((size_t)total * sizeof(int));
  int* perm = mt_malloc((size_t)send_parts * sizeof(int));
  MPI_Request sreq = MPI_REQUEST_NULL;
  MPI_Request rreq = MPI_REQUEST_NULL;
  for (int step = 0; step < 2; ++step) {
    if ((step == 0) == (rank % 2 == 0)) {
      MPI_Psend_init(sbuf, send_parts, total / send_parts, MPI_INT, right, 11,
                     MPI_COMM_WORLD, MPI_INFO_NULL, &sreq);
    } else {
      MPI_Precv_init(rbuf, recv_parts, total / recv_parts, MPI_INT, left, 11,
                     MPI_COMM_WORLD, MPI_INFO_NULL, &rreq);
    }
  }
  const long iterations = mt_scale(size <= 2 ? 300 : 600 / size);
  for (long iter = 0; iter < iterations; ++iter) {
    for (int i = 0; i < total; ++i) {
      sbuf[i] = (int)mt_seed((uint32_t)rank, (uint32_t)iter, (uint32_t)i, 7);
    }
    memset(rbuf, 0xff, (size_t)total * sizeof(int));
    MPI_Start(&rreq);
    MPI_Start(&sreq);
    permutation(perm, send_parts, order, (unsigned)(iter * 31 + rank));
    if (strcmp(mode, "list") == 0) {
      const int half = send_parts / 2;
      MPI_Pready_list(half, perm, sreq);
      MPI_Pready_list(send_parts - half, perm + half, sreq);
    } else if (strcmp(mode, "range") == 0) {
      // Chunks of 3 partitions, last chunk first.
      for (int hi = send_parts - 1; hi >= 0; hi -= 3) {
        const int lo = hi - 2 < 0 ? 0 : hi - 2;
        MPI_Pready_range(lo, hi, sreq);
      }
    } else {
      for (int i = 0; i < send_parts; ++i) {
        MPI_Pready(perm[i], sreq);
      }
    }
    // Every receive partition arrives (polled before the wait).
    for (int p = 0; p < recv_parts; ++p) {
      int flag = 0;
      while (!flag) {
        MPI_Parrived(rreq, p, &flag);
      }
    }
    MPI_Status status;
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    MPI_Wait(&rreq, &status);
    int count = -1;
    MPI_Get_count(&status, MPI_INT, &count);
    MT_CHECK(count == total, "iteration %ld: count %d, expected %d", iter,
             count, total);
    for (int i = 0; i < total; ++i) {
      const int expected =
          (int)mt_seed((uint32_t)left, (uint32_t)iter, (uint32_t)i, 7);
      MT_CHECK(rbuf[i] == expected, "iteration %ld: int %d is %d, expected %d",
               iter, i, rbuf[i], expected);
    }
  }
  MPI_Request_free(&sreq);
  MPI_Request_free(&rreq);
  free(sbuf);
  free(rbuf);
  free(perm);
  MPI_Finalize();
  return 0;
}
