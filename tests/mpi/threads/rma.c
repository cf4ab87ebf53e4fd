// SPDX-License-Identifier: MIT
// One-sided communication from several threads of each rank at once
// (MPI_THREAD_MULTIPLE): MPI 4.0 §12.7 lets threads make RMA calls and
// open and close passive-target epochs on one window concurrently, as long
// as one process does not lock one target twice.
//
// Part 1: under one MPI_Win_lock_all, every thread accumulates +1 into its
// own slot at a different target each iteration and flushes it, while all
// threads fetch-and-add one counter at rank 0; every slot ends at exactly
// kIterations and the counter at threads * size * kIterations.
// Part 2: thread t (t < size) locks target t exclusively, reads a counter
// with MPI_Get, writes it back plus one with MPI_Put and unlocks: a
// read-modify-write the lock alone protects, racing with the same thread
// of every other rank, and with its own process's other threads locking
// other targets. Each counter ends at size * kIterations.
// Part 3: on a dynamic window every thread attaches and detaches a region
// of its own over and over, then leaves it attached; the right neighbour
// then puts into all of them (a region lost by two threads changing the
// table at once would make that put fail with MPI_ERR_RMA_RANGE).
#include "mt_threads.h"

enum { kThreads = 4, kIterations = 200, kCounter = 8, kLocked = 9 };

typedef struct {
  MPI_Win win;
  int thread;
  int rank;
  int size;
} item;

static void* accumulate_body(void* p) {
  const item* it = p;
  const long one = 1;
  for (int i = 0; i < kIterations; ++i) {
    const int target = (it->rank + i) % it->size;
    MPI_Accumulate(&one, 1, MPI_LONG, target, it->thread, 1, MPI_LONG, MPI_SUM,
                   it->win);
    MPI_Win_flush(target, it->win);
    long before = -1;
    MPI_Fetch_and_op(&one, &before, MPI_LONG, 0, kCounter, MPI_SUM, it->win);
    MPI_Win_flush(0, it->win);
    MT_CHECK(before >= 0, "fetched %ld", before);
  }
  return NULL;
}

static void* lock_body(void* p) {
  const item* it = p;
  const int target = it->thread;
  if (target >= it->size) {
    return NULL;
  }
  for (int i = 0; i < kIterations; ++i) {
    long value = -1;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, it->win);
    MPI_Get(&value, 1, MPI_LONG, target, kLocked, 1, MPI_LONG, it->win);
    MPI_Win_flush(target, it->win);
    ++value;
    MPI_Put(&value, 1, MPI_LONG, target, kLocked, 1, MPI_LONG, it->win);
    MPI_Win_unlock(target, it->win);
  }
  return NULL;
}

static long regions[kThreads][4];

static void* attach_body(void* p) {
  const item* it = p;
  for (int i = 0; i < 5000; ++i) {
    MPI_Win_attach(it->win, regions[it->thread], sizeof regions[0]);
    MPI_Win_detach(it->win, regions[it->thread]);
  }
  MPI_Win_attach(it->win, regions[it->thread], sizeof regions[0]);
  return NULL;
}

int main(int argc, char** argv) {
  mt_init_threads(&argc, &argv, kThreads);
  const int rank = mt_rank();
  const int size = mt_size();
  long* base = NULL;
  MPI_Win win;
  MPI_Win_allocate(16 * sizeof(long), sizeof(long), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &base, &win);
  for (int i = 0; i < 16; ++i) {
    base[i] = 0;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  item items[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    items[t] = (item){win, t, rank, size};
  }

  MPI_Win_lock_all(0, win);
  mt_run_threads(kThreads, accumulate_body, items, sizeof(item));
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int t = 0; t < kThreads; ++t) {
    MT_CHECK(base[t] == kIterations, "slot %d = %ld, want %d", t, base[t],
             (int)kIterations);
  }
  if (rank == 0) {
    MT_CHECK(base[kCounter] == (long)kThreads * size * kIterations,
             "counter %ld, want %ld", base[kCounter],
             (long)kThreads * size * kIterations);
  }

  MPI_Barrier(MPI_COMM_WORLD);
  mt_run_threads(kThreads, lock_body, items, sizeof(item));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank < kThreads) {
    MT_CHECK(base[kLocked] == (long)size * kIterations,
             "locked counter %ld, want %ld", base[kLocked],
             (long)size * kIterations);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);

  MPI_Win dynamic;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dynamic);
  for (int t = 0; t < kThreads; ++t) {
    items[t].win = dynamic;
  }
  mt_run_threads(kThreads, attach_body, items, sizeof(item));
  MPI_Aint mine[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    MPI_Get_address(regions[t], &mine[t]);
  }
  const int left = (rank + size - 1) % size;
  const int right = (rank + 1) % size;
  MPI_Aint theirs[kThreads];
  MPI_Sendrecv(mine, kThreads, MPI_AINT, left, 0, theirs, kThreads, MPI_AINT,
               right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Win_lock_all(0, dynamic);
  for (int t = 0; t < kThreads; ++t) {
    const long value = rank * 10 + t;
    MPI_Put(&value, 1, MPI_LONG, right, theirs[t], 1, MPI_LONG, dynamic);
  }
  MPI_Win_unlock_all(dynamic);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int t = 0; t < kThreads; ++t) {
    MT_CHECK(regions[t][0] == left * 10 + t, "region %d holds %ld", t,
             regions[t][0]);
    MPI_Win_detach(dynamic, regions[t]);
  }
  MPI_Win_free(&dynamic);
  MPI_Finalize();
  if (rank == 0) {
    printf("threads rma: ok\n");
  }
  return 0;
}
