// SPDX-License-Identifier: MIT
// Wake-ups under random timing: before each of 6000 collectives (barrier,
// allreduce, bcast from a rotating root, alltoall) a member naps for a
// random time now and then, so members fall asleep and are woken while
// others publish at every moment. Where every member sleeps counted and
// publishers fence only when someone sleeps (coll/rounds.cpp, wake_after),
// a lost wake-up hangs the test (the suite runs with no safety timeout,
// SHMPI_SLEEP_TIMEOUT_MS=0); with the 100 ms one, it costs the sleeper
// that, so the test counts calls that took 95 ms or more and allows one (a
// whole time slice lost on a busy machine); results are checked too.
#include "mpitest.h"

enum { kCalls = 6000, kSlowMs = 95 };

int main(int argc, char** argv) {
  MT_CHECK_MPI(MPI_Init(&argc, &argv));
  const int rank = mt_rank();
  const int size = mt_size();
  srand(1234u + 7919u * (unsigned)rank);
  int slow = 0;
  double worst = 0;
  for (int c = 0; c < kCalls; ++c) {
    const int pause = rand() % 8;
    if (pause == 0) {
      struct timespec nap = {0, (rand() % 300) * 1000L};
      nanosleep(&nap, NULL);
    } else if (pause == 1) {
      const double until = MPI_Wtime() + (rand() % 100) * 1e-6;
      while (MPI_Wtime() < until) {
      }
    }
    const double start = MPI_Wtime();
    switch (c % 4) {
      case 0:
        MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        break;
      case 1: {
        int sum = 0;
        MT_CHECK_MPI(
            MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        MT_CHECK(sum == size * (size - 1) / 2, "call %d: allreduce gave %d", c,
                 sum);
        break;
      }
      case 2: {
        const int root = (c / 4) % size;
        int value = rank == root ? c : -1;
        MT_CHECK_MPI(MPI_Bcast(&value, 1, MPI_INT, root, MPI_COMM_WORLD));
        MT_CHECK(value == c, "call %d: bcast gave %d", c, value);
        break;
      }
      default: {
        int send[64];
        int recv[64];
        for (int m = 0; m < size; ++m) {
          send[m] = rank * 1000 + m + c;
        }
        MT_CHECK_MPI(
            MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD));
        for (int m = 0; m < size; ++m) {
          MT_CHECK(recv[m] == m * 1000 + rank + c,
                   "call %d: alltoall gave %d from %d", c, recv[m], m);
        }
        break;
      }
    }
    const double took = MPI_Wtime() - start;
    worst = took > worst ? took : worst;
    slow += took * 1e3 >= kSlowMs;
  }
  MT_CHECK(slow <= 1,
           "%d of %d calls took %d ms or more (the slowest %.0f ms): "
           "sleepers were not woken",
           slow, kCalls, kSlowMs, worst * 1e3);
  MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) {
    printf("wake_races: ok\n");
  }
  MT_CHECK_MPI(MPI_Finalize());
  return 0;
}
