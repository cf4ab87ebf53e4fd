// SPDX-License-Identifier: MIT
// MPI 4.0 §9.2: "MPI_ALLOC_MEM ... allocate[s] special memory" that can be
// used as any other buffer, and "MPI_FREE_MEM" frees it; with size 0 it
// succeeds too.
//
// Large messages go around the ring with send and receive buffers from
// MPI_Alloc_mem, from malloc, and mixed (shmpi copies directly when a buffer
// is in its shared heap, so each combination takes a different path).
#include "mpitest.h"

static const size_t kLens[] = {(1 << 20) + 7, 4 << 20, 65536, 1};
enum { kLenCount = sizeof kLens / sizeof kLens[0] };

static char* allocate(size_t len, int from_mpi) {
  if (!from_mpi) {
    return mt_malloc(len);
  }
  void* p = NULL;
  MPI_Alloc_mem((MPI_Aint)len, MPI_INFO_NULL, &p);
  MT_CHECK(p != NULL, "MPI_Alloc_mem(%zu) returned NULL", len);
  return p;
}

static void release(char* p, int from_mpi) {
  if (from_mpi) {
    MPI_Free_mem(p);
  } else {
    free(p);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;

  void* empty = NULL;
  MPI_Alloc_mem(0, MPI_INFO_NULL, &empty);
  MPI_Free_mem(empty);

  // Many small blocks, held at once, written and freed in a mixed order.
  enum { kBlocks = 64 };
  char* blocks[kBlocks];
  for (int i = 0; i < kBlocks; ++i) {
    blocks[i] = allocate(4096 + (size_t)i * 100, 1);
    mt_fill(blocks[i], 4096 + (size_t)i * 100, (uint32_t)i);
  }
  for (int i = 0; i < kBlocks; i += 2) {
    MT_CHECK_PATTERN(blocks[i], 4096 + (size_t)i * 100, (uint32_t)i,
                     "MPI_Alloc_mem block");
    MPI_Free_mem(blocks[i]);
  }
  for (int i = 1; i < kBlocks; i += 2) {
    MT_CHECK_PATTERN(blocks[i], 4096 + (size_t)i * 100, (uint32_t)i,
                     "MPI_Alloc_mem block");
    MPI_Free_mem(blocks[i]);
  }

  // combo bit 0: send buffer from MPI_Alloc_mem; bit 1: receive buffer.
  for (int combo = 0; combo < 4; ++combo) {
    for (int s = 0; s < kLenCount; ++s) {
      const size_t len = kLens[s];
      char* send_buf = allocate(len, combo & 1);
      char* recv_buf = allocate(len + MT_GUARD_LEN, (combo >> 1) & 1);
      const uint32_t seed =
          mt_seed((uint32_t)rank, (uint32_t)combo, (uint32_t)len, 1);
      mt_fill(send_buf, len, seed);
      mt_fill_guard(recv_buf, len);
      MPI_Request reqs[2];
      MPI_Irecv(recv_buf, (int)len, MPI_BYTE, left, s, MPI_COMM_WORLD,
                &reqs[0]);
      MPI_Isend(send_buf, (int)len, MPI_BYTE, right, s, MPI_COMM_WORLD,
                &reqs[1]);
      MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
      char what[80];
      snprintf(what, sizeof what, "%zu bytes, send %s, receive %s", len,
               combo & 1 ? "MPI_Alloc_mem" : "malloc",
               combo & 2 ? "MPI_Alloc_mem" : "malloc");
      MT_CHECK_PATTERN(
          recv_buf, len,
          mt_seed((uint32_t)left, (uint32_t)combo, (uint32_t)len, 1), what);
      MT_CHECK_GUARD(recv_buf, len, what);
      release(recv_buf, (combo >> 1) & 1);
      release(send_buf, combo & 1);
    }
  }
  MPI_Finalize();
  return 0;
}
