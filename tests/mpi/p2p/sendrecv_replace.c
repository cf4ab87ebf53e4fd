// SPDX-License-Identifier: MIT
// MPI 4.0 §3.10: MPI_SENDRECV_REPLACE "uses only one buffer ... the received
// message replaces the data that was sent out".
//
// Shifts around the ring at every test size; then shifts a token all the way
// round, so that each rank ends with its own data back.
#include "mpitest.h"

static const size_t kSizes[] = {0,    1,    63,    64,           65,
                                4095, 4096, 65536, (1 << 20) + 7};
enum { kSizeCount = sizeof kSizes / sizeof kSizes[0] };
static const size_t kMaxSize = (1 << 20) + 7;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  char* buf = mt_malloc(kMaxSize + MT_GUARD_LEN);
  for (int s = 0; s < kSizeCount; ++s) {
    const size_t len = kSizes[s];
    mt_fill_guard(buf, len);
    mt_fill(buf, len,
            mt_seed((uint32_t)rank, (uint32_t)right, (uint32_t)len, 0));
    MPI_Status status;
    MPI_Sendrecv_replace(buf, (int)len, MPI_BYTE, right, s, left, s,
                         MPI_COMM_WORLD, &status);
    int count = -1;
    MPI_Get_count(&status, MPI_BYTE, &count);
    MT_CHECK(
        status.MPI_SOURCE == left && status.MPI_TAG == s && count == (int)len,
        "status %d/%d/%d, expected %d/%d/%zu", status.MPI_SOURCE,
        status.MPI_TAG, count, left, s, len);
    MT_CHECK_PATTERN(buf, len,
                     mt_seed((uint32_t)left, (uint32_t)rank, (uint32_t)len, 0),
                     "replaced by the left neighbour's data");
    MT_CHECK_GUARD(buf, len, "sendrecv_replace");
  }

  // A whole turn of the ring in doubles: everyone gets its own data back.
  enum { kCount = 10007 };
  double* values = mt_malloc(sizeof(double) * kCount);
  for (int i = 0; i < kCount; ++i) {
    values[i] = rank * 100000.0 + i;
  }
  for (int step = 0; step < size; ++step) {
    MPI_Sendrecv_replace(values, kCount, MPI_DOUBLE, right, 1, left, 1,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  for (int i = 0; i < kCount; ++i) {
    MT_CHECK(values[i] == rank * 100000.0 + i,
             "after a full turn values[%d] = %g, expected %g", i, values[i],
             rank * 100000.0 + i);
  }
  free(values);
  free(buf);
  MPI_Finalize();
  return 0;
}
