// SPDX-License-Identifier: MIT
// MPI 4.0 §6.4: MPI_BCAST "broadcasts a message from the process with rank
// root to all processes of the group ... On return, the content of root's
// buffer is copied to all other processes."
//
// Every root in turn broadcasts every test size in bytes, then arrays of
// doubles and ints; back-to-back broadcasts from different roots with no
// synchronisation in between.
//
// In shmpi a root buffer in the shared heap (here: any malloc'd block of 64
// KiB or more) is read by the others straight out of the root's memory when
// the message has 32 KiB or more (src/coll/intra.cpp, kDirectMin), so the
// root must not return before they are done: the last part overwrites the
// root's buffer at once after every broadcast, blocking and nonblocking,
// receives into a strided type, and broadcasts from buffers outside the
// heap (static storage) of the same sizes. At two ranks with a core each,
// such a broadcast between two heap buffers is split: the root copies the
// second half into the reader's buffer (32769 bytes and up in kSizes, and
// the 280 KiB rounds).
#include "mpitest.h"

enum { kDirectInts = 70001, kDirectRounds = 12 };
static int outside_heap[kDirectInts];

// Broadcasts kDirectInts ints from `root_buf` (root) into `recv` (others,
// through a type of every other int when `strided`), the root overwriting
// its buffer as soon as each call returns.
static void direct_rounds(int* root_buf, int* recv, int strided, int nb) {
  const int rank = mt_rank();
  const int size = mt_size();
  MPI_Datatype every_other;
  MT_CHECK_MPI(MPI_Type_vector(kDirectInts, 1, 2, MPI_INT, &every_other));
  MT_CHECK_MPI(MPI_Type_commit(&every_other));
  for (int round = 0; round < kDirectRounds; ++round) {
    const int root = round % size;
    if (rank == root) {
      for (int i = 0; i < kDirectInts; ++i) {
        root_buf[i] = round * 1000003 + i;
      }
    } else {
      for (int i = 0; i < 2 * kDirectInts; ++i) {
        recv[i] = -1;
      }
    }
    int* buf = rank == root ? root_buf : recv;
    const int count = rank != root && strided ? 1 : kDirectInts;
    const MPI_Datatype type = rank != root && strided ? every_other : MPI_INT;
    if (nb) {
      MPI_Request request;
      MT_CHECK_MPI(
          MPI_Ibcast(buf, count, type, root, MPI_COMM_WORLD, &request));
      MT_CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    } else {
      MT_CHECK_MPI(MPI_Bcast(buf, count, type, root, MPI_COMM_WORLD));
    }
    if (rank == root) {
      memset(root_buf, 0x7f, sizeof(int) * kDirectInts);  // at once
      continue;
    }
    const int step = strided ? 2 : 1;
    for (int i = 0; i < kDirectInts; ++i) {
      MT_CHECK(recv[i * step] == round * 1000003 + i,
               "round %d from root %d (%s, %s): [%d] = %d", round, root,
               strided ? "strided" : "contiguous", nb ? "Ibcast" : "Bcast", i,
               recv[i * step]);
      if (strided) {
        MT_CHECK(recv[i * 2 + 1] == -1, "the strided receive wrote a gap");
      }
    }
  }
  MT_CHECK_MPI(MPI_Type_free(&every_other));
}

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

  int* heap_buf = mt_malloc(sizeof(int) * kDirectInts);
  int* recv = mt_malloc(sizeof(int) * 2 * kDirectInts);
  for (int nb = 0; nb <= 1; ++nb) {
    direct_rounds(heap_buf, recv, 0, nb);
    direct_rounds(heap_buf, recv, 1, nb);
    direct_rounds(outside_heap, recv, 1, nb);
  }
  free(recv);
  free(heap_buf);
  // The same from MPI_Alloc_mem (the shared heap in sanitizer builds too).
  int* am_root = mt_alloc(sizeof(int) * kDirectInts, 1);
  int* am_recv = mt_alloc(sizeof(int) * 2 * kDirectInts, 1);
  for (int nb = 0; nb <= 1; ++nb) {
    direct_rounds(am_root, am_recv, 0, nb);
    direct_rounds(am_root, am_recv, 1, nb);
  }
  mt_free(am_recv, 1);
  mt_free(am_root, 1);
  free(buf);
  MPI_Finalize();
  return 0;
}
