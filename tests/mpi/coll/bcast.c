// SPDX-License-Identifier: MIT
// MPI 4.0 §6.4: MPI_BCAST "broadcasts a message from the process with rank
// root to all processes of the group ... On return, the content of root's
// buffer is copied to all other processes."
//
// Every root in turn broadcasts every test size in bytes, then arrays of
// doubles and ints; back-to-back broadcasts from different roots with no
// synchronisation in between.
#include "mpitest.h"

// With a core per rank, 8193 to 65536 go in one round that readers copy
// while the root writes it (8 KiB, 8 KiB, then doubling pieces: 8193 and
// 24577 end with a piece of one byte), 100003 and 131072 go in halves
// rounded to lines, 131073 in whole bulk buffers (src/coll/intra.cpp,
// bcast_round_bytes and streams()).
static const size_t kSizes[] = {
    0,    1,     63,    64,    65,     4095,   4096,   8192,
    8193, 24577, 32769, 65536, 100003, 131072, 131073, (1 << 20) + 7};
enum { kSizeCount = sizeof kSizes / sizeof kSizes[0] };
static const size_t kMaxSize = (1 << 20) + 7;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  char* buf = mt_malloc(kMaxSize + MT_GUARD_LEN);
  for (int root = 0; root < size; ++root) {
    for (int s = 0; s < kSizeCount; ++s) {
      const size_t len = kSizes[s];
      const uint32_t seed = mt_seed((uint32_t)root, (uint32_t)len, 13, 0);
      mt_fill_guard(buf, len);
      if (rank == root) {
        mt_fill(buf, len, seed);
      }
      MPI_Bcast(buf, (int)len, MPI_BYTE, root, MPI_COMM_WORLD);
      char what[64];
      snprintf(what, sizeof what, "%zu bytes from root %d", len, root);
      MT_CHECK_PATTERN(buf, len, seed, what);
      MT_CHECK_GUARD(buf, len, what);
    }
  }

  enum { kCount = 30011 };
  double* doubles = mt_malloc(sizeof(double) * kCount);
  int* ints = mt_malloc(sizeof(int) * kCount);
  for (int root = 0; root < size; ++root) {
    const int int_root = (root + 1) % size;
    for (int i = 0; i < kCount; ++i) {
      doubles[i] = rank == root ? root * 0.5 + i : -1.0;
      ints[i] = rank == int_root ? int_root * 3 - i : -1;
    }
    MPI_Bcast(doubles, kCount, MPI_DOUBLE, root, MPI_COMM_WORLD);
    MPI_Bcast(ints, kCount, MPI_INT, int_root, MPI_COMM_WORLD);
    for (int i = 0; i < kCount; ++i) {
      MT_CHECK(doubles[i] == root * 0.5 + i,
               "doubles from root %d: [%d] = %g, expected %g", root, i,
               doubles[i], root * 0.5 + i);
      MT_CHECK(ints[i] == int_root * 3 - i,
               "ints from root %d: [%d] = %d, expected %d", int_root, i,
               ints[i], int_root * 3 - i);
    }
  }
  free(ints);
  free(doubles);
  free(buf);
  MPI_Finalize();
  return 0;
}
