// SPDX-License-Identifier: MIT
// Erroneous one-sided synchronisation (MPI 4.0 §12.5 and the
// error classes of §9.4): under MPI_ERRORS_ARE_FATAL, the window's default
// handler, rank 0 makes one bad call and the job must end with a
// non-zero status and a message naming the call (checked in the
// manifest). args=fatal,CASE:
//   fence_assert        MPI_Win_fence with an assert bit that is not one
//                       of fence's (MPI_ERR_ASSERT)
//   unlock_unlocked     MPI_Win_unlock of a target never locked
//                       (MPI_ERR_RMA_SYNC)
//   complete_unstarted  MPI_Win_complete without MPI_Win_start
//                       (MPI_ERR_RMA_SYNC)
//   wait_unposted       MPI_Win_wait without MPI_Win_post (MPI_ERR_RMA_SYNC)
//   lock_type           MPI_Win_lock with a lock type that is neither
//                       MPI_LOCK_SHARED nor _EXCLUSIVE (MPI_ERR_LOCKTYPE)
//   lock_twice          MPI_Win_lock of a target this process has locked
//                       already (MPI_ERR_RMA_SYNC)
//   flush_unlocked      MPI_Win_flush outside a passive-target epoch
//                       (MPI_ERR_RMA_SYNC)
#include "mpitest.h"

static void bad_call(const char* what, MPI_Win win) {
  if (strcmp(what, "fence_assert") == 0) {
    MPI_Win_fence(MPI_MODE_NOCHECK, win);
  } else if (strcmp(what, "unlock_unlocked") == 0) {
    MPI_Win_unlock(0, win);
  } else if (strcmp(what, "complete_unstarted") == 0) {
    MPI_Win_complete(win);
  } else if (strcmp(what, "wait_unposted") == 0) {
    MPI_Win_wait(win);
  } else if (strcmp(what, "lock_type") == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED + MPI_LOCK_EXCLUSIVE + 7, 0, 0, win);
  } else if (strcmp(what, "lock_twice") == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
  } else if (strcmp(what, "flush_unlocked") == 0) {
    MPI_Win_flush(0, win);
  } else {
    MT_FAIL("unknown case %s", what);
  }
  MT_FAIL("%s returned under MPI_ERRORS_ARE_FATAL", what);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MT_CHECK(argc > 2 && strcmp(argv[1], "fatal") == 0,
           "usage: errors fatal CASE");
  int* memory = NULL;
  MPI_Win win = MPI_WIN_NULL;
  MT_CHECK_MPI(
      MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &memory, &win));
  if (mt_rank() == 0) {
    bad_call(argv[2], win);
  }
  MPI_Barrier(MPI_COMM_WORLD);  // the others wait here for the abort
  MT_FAIL("the job survived a fatal error");
}
