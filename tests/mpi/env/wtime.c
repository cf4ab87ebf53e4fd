// SPDX-License-Identifier: MIT
// MPI 4.0 §9.6: MPI_WTIME "returns a floating-point number of seconds,
// representing elapsed wall-clock time since some time in the past";
// MPI_WTICK "returns the resolution of MPI_WTIME in seconds".
//
// Wtime never goes backwards, a 50 ms sleep measures between 45 ms and a few
// seconds, and the tick is positive and at most a millisecond.
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const double tick = MPI_Wtick();
  MT_CHECK(tick > 0.0 && tick <= 1e-3, "MPI_Wtick = %g", tick);
  double last = MPI_Wtime();
  const long samples = mt_scale(200000);
  for (long i = 0; i < samples; ++i) {
    const double now = MPI_Wtime();
    MT_CHECK(now >= last, "MPI_Wtime went back from %.9f to %.9f", last, now);
    last = now;
  }
  const double start = MPI_Wtime();
  mt_sleep_ms(50);
  const double elapsed = MPI_Wtime() - start;
  MT_CHECK(elapsed >= 0.045 && elapsed < 5.0, "a 50 ms sleep measured %.6f s",
           elapsed);
  MPI_Finalize();
  return 0;
}
