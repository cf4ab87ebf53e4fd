// SPDX-License-Identifier: MIT
// MPI 4.0 §12.5.1: "The call to MPI_WIN_FENCE completes an RMA access
// epoch if it was preceded by another fence call and the local process
// issued RMA communication calls on win between these two calls", and it
// separates the epochs of all members: what a member stored into the
// shared window before a fence is seen by every member after it.
//
// Rounds on an MPI_Win_allocate_shared window: each rank stores a value
// for the round into its right neighbour's slot, fences, and checks the
// value its left neighbour left in its own slot; the first fence asserts
// MPI_MODE_NOPRECEDE, the last MPI_MODE_NOSUCCEED, and the rounds in
// between use the other asserts.
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  int* mine = NULL;
  MPI_Win win = MPI_WIN_NULL;
  MT_CHECK_MPI(MPI_Win_allocate_shared(2 * sizeof(int), sizeof(int),
                                       MPI_INFO_NULL, MPI_COMM_WORLD, &mine,
                                       &win));
  int* theirs = NULL;
  MPI_Aint bytes = 0;
  int unit = 0;
  MT_CHECK_MPI(MPI_Win_shared_query(win, right, &bytes, &unit, &theirs));
  MT_ASSERT(bytes == 2 * (MPI_Aint)sizeof(int) && unit == (int)sizeof(int));
  mine[0] = -1;
  mine[1] = -1;
  const long rounds = mt_scale(size > 4 ? 50 : 200);
  MT_CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
  for (long r = 0; r < rounds; ++r) {
    volatile int* slot = theirs;
    slot[r % 2] = (int)(r * 1000 + rank);
    const int asserts[] = {0, MPI_MODE_NOSTORE, MPI_MODE_NOPUT,
                           MPI_MODE_NOSTORE | MPI_MODE_NOPUT};
    MT_CHECK_MPI(MPI_Win_fence(asserts[r % 4], win));
    const int seen = ((volatile int*)mine)[r % 2];
    MT_CHECK(seen == (int)(r * 1000 + left),
             "round %ld: slot holds %d, expected %d", r, seen,
             (int)(r * 1000 + left));
    // Nobody stores into this slot again before the next fence has
    // separated this round's loads from it (the slot alternates).
  }
  MT_CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
  MT_CHECK_MPI(MPI_Win_free(&win));
  MT_ASSERT(win == MPI_WIN_NULL);
  MPI_Finalize();
  return 0;
}
