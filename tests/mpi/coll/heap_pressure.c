// SPDX-License-Identifier: MIT
// Collectives when the shared heap is nearly full (shmpi only: run with a
// 16 MiB heap, SHMPI_HEAP_SIZE=16M). The root of a broadcast needs bulk
// buffers for data too large for a slot; shmpi gives a member a ring of up
// to eight 64 KiB buffers, and must settle for fewer when the heap has no
// room for eight, instead of ending the job. Rank 0 fills the heap with
// MPI_Alloc_mem, frees three adjacent 64 KiB blocks (room for two
// buffers, not four), then broadcasts 1 MiB several times from rank 0 on a
// communicator made before; every byte is checked.
#include "mpitest.h"

enum { kBlock = 64 * 1024, kMaxBlocks = 4096, kBytes = (1 << 20) + 5 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  MPI_Comm comm;
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  char* buf = mt_malloc(kBytes);
  static void* blocks[kMaxBlocks];
  int held = 0;
  if (rank == 0) {
    // MPI_Alloc_mem has no communicator: MPI 4.0 §9.3 raises its errors on
    // MPI_COMM_SELF, so that is where they must return.
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    // Big pieces first, so the 64 KiB blocks end up adjacent at the end.
    static void* big[64];
    int bigs = 0;
    while (bigs < 64 &&
           MPI_Alloc_mem(1 << 20, MPI_INFO_NULL, &big[bigs]) == MPI_SUCCESS) {
      ++bigs;
    }
    while (held < kMaxBlocks &&
           MPI_Alloc_mem(kBlock, MPI_INFO_NULL, &blocks[held]) == MPI_SUCCESS) {
      ++held;
    }
    MT_CHECK(held >= 3, "only %d blocks of 64 KiB fit after %d MiB", held,
             bigs);
    MT_CHECK(held < kMaxBlocks, "the heap did not fill up");
    for (int i = 0; i < 3; ++i) {
      MT_CHECK_MPI(MPI_Free_mem(blocks[--held]));
    }
    void* probe = NULL;
    MT_CHECK(MPI_Alloc_mem(4 * kBlock, MPI_INFO_NULL, &probe) != MPI_SUCCESS,
             "the heap still has room for four bulk buffers");
    for (int i = 0; i < bigs; ++i) {
      MT_CHECK_MPI(MPI_Free_mem(big[i]));
    }
    // Whatever the big pieces left is taken again by 64 KiB blocks, so
    // only the three freed ones (and crumbs) stay free.
    while (held < kMaxBlocks &&
           MPI_Alloc_mem(kBlock, MPI_INFO_NULL, &blocks[held]) == MPI_SUCCESS) {
      ++held;
    }
    MT_CHECK(held < kMaxBlocks, "the heap did not fill up again");
    for (int i = 0; i < 3; ++i) {
      MT_CHECK_MPI(MPI_Free_mem(blocks[--held]));
    }
  }
  for (int iter = 0; iter < 6; ++iter) {
    const uint32_t seed = mt_seed(7, (uint32_t)iter, 3, 0);
    if (rank == 0) {
      mt_fill(buf, kBytes, seed);
    } else {
      memset(buf, 0, kBytes);
    }
    MT_CHECK_MPI(MPI_Bcast(buf, kBytes, MPI_BYTE, 0, comm));
    char what[32];
    snprintf(what, sizeof what, "1 MiB bcast %d", iter);
    MT_CHECK_PATTERN(buf, kBytes, seed, what);
  }
  for (int i = 0; i < held; ++i) {
    MT_CHECK_MPI(MPI_Free_mem(blocks[i]));
  }
  MT_CHECK_MPI(MPI_Comm_free(&comm));
  free(buf);
  MPI_Finalize();
  return 0;
}
