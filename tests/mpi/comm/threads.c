// SPDX-License-Identifier: MIT
// MPI 4.0 §11.6: under MPI_THREAD_MULTIPLE, threads may create
// communicators concurrently, as long as the collective calls on any one
// communicator are ordered the same way everywhere; creating a communicator
// is collective on its parent, so each parent is used by one thread only.
//
// Each rank runs 4 threads. Before they start, the main thread makes one
// parent communicator per thread (MPI_Comm_dup of MPI_COMM_WORLD, in the
// same order everywhere). Thread t then repeatedly dups or splits its own
// parent, at the same time as the other threads do theirs, and exchanges
// messages on the result (ring and gather with wildcards, one Allreduce)
// while also exchanging a message on its parent, every thread on the same
// tag: a message landing on the wrong communicator shows as a wrong thread,
// iteration or sender. Skipped (status 77) without MPI_THREAD_MULTIPLE.
#include <pthread.h>

#include "mt_comm.h"

enum { kThreads = 4, kTag = 3 };

static int rank;
static int size;
static long iterations;
static MPI_Comm parents[kThreads];
static int world_members[kMtMaxMembers];

static void* worker(void* arg) {
  const int t = (int)(intptr_t)arg;
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  for (long iter = 0; iter < iterations; ++iter) {
    // A message on the parent, in flight while the child is made and used.
    int parent_in[3] = {-1, -1, -1};
    const int parent_out[3] = {t, (int)iter, rank};
    MPI_Request parent_reqs[2];
    MPI_Irecv(parent_in, 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, parents[t],
              &parent_reqs[0]);
    MPI_Isend(parent_out, 3, MPI_INT, right, kTag, parents[t], &parent_reqs[1]);

    MPI_Comm comm = MPI_COMM_NULL;
    int members[kMtMaxMembers];
    int n = 0;
    char what[96];
    if (iter % 2 == 0) {
      MPI_Comm_dup(parents[t], &comm);
      memcpy(members, world_members, sizeof(int) * (size_t)size);
      n = size;
      snprintf(what, sizeof what, "thread %d iteration %ld: dup", t, iter);
    } else {
      const int color = (rank + (int)iter / 2) % 2;
      const int reversed = iter % 4 == 3;
      for (int k = 0; k < size; ++k) {
        const int r = reversed ? size - 1 - k : k;
        if ((r + (int)iter / 2) % 2 == color) {
          members[n++] = r;
        }
      }
      MPI_Comm_split(parents[t], color, reversed ? -rank : rank, &comm);
      snprintf(what, sizeof what, "thread %d iteration %ld: split%s", t, iter,
               reversed ? " (reversed)" : "");
    }
    int got_size = -1;
    int got_rank = -1;
    MPI_Comm_size(comm, &got_size);
    MPI_Comm_rank(comm, &got_rank);
    MT_CHECK(got_size == n && got_rank >= 0 && got_rank < n &&
                 members[got_rank] == rank,
             "%s: size %d rank %d, expected size %d and the rank of world "
             "rank %d in [%s]",
             what, got_size, got_rank, n, rank, mt_rank_list(members, n));
    MT_CHECK_P2P(comm, members, n, kTag, t * 100000 + (int)iter, what);
    long sum = 0;
    long expected = 0;
    const long mine = (long)t * 1000 + rank;
    for (int i = 0; i < n; ++i) {
      expected += (long)t * 1000 + members[i];
    }
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, comm);
    MT_CHECK(sum == expected, "%s: MPI_Allreduce gave %ld, expected %ld", what,
             sum, expected);
    MPI_Comm_free(&comm);

    MPI_Status statuses[2];
    MPI_Waitall(2, parent_reqs, statuses);
    MT_CHECK(parent_in[0] == t && parent_in[1] == (int)iter &&
                 parent_in[2] == left && statuses[0].MPI_SOURCE == left &&
                 statuses[0].MPI_TAG == kTag,
             "thread %d iteration %ld: the message on its parent was {thread "
             "%d, iteration %d, world rank %d} from source %d tag %d",
             t, iter, parent_in[0], parent_in[1], parent_in[2],
             statuses[0].MPI_SOURCE, statuses[0].MPI_TAG);
  }
  return NULL;
}

int main(int argc, char** argv) {
  int provided = -1;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (mt_rank() == 0) {
      printf("skipped: MPI_Init_thread provided %d, not MPI_THREAD_MULTIPLE\n",
             provided);
    }
    MPI_Finalize();
    return MT_SKIP_CODE;
  }
  rank = mt_rank();
  size = mt_size();
  MT_CHECK(size <= kMtMaxMembers, "at most %d ranks", kMtMaxMembers);
  for (int i = 0; i < size; ++i) {
    world_members[i] = i;
  }
  iterations = mt_scale(size <= 2 ? 40 : size <= 4 ? 20 : 6);
  for (int t = 0; t < kThreads; ++t) {
    MPI_Comm_dup(MPI_COMM_WORLD, &parents[t]);
  }
  pthread_t threads[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    MT_CHECK(pthread_create(&threads[t], NULL, worker, (void*)(intptr_t)t) == 0,
             "pthread_create failed");
  }
  for (int t = 0; t < kThreads; ++t) {
    pthread_join(threads[t], NULL);
  }
  for (int t = 0; t < kThreads; ++t) {
    MPI_Comm_free(&parents[t]);
  }
  MPI_Finalize();
  return 0;
}
