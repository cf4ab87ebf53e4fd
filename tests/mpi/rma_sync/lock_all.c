// SPDX-License-Identifier: MIT
// MPI 4.0 §12.5.3-4: MPI_WIN_LOCK_ALL "starts an RMA access epoch to all
// processes in win, with a lock type of MPI_LOCK_SHARED"; MPI_WIN_FLUSH,
// _FLUSH_LOCAL, _FLUSH_ALL and _FLUSH_LOCAL_ALL may be called inside a
// passive-target epoch (and complete the operations issued so far), and
// MPI_MODE_NOCHECK locks are locks too.
//
// Rounds: every rank takes lock_all and stores its stamp into its own slot
// of every member's window, flushing each target (both flush kinds), then
// flush_all / flush_local_all and unlock_all; after a barrier it checks
// all the stamps in its window. Then an exclusive lock on each target in
// turn with flushes inside, shared locks on two targets at once, and
// every other lock_all with MPI_MODE_NOCHECK (safe: no process takes an
// exclusive lock during those rounds).
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  int* mine = NULL;
  MPI_Win win = MPI_WIN_NULL;
  MT_CHECK_MPI(MPI_Win_allocate_shared((MPI_Aint)size * sizeof(int),
                                       sizeof(int), MPI_INFO_NULL,
                                       MPI_COMM_WORLD, &mine, &win));
  int** slots = malloc((size_t)size * sizeof *slots);
  MT_ASSERT(slots != NULL);
  for (int t = 0; t < size; ++t) {
    MPI_Aint bytes = 0;
    int unit = 0;
    MT_CHECK_MPI(MPI_Win_shared_query(win, t, &bytes, &unit, &slots[t]));
  }
  const long rounds = mt_scale(size > 4 ? 20 : 100);
  for (long r = 0; r < rounds; ++r) {
    const int assert = r % 2 == 0 ? 0 : MPI_MODE_NOCHECK;
    MT_CHECK_MPI(MPI_Win_lock_all(assert, win));
    for (int t = 0; t < size; ++t) {
      ((volatile int*)slots[t])[rank] = (int)(r * 1000 + rank);
      MT_CHECK_MPI(MPI_Win_flush(t, win));
      MT_CHECK_MPI(MPI_Win_flush_local(t, win));
    }
    MT_CHECK_MPI(MPI_Win_flush_all(win));
    MT_CHECK_MPI(MPI_Win_flush_local_all(win));
    MT_CHECK_MPI(MPI_Win_sync(win));
    MT_CHECK_MPI(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    MT_CHECK_MPI(MPI_Win_sync(win));
    for (int o = 0; o < size; ++o) {
      const int seen = ((volatile int*)mine)[o];
      MT_CHECK(seen == (int)(r * 1000 + o),
               "round %ld: slot of rank %d holds %d", r, o, seen);
    }
    MT_CHECK_MPI(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);  // checks done before the next stores
  }
  // Exclusive locks with flushes inside, target by target; the lock held
  // on one target while another is locked too.
  for (int t = 0; t < size; ++t) {
    MT_CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
    MT_CHECK_MPI(MPI_Win_flush(t, win));
    MT_CHECK_MPI(MPI_Win_flush_all(win));
    MT_CHECK_MPI(MPI_Win_flush_local_all(win));
    MT_CHECK_MPI(MPI_Win_unlock(t, win));
  }
  MT_CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
  if (size > 1) {
    MT_CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, size - 1, 0, win));
  }
  MT_CHECK_MPI(MPI_Win_flush_all(win));
  MT_CHECK_MPI(MPI_Win_unlock(0, win));
  if (size > 1) {
    MT_CHECK_MPI(MPI_Win_unlock(size - 1, win));
  }
  // MPI_PROC_NULL: an epoch on no process.
  MT_CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, MPI_PROC_NULL, 0, win));
  MT_CHECK_MPI(MPI_Win_unlock(MPI_PROC_NULL, win));
  free(slots);
  MT_CHECK_MPI(MPI_Win_free(&win));
  MPI_Finalize();
  return 0;
}
