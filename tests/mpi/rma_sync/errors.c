// SPDX-License-Identifier: MIT
// Erroneous one-sided synchronisation (MPI 4.0 §12.5, §12.2.4 and the
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
//   attach_overlap      MPI_Win_attach of memory overlapping an attached
//                       region (MPI_ERR_RMA_ATTACH; shmpi: no MPI sentence
//                       defines the class for it)
//   attach_full         more regions than shmpi's table holds
//                       (MPI_ERR_RMA_ATTACH; shmpi only)
//   detach_unknown      MPI_Win_detach of a base never attached
//                       (MPI_ERR_RMA_ATTACH)
//   attach_flavor       MPI_Win_attach on a window that is not dynamic
//                       (MPI_ERR_RMA_FLAVOR)
#include "mpitest.h"

static void bad_call(const char* what, MPI_Win win, MPI_Win dynamic) {
  static char memory[4096];
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
  } else if (strcmp(what, "attach_overlap") == 0) {
    MPI_Win_attach(dynamic, memory, 128);
    MPI_Win_attach(dynamic, memory + 64, 128);
  } else if (strcmp(what, "attach_full") == 0) {
    for (int i = 0; i < 4096; ++i) {
      MPI_Win_attach(dynamic, memory + i, 1);
    }
  } else if (strcmp(what, "detach_unknown") == 0) {
    MPI_Win_attach(dynamic, memory, 128);
    MPI_Win_detach(dynamic, memory + 1);
  } else if (strcmp(what, "attach_flavor") == 0) {
    MPI_Win_attach(win, memory, 128);
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
  MPI_Win dynamic = MPI_WIN_NULL;
  MT_CHECK_MPI(
      MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &memory, &win));
  MT_CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dynamic));
  if (mt_rank() == 0) {
    bad_call(argv[2], win, dynamic);
  }
  MPI_Barrier(MPI_COMM_WORLD);  // the others wait here for the abort
  MT_FAIL("the job survived a fatal error");
}
