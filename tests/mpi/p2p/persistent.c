// SPDX-License-Identifier: MIT
// MPI 4.0 §3.9: a persistent request "can be reused ... MPI_START ... the
// call has the same semantics as a nonblocking communication operation"
// with the arguments bound at MPI_SEND_INIT / MPI_RECV_INIT time.
//
// Each rank binds sends to its right neighbour and receives from its left
// (small, medium and large buffers; standard and synchronous mode), then
// runs many iterations with new data each time, started with MPI_Startall or
// one MPI_Start at a time. Completed requests stay allocated and inactive:
// waiting on an inactive request returns at once with an empty status.
// MPI_Request_free releases them at the end.
#include "mpitest.h"

enum { kKinds = 3 };
static const size_t kLens[kKinds] = {8, 4096, (1 << 20) + 7};

static uint32_t seed_of(int from, int to, int kind, long iter) {
  return mt_seed((uint32_t)from, (uint32_t)to, (uint32_t)kind, (uint32_t)iter);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  char* send_bufs[kKinds];
  char* recv_bufs[kKinds];
  MPI_Request reqs[2 * kKinds];  // receives first, then sends
  for (int k = 0; k < kKinds; ++k) {
    send_bufs[k] = mt_malloc(kLens[k]);
    recv_bufs[k] = mt_malloc(kLens[k] + MT_GUARD_LEN);
    MPI_Recv_init(recv_bufs[k], (int)kLens[k], MPI_BYTE, left, k,
                  MPI_COMM_WORLD, &reqs[k]);
    if (k == 1) {
      MPI_Ssend_init(send_bufs[k], (int)kLens[k], MPI_BYTE, right, k,
                     MPI_COMM_WORLD, &reqs[kKinds + k]);
    } else {
      MPI_Send_init(send_bufs[k], (int)kLens[k], MPI_BYTE, right, k,
                    MPI_COMM_WORLD, &reqs[kKinds + k]);
    }
  }

  const long iterations = mt_scale(size <= 2 ? 300 : 400 / size);
  for (long iter = 0; iter < iterations; ++iter) {
    for (int k = 0; k < kKinds; ++k) {
      // New data for each start: the send reads the buffer when started.
      mt_fill(send_bufs[k], kLens[k], seed_of(rank, right, k, iter));
      mt_fill_guard(recv_bufs[k], kLens[k]);
    }
    if (iter % 2 == 0) {
      MPI_Startall(2 * kKinds, reqs);
    } else {
      for (int i = 0; i < 2 * kKinds; ++i) {
        MPI_Start(&reqs[i]);
      }
    }
    MPI_Status statuses[2 * kKinds];
    MPI_Waitall(2 * kKinds, reqs, statuses);
    for (int k = 0; k < kKinds; ++k) {
      MT_CHECK(
          reqs[k] != MPI_REQUEST_NULL && reqs[kKinds + k] != MPI_REQUEST_NULL,
          "MPI_Waitall freed a persistent request");
      int count = -1;
      MPI_Get_count(&statuses[k], MPI_BYTE, &count);
      MT_CHECK(statuses[k].MPI_SOURCE == left && statuses[k].MPI_TAG == k &&
                   count == (int)kLens[k],
               "iteration %ld: status %d/%d/%d", iter, statuses[k].MPI_SOURCE,
               statuses[k].MPI_TAG, count);
      MT_CHECK_PATTERN(recv_bufs[k], kLens[k], seed_of(left, rank, k, iter),
                       "persistent receive");
      MT_CHECK_GUARD(recv_bufs[k], kLens[k], "persistent receive");
    }
  }

  // Waiting on and testing inactive requests: immediate, empty status.
  for (int i = 0; i < 2 * kKinds; ++i) {
    MPI_Status status;
    status.MPI_SOURCE = 12345;
    status.MPI_TAG = 12345;
    MPI_Wait(&reqs[i], &status);
    int count = -1;
    MPI_Get_count(&status, MPI_BYTE, &count);
    MT_CHECK(status.MPI_SOURCE == MPI_ANY_SOURCE &&
                 status.MPI_TAG == MPI_ANY_TAG && count == 0,
             "MPI_Wait on an inactive request: status %d/%d/%d, expected an "
             "empty status",
             status.MPI_SOURCE, status.MPI_TAG, count);
    MT_CHECK(reqs[i] != MPI_REQUEST_NULL,
             "MPI_Wait freed an inactive persistent request");
    int flag = 0;
    MPI_Test(&reqs[i], &flag, &status);
    MT_CHECK(flag, "MPI_Test on an inactive request says not complete");
  }

  for (int i = 0; i < 2 * kKinds; ++i) {
    MPI_Request_free(&reqs[i]);
    MT_CHECK(reqs[i] == MPI_REQUEST_NULL,
             "MPI_Request_free did not set the handle to MPI_REQUEST_NULL");
  }
  for (int k = 0; k < kKinds; ++k) {
    free(send_bufs[k]);
    free(recv_bufs[k]);
  }
  MPI_Finalize();
  return 0;
}
