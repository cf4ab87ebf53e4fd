// SPDX-License-Identifier: MIT
// MPI 4.0 §12.5.2 with groups of several processes: every rank posts its
// window to the whole job and starts an access epoch to the whole job
// (itself included), stores its stamp into its own slot of every member's
// window, and after MPI_Win_wait (or MPI_Win_test polling, args=test)
// finds every member's stamp in its own window. The groups are given in
// reverse rank order, which must not matter.
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int poll = argc > 1 && strcmp(argv[1], "test") == 0;
  const int rank = mt_rank();
  const int size = mt_size();
  int* mine = NULL;
  MPI_Win win = MPI_WIN_NULL;
  MT_CHECK_MPI(MPI_Win_allocate_shared((MPI_Aint)size * sizeof(int),
                                       sizeof(int), MPI_INFO_NULL,
                                       MPI_COMM_WORLD, &mine, &win));
  int** slots = malloc((size_t)size * sizeof *slots);
  int* reversed = malloc((size_t)size * sizeof *reversed);
  MT_ASSERT(slots != NULL && reversed != NULL);
  for (int t = 0; t < size; ++t) {
    MPI_Aint bytes = 0;
    int unit = 0;
    MT_CHECK_MPI(MPI_Win_shared_query(win, t, &bytes, &unit, &slots[t]));
    reversed[t] = size - 1 - t;
  }
  MPI_Group world_group;
  MPI_Group everyone;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Group_incl(world_group, size, reversed, &everyone);
  const long rounds = mt_scale(size > 4 ? 20 : 100);
  for (long r = 0; r < rounds; ++r) {
    MT_CHECK_MPI(MPI_Win_post(everyone, 0, win));
    MT_CHECK_MPI(MPI_Win_start(everyone, 0, win));
    for (int t = 0; t < size; ++t) {
      ((volatile int*)slots[t])[rank] = (int)(r * 1000 + rank);
    }
    MT_CHECK_MPI(MPI_Win_complete(win));
    if (poll) {
      int flag = 0;
      while (!flag) {
        MT_CHECK_MPI(MPI_Win_test(win, &flag));
      }
    } else {
      MT_CHECK_MPI(MPI_Win_wait(win));
    }
    for (int o = 0; o < size; ++o) {
      const int seen = ((volatile int*)mine)[o];
      MT_CHECK(seen == (int)(r * 1000 + o),
               "round %ld: slot of rank %d holds %d", r, o, seen);
    }
  }
  MPI_Group_free(&everyone);
  MPI_Group_free(&world_group);
  free(slots);
  free(reversed);
  MT_CHECK_MPI(MPI_Win_free(&win));
  MPI_Finalize();
  return 0;
}
