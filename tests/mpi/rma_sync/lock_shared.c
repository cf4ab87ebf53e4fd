// SPDX-License-Identifier: MIT
// MPI 4.0 §12.5.3: MPI_LOCK_SHARED locks let several origins access a
// target at once, but never while another holds it exclusively.
//
// First every rank takes a shared lock on rank 0 and, holding it, meets
// the others in MPI_Barrier: shared locks that excluded each other would
// hang here. Then rounds of a writer and readers on rank 0's window: in
// round r rank r % size takes the lock exclusively and stores a pair of
// equal values one after the other with a pause between; the others take
// it shared and check that the two values are equal (never half-written).
#include <sched.h>

#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  long* mine = NULL;
  MPI_Win win = MPI_WIN_NULL;
  MT_CHECK_MPI(MPI_Win_allocate_shared(2 * sizeof(long), sizeof(long),
                                       MPI_INFO_NULL, MPI_COMM_WORLD, &mine,
                                       &win));
  mine[0] = 0;
  mine[1] = 0;
  long* pair = NULL;
  MPI_Aint bytes = 0;
  int unit = 0;
  MT_CHECK_MPI(MPI_Win_shared_query(win, 0, &bytes, &unit, &pair));
  MPI_Barrier(MPI_COMM_WORLD);

  MT_CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
  MPI_Barrier(MPI_COMM_WORLD);  // every rank holds the shared lock now
  MT_CHECK_MPI(MPI_Win_unlock(0, win));

  const long rounds = mt_scale(size > 4 ? 40 : 200);
  volatile long* v = pair;
  for (long r = 0; r < rounds; ++r) {
    if (r % size == rank) {
      MT_CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
      MT_CHECK_MPI(MPI_Win_sync(win));
      v[0] = r + 1;
      MT_CHECK_MPI(MPI_Win_sync(win));
      sched_yield();
      v[1] = r + 1;
      MT_CHECK_MPI(MPI_Win_sync(win));
      MT_CHECK_MPI(MPI_Win_unlock(0, win));
    } else {
      MT_CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
      MT_CHECK_MPI(MPI_Win_sync(win));
      const long a = v[0];
      sched_yield();
      const long b = v[1];
      MT_CHECK_MPI(MPI_Win_unlock(0, win));
      MT_CHECK(a == b, "round %ld: read a half-written pair (%ld, %ld)", r, a,
               b);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MT_CHECK_MPI(MPI_Win_free(&win));
  MPI_Finalize();
  return 0;
}
