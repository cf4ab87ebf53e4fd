// SPDX-License-Identifier: MIT
// MPI 4.0 §12.3.4: MPI_COMPARE_AND_SWAP "compares the data in compare_addr
// with the data in the target buffer; if they are equal, it replaces the
// target buffer with origin_addr. The original data in the target buffer
// is returned", atomically (§12.7.1).
//
// As a lock: each round, every rank tries to swap its id into a free (0)
// word on rank 0 at once; exactly one wins (sees 0), and every loser sees
// the winner's id, which is what the word holds.
#include "mpitest.h"

enum { kRounds = 20 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  int* base = NULL;
  MPI_Win win;
  MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                   &base, &win);
  base[0] = 0;
  base[1] = 42;
  const int id = rank + 1;
  const int zero = 0;
  for (int round = 0; round < kRounds; ++round) {
    MPI_Win_fence(0, win);
    int seen = -1;
    MPI_Compare_and_swap(&id, &zero, &seen, MPI_INT, 0, 0, win);
    // A compare that does not match leaves the word alone.
    int other = -1;
    MPI_Compare_and_swap(&id, &zero, &other, MPI_INT, 0, 1, win);
    MPI_Win_fence(0, win);
    MT_CHECK(other == 42, "mismatched compare returned %d", other);
    int won = seen == 0 ? 1 : 0;
    int winners = 0;
    MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK(winners == 1, "round %d: %d ranks took the lock", round, winners);
    int holder = rank == 0 ? base[0] : 0;
    MPI_Bcast(&holder, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MT_CHECK(holder >= 1 && holder <= size, "round %d: word %d", round, holder);
    MT_CHECK(won ? holder == id : seen == holder,
             "round %d: rank %d saw %d, the word holds %d", round, rank, seen,
             holder);
    if (rank == 0) {
      MT_CHECK(base[1] == 42, "mismatched compare swapped: %d", base[1]);
      base[0] = 0;  // unlock for the next round
    }
  }
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  MPI_Win_free(&win);
  MPI_Finalize();
  if (rank == 0) {
    printf("cas: ok\n");
  }
  return 0;
}
