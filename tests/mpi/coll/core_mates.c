// SPDX-License-Identifier: MIT
// Collectives with more ranks than cores, where members that share a core
// wait differently (coll/core_mates.hpp): readers yield at once to a root
// on their core and poll longer for one on another, members leave rounds
// in which everyone waits for everyone lowest first once the communicator
// has rooted rounds. Every root in turn, on the world, on a communicator
// with the ranks reversed (so the lowest member of a core is another
// process), on the even and odd halves and on pairs of neighbours (which
// share their cores with ranks outside); each broadcast and scatter
// follows a barrier or an allreduce, as in timing loops.
#include "mpitest.h"

enum { kLoops = 20, kInts = 8 };

static int value_of(int root, int loop, int k) {
  return root * 100003 + loop * 31 + k;
}

static void run(MPI_Comm comm, const char* what) {
  int rank = 0;
  int size = 0;
  MT_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  MT_CHECK_MPI(MPI_Comm_size(comm, &size));
  int buf[kInts];
  int* blocks = malloc(sizeof(int) * kInts * (size_t)size);
  MT_CHECK(blocks != NULL, "out of memory");
  for (int root = 0; root < size; ++root) {
    for (int loop = 0; loop < kLoops; ++loop) {
      if (loop % 2 == 0) {
        MT_CHECK_MPI(MPI_Barrier(comm));
      } else {
        int sum = 0;
        MT_CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm));
        MT_CHECK(sum == size * (size - 1) / 2, "%s: allreduce gave %d", what,
                 sum);
      }
      for (int k = 0; k < kInts; ++k) {
        buf[k] = rank == root ? value_of(root, loop, k) : -1;
      }
      MT_CHECK_MPI(MPI_Bcast(buf, kInts, MPI_INT, root, comm));
      for (int k = 0; k < kInts; ++k) {
        MT_CHECK(buf[k] == value_of(root, loop, k),
                 "%s: bcast from %d, loop %d, element %d is %d", what, root,
                 loop, k, buf[k]);
      }
      MT_CHECK_MPI(MPI_Barrier(comm));
      for (int m = 0; m < size * kInts; ++m) {
        blocks[m] = value_of(root, loop, m);
      }
      MT_CHECK_MPI(
          MPI_Scatter(blocks, kInts, MPI_INT, buf, kInts, MPI_INT, root, comm));
      for (int k = 0; k < kInts; ++k) {
        MT_CHECK(buf[k] == value_of(root, loop, rank * kInts + k),
                 "%s: scatter from %d, loop %d, element %d is %d", what, root,
                 loop, k, buf[k]);
      }
    }
  }
  free(blocks);
}

int main(int argc, char** argv) {
  MT_CHECK_MPI(MPI_Init(&argc, &argv));
  const int rank = mt_rank();
  run(MPI_COMM_WORLD, "world");
  MPI_Comm reversed;
  MT_CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &reversed));
  run(reversed, "reversed");
  MT_CHECK_MPI(MPI_Comm_free(&reversed));
  MPI_Comm half;
  MT_CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
  run(half, "half");
  MT_CHECK_MPI(MPI_Comm_free(&half));
  // Ranks 2k and 2k + 1: with ranks bound to core r mod 2, each member
  // shares its core with ranks outside the communicator.
  MPI_Comm pair;
  MT_CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &pair));
  run(pair, "pair");
  MT_CHECK_MPI(MPI_Comm_free(&pair));
  if (rank == 0) {
    printf("core_mates: ok\n");
  }
  MT_CHECK_MPI(MPI_Finalize());
  return 0;
}
