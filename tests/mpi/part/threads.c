// SPDX-License-Identifier: MIT
// MPI 4.0 §4.2.2: "MPI_PREADY ... may be called ... from multiple threads
// ... for different partitions" under MPI_THREAD_MULTIPLE.
//
// Two ranks send to each other. In every iteration four threads each make
// a quarter of the send partitions ready (in reverse order) and poll
// MPI_Parrived on a quarter of the receive partitions until they have all
// arrived, checking their content; the main thread then waits. With
// "alloc" both buffers come from MPI_Alloc_mem (shmpi's senders then write
// into the receive buffer directly once they have the iteration's CTS).
//
// usage: threads [alloc]
#include <pthread.h>

#include "mpitest.h"

enum { kThreads = 4, kParts = 32, kPerPart = 256 };

static int* sbuf;
static int* rbuf;
static MPI_Request sreq;
static MPI_Request rreq;
static long iteration;
static int peer;

static void* worker(void* arg) {
  const int t = (int)(intptr_t)arg;
  for (int p = kParts - kThreads + t; p >= 0; p -= kThreads) {
    MPI_Pready(p, sreq);
  }
  for (int p = t; p < kParts; p += kThreads) {
    int flag = 0;
    while (!flag) {
      MPI_Parrived(rreq, p, &flag);
    }
    for (int i = p * kPerPart; i < (p + 1) * kPerPart; ++i) {
      const int expected =
          (int)mt_seed((uint32_t)peer, (uint32_t)iteration, (uint32_t)i, 5);
      MT_CHECK(rbuf[i] == expected,
               "iteration %ld: partition %d int %d is %d, expected %d",
               iteration, p, i, rbuf[i], expected);
    }
  }
  return NULL;
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    MPI_Finalize();
    return MT_SKIP_CODE;
  }
  const int rank = mt_rank();
  peer = 1 - rank;
  const int total = kParts * kPerPart;
  const int alloc = argc > 1 && strcmp(argv[1], "alloc") == 0;
  if (alloc) {
    MPI_Alloc_mem((MPI_Aint)total * (MPI_Aint)sizeof(int), MPI_INFO_NULL,
                  &sbuf);
    MPI_Alloc_mem((MPI_Aint)total * (MPI_Aint)sizeof(int), MPI_INFO_NULL,
                  &rbuf);
    MT_ASSERT(sbuf != NULL && rbuf != NULL);
  } else {
    sbuf = mt_malloc((size_t)total * sizeof(int));
    rbuf = mt_malloc((size_t)total * sizeof(int));
  }
  MPI_Psend_init(sbuf, kParts, kPerPart, MPI_INT, peer, 0, MPI_COMM_WORLD,
                 MPI_INFO_NULL, &sreq);
  MPI_Precv_init(rbuf, kParts, kPerPart, MPI_INT, peer, 0, MPI_COMM_WORLD,
                 MPI_INFO_NULL, &rreq);
  const long iterations = mt_scale(100);
  for (iteration = 0; iteration < iterations; ++iteration) {
    for (int i = 0; i < total; ++i) {
      sbuf[i] =
          (int)mt_seed((uint32_t)rank, (uint32_t)iteration, (uint32_t)i, 5);
    }
    MPI_Start(&rreq);
    MPI_Start(&sreq);
    pthread_t threads[kThreads];
    for (int t = 0; t < kThreads; ++t) {
      pthread_create(&threads[t], NULL, worker, (void*)(intptr_t)t);
    }
    for (int t = 0; t < kThreads; ++t) {
      pthread_join(threads[t], NULL);
    }
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    MPI_Wait(&rreq, MPI_STATUS_IGNORE);
  }
  MPI_Request_free(&sreq);
  MPI_Request_free(&rreq);
  if (alloc) {
    MPI_Free_mem(sbuf);
    MPI_Free_mem(rbuf);
  } else {
    free(sbuf);
    free(rbuf);
  }
  MPI_Finalize();
  return 0;
}
