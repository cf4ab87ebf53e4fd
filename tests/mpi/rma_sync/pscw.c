// SPDX-License-Identifier: MIT
// MPI 4.0 §12.5.2: MPI_WIN_START "starts an RMA access epoch for win. RMA
// calls issued on win during this epoch must access only windows at
// processes in group. Each process in group must issue a matching call to
// MPI_WIN_POST"; MPI_WIN_WAIT "will block until all matching calls to
// MPI_WIN_COMPLETE have occurred", and MPI_WIN_TEST is its nonblocking
// version: "flag = true is returned only if all ... matching calls to
// MPI_WIN_COMPLETE have occurred. ... Once the call has returned flag =
// true, it must not be invoked anew, until the window is posted anew."
//
// A ring on an MPI_Win_allocate_shared window: each rank exposes its
// window to its left neighbour and accesses its right neighbour's, storing
// a value for the round there between MPI_Win_start and MPI_Win_complete;
// after MPI_Win_wait (args=wait) or MPI_Win_test polling (args=test) it
// checks the value its left neighbour stored. args=nocheck posts and starts
// with MPI_MODE_NOCHECK, after a barrier that makes the promise true.
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const char* mode = argc > 1 ? argv[1] : "wait";
  const int poll = strcmp(mode, "test") == 0;
  const int nocheck = strcmp(mode, "nocheck") == 0;
  const int rank = mt_rank();
  const int size = mt_size();
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  int* mine = NULL;
  MPI_Win win = MPI_WIN_NULL;
  MT_CHECK_MPI(MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL,
                                       MPI_COMM_WORLD, &mine, &win));
  int* theirs = NULL;
  MPI_Aint bytes = 0;
  int unit = 0;
  MT_CHECK_MPI(MPI_Win_shared_query(win, right, &bytes, &unit, &theirs));
  *mine = -1;
  MPI_Group world_group;
  MPI_Group left_group;
  MPI_Group right_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Group_incl(world_group, 1, &left, &left_group);
  MPI_Group_incl(world_group, 1, &right, &right_group);
  MPI_Barrier(MPI_COMM_WORLD);  // *mine = -1 before anyone stores
  const long rounds = mt_scale(size > 4 ? 50 : 300);
  long unfinished_tests = 0;
  for (long r = 0; r < rounds; ++r) {
    const int assert = nocheck ? MPI_MODE_NOCHECK : 0;
    if (nocheck) {
      // MPI_MODE_NOCHECK: "the matching calls to MPI_WIN_POST have already
      // completed on all target processes when MPI_WIN_START is called".
      MT_CHECK_MPI(MPI_Win_post(left_group, assert, win));
      MPI_Barrier(MPI_COMM_WORLD);
    } else {
      MT_CHECK_MPI(MPI_Win_post(left_group, assert, win));
    }
    MT_CHECK_MPI(MPI_Win_start(right_group, assert, win));
    *(volatile int*)theirs = (int)(r * 1000 + rank);
    MT_CHECK_MPI(MPI_Win_complete(win));
    if (poll) {
      int flag = 0;
      while (!flag) {
        MT_CHECK_MPI(MPI_Win_test(win, &flag));
        unfinished_tests += !flag;
      }
    } else {
      MT_CHECK_MPI(MPI_Win_wait(win));
    }
    const int seen = *(volatile int*)mine;
    MT_CHECK(seen == (int)(r * 1000 + left),
             "round %ld: slot holds %d, expected %d", r, seen,
             (int)(r * 1000 + left));
  }
  (void)unfinished_tests;
  MPI_Group_free(&left_group);
  MPI_Group_free(&right_group);
  MPI_Group_free(&world_group);
  MT_CHECK_MPI(MPI_Win_free(&win));
  MPI_Finalize();
  return 0;
}
