// SPDX-License-Identifier: MIT
// MPI 4.0 §12.5.3: MPI_LOCK_EXCLUSIVE locks "guarantee that no other
// process holds a lock of any kind on the window at the target while the
// epoch lasts" (the accesses of an exclusive epoch are not concurrent with
// any other epoch at that target).
//
// Every rank adds 1 to a counter in each member's window many times, each
// time as a non-atomic load, a pause and a store inside an exclusive lock
// of that member (the counter lives in an MPI_Win_allocate_shared window,
// reached with loads and stores). Without mutual exclusion increments get
// lost; with it every counter ends at exactly ranks x iterations.
#include <sched.h>

#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  long* mine = NULL;
  MPI_Win win = MPI_WIN_NULL;
  MT_CHECK_MPI(MPI_Win_allocate_shared(
      sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &win));
  *mine = 0;
  long** counters = malloc((size_t)size * sizeof *counters);
  MT_ASSERT(counters != NULL);
  for (int t = 0; t < size; ++t) {
    MPI_Aint bytes = 0;
    int unit = 0;
    MT_CHECK_MPI(MPI_Win_shared_query(win, t, &bytes, &unit, &counters[t]));
  }
  MPI_Barrier(MPI_COMM_WORLD);  // counters zero before anyone adds
  const long iterations = mt_scale(size > 4 ? 50 : 200);
  // Each rank adds `iterations` to every counter, visiting the targets in
  // turn from a different one than the others.
  for (long i = 0; i < iterations * size; ++i) {
    const int target = (int)((i + rank) % size);
    MT_CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
    MT_CHECK_MPI(MPI_Win_sync(win));
    volatile long* counter = counters[target];
    const long before = *counter;
    if (i % 16 == 0) {
      sched_yield();  // widen the window for a lost update
    }
    *counter = before + 1;
    MT_CHECK_MPI(MPI_Win_sync(win));
    MT_CHECK_MPI(MPI_Win_unlock(target, win));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MT_CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
  MT_CHECK_MPI(MPI_Win_sync(win));
  MT_CHECK(*(volatile long*)mine == size * iterations,
           "counter is %ld, expected %ld", *(volatile long*)mine,
           size * iterations);
  MT_CHECK_MPI(MPI_Win_unlock(rank, win));
  free(counters);
  MT_CHECK_MPI(MPI_Win_free(&win));
  MPI_Finalize();
  return 0;
}
