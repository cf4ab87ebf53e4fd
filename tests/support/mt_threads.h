// SPDX-License-Identifier: MIT
// For test programs that run their work in several threads of each rank
// (MPI_THREAD_MULTIPLE) or, given no threads, in the main thread alone.
#ifndef SHMPI_TESTS_SUPPORT_MT_THREADS_H_
#define SHMPI_TESTS_SUPPORT_MT_THREADS_H_

#include <pthread.h>

#include "mpitest.h"

enum { kMtMaxThreads = 16 };

// MPI_Init without threads; with `threads` (1 to kMtMaxThreads),
// MPI_Init_thread asking for MPI_THREAD_MULTIPLE, failing unless granted.
static inline void mt_init_threads(int* argc, char*** argv, int threads) {
  MT_CHECK(threads >= 0 && threads <= kMtMaxThreads, "0 to %d threads",
           (int)kMtMaxThreads);
  if (threads == 0) {
    MPI_Init(argc, argv);
    return;
  }
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
  MT_CHECK(provided == MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE refused");
}

// Runs body(item t) for each of `threads` items of `item_size` bytes from
// `items`, each in a thread of its own, and waits for them; without
// threads, body(item 0) in this thread.
static inline void mt_run_threads(int threads, void* (*body)(void*),
                                  void* items, size_t item_size) {
  if (threads == 0) {
    body(items);
    return;
  }
  pthread_t ids[kMtMaxThreads];
  for (int t = 0; t < threads; ++t) {
    void* item = (char*)items + (size_t)t * item_size;
    MT_CHECK(pthread_create(&ids[t], NULL, body, item) == 0,
             "pthread_create failed");
  }
  for (int t = 0; t < threads; ++t) {
    pthread_join(ids[t], NULL);
  }
}

#endif  // SHMPI_TESTS_SUPPORT_MT_THREADS_H_
