// SPDX-License-Identifier: MIT
// Members asleep in a collective are woken by the member they wait for.
// In turn one member naps before each call, long enough that the others
// poll, yield and fall asleep on their wake words; its publish must wake
// them (with light fences the sleepers' heavy fence is what makes that
// certain: base/membarrier.hpp). A lost wake-up hangs the test (the suite
// runs with no safety timeout, SHMPI_SLEEP_TIMEOUT_MS=0); with the 100 ms
// one the whole run would take seconds instead of the naps' 0.2 s: the
// test fails above 2 s.
#include "mpitest.h"

enum { kCalls = 60, kNapMs = 3 };

int main(int argc, char** argv) {
  MT_CHECK_MPI(MPI_Init(&argc, &argv));
  const int rank = mt_rank();
  const int size = mt_size();
  MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  const double start = MPI_Wtime();
  for (int c = 0; c < kCalls; ++c) {
    const int napper = c % size;
    if (rank == napper) {
      mt_sleep_ms(kNapMs);
    }
    switch (c % 3) {
      case 0:
        MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        break;
      case 1: {
        int value = rank == napper ? c : -1;
        MT_CHECK_MPI(MPI_Bcast(&value, 1, MPI_INT, napper, MPI_COMM_WORLD));
        MT_CHECK(value == c, "call %d: bcast gave %d", c, value);
        break;
      }
      default: {
        int sum = 0;
        MT_CHECK_MPI(
            MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        MT_CHECK(sum == size * (size - 1) / 2, "call %d: allreduce gave %d", c,
                 sum);
        break;
      }
    }
  }
  const double elapsed = MPI_Wtime() - start;
  MT_CHECK(elapsed < 2.0,
           "%d calls with %d ms naps took %.2f s: sleepers were not woken",
           kCalls, kNapMs, elapsed);
  if (rank == 0) {
    printf("sleepers: ok\n");
  }
  MT_CHECK_MPI(MPI_Finalize());
  return 0;
}
