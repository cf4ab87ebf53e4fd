// SPDX-License-Identifier: MIT
// MPI 4.0 §11.6: "MPI_THREAD_MULTIPLE: Multiple threads may call MPI, with
// no restrictions"; blocked threads do not keep others from progressing.
//
// Each rank runs 4 threads. Thread t sends to the right neighbour and
// receives from the left neighbour on tag t, all threads at once through the
// same pair of peers, with small and large messages, blocking and
// nonblocking, and checks every message's content and status.
#include <pthread.h>

#include "mpitest.h"

enum { kThreads = 4 };
static const size_t kLens[] = {8, 1000, 70000, 0, 64};
enum { kLenCount = sizeof kLens / sizeof kLens[0] };

static int rank;
static int size;
static long iterations;

static void* worker(void* arg) {
  const int t = (int)(intptr_t)arg;
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  char* send_buf = mt_malloc(70000);
  char* recv_buf = mt_malloc(70000 + MT_GUARD_LEN);
  int is_main = 1;
  MPI_Is_thread_main(&is_main);
  MT_CHECK(!is_main, "MPI_Is_thread_main is true in thread %d", t);
  for (long iter = 0; iter < iterations; ++iter) {
    const size_t len = kLens[(iter + t) % kLenCount];
    mt_fill(send_buf, len,
            mt_seed((uint32_t)rank, (uint32_t)t, (uint32_t)iter, 12));
    mt_fill_guard(recv_buf, len);
    MPI_Status status;
    MPI_Request reqs[2];
    switch ((iter + t) % 3) {
      case 0:
        MPI_Isend(send_buf, (int)len, MPI_BYTE, right, t, MPI_COMM_WORLD,
                  &reqs[0]);
        MPI_Recv(recv_buf, (int)len, MPI_BYTE, left, t, MPI_COMM_WORLD,
                 &status);
        MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
        break;
      case 1: {
        MPI_Status statuses[2];
        MPI_Irecv(recv_buf, (int)len, MPI_BYTE, left, t, MPI_COMM_WORLD,
                  &reqs[0]);
        MPI_Isend(send_buf, (int)len, MPI_BYTE, right, t, MPI_COMM_WORLD,
                  &reqs[1]);
        MPI_Waitall(2, reqs, statuses);
        status = statuses[0];
        break;
      }
      default:
        MPI_Sendrecv(send_buf, (int)len, MPI_BYTE, right, t, recv_buf, (int)len,
                     MPI_BYTE, left, t, MPI_COMM_WORLD, &status);
        break;
    }
    int count = -1;
    MPI_Get_count(&status, MPI_BYTE, &count);
    MT_CHECK(
        status.MPI_SOURCE == left && status.MPI_TAG == t && count == (int)len,
        "thread %d iteration %ld: status %d/%d/%d", t, iter, status.MPI_SOURCE,
        status.MPI_TAG, count);
    MT_CHECK_PATTERN(recv_buf, len,
                     mt_seed((uint32_t)left, (uint32_t)t, (uint32_t)iter, 12),
                     "threaded message");
    MT_CHECK_GUARD(recv_buf, len, "threaded message");
  }
  free(recv_buf);
  free(send_buf);
  return NULL;
}

int main(int argc, char** argv) {
  int provided = -1;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MT_CHECK(provided == MPI_THREAD_MULTIPLE,
           "MPI_Init_thread provided %d, expected MPI_THREAD_MULTIPLE (%d)",
           provided, MPI_THREAD_MULTIPLE);
  int queried = -1;
  MPI_Query_thread(&queried);
  MT_CHECK(queried == MPI_THREAD_MULTIPLE, "MPI_Query_thread says %d", queried);
  rank = mt_rank();
  size = mt_size();
  iterations = mt_scale(size <= 2 ? 300 : 600 / size);
  pthread_t threads[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    MT_CHECK(pthread_create(&threads[t], NULL, worker, (void*)(intptr_t)t) == 0,
             "pthread_create failed");
  }
  for (int t = 0; t < kThreads; ++t) {
    pthread_join(threads[t], NULL);
  }
  int is_main = 0;
  MPI_Is_thread_main(&is_main);
  MT_CHECK(is_main, "MPI_Is_thread_main is false in the main thread");
  MPI_Finalize();
  return 0;
}
