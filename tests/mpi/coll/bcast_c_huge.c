// SPDX-License-Identifier: MIT
// MPI 4.0 §19.2: the large-count forms exist so that counts above what an
// int holds work. MPI_Bcast_c of 2^31 + 64 MPI_BYTEs must deliver every
// byte, the last 64 included (an int count would have been truncated). Each
// rank needs 2 GiB; the program skips (exit 77) when the machine has less
// than 3 GiB available per rank. Words are filled and checked as 64-bit
// values computed from their index, so no reference copy is kept. The
// buffers ask for transparent huge pages: with 4 KiB pages, faulting in
// 2 GiB twice takes longer than the broadcast.
#define _GNU_SOURCE  // madvise and MADV_HUGEPAGE

#include <inttypes.h>
#include <sys/mman.h>

#include "mpitest.h"

static uint64_t word_at(uint64_t i) {
  return (i + 1) * UINT64_C(0x9E3779B97F4A7C15);
}

// MemAvailable from /proc/meminfo, in bytes (0 if unknown).
static uint64_t available_bytes(void) {
  FILE* f = fopen("/proc/meminfo", "r");
  if (f == NULL) {
    return 0;
  }
  char line[256];
  uint64_t kib = 0;
  while (fgets(line, sizeof line, f) != NULL) {
    if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kib) == 1) {
      break;
    }
  }
  fclose(f);
  return kib * 1024;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  const MPI_Count count = ((MPI_Count)1 << 31) + 64;
  const uint64_t words = (uint64_t)count / 8;
  // Every rank decides alike: rank 0 looks, everyone follows.
  int enough = available_bytes() >= (uint64_t)size * (UINT64_C(3) << 30);
  MPI_Bcast(&enough, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!enough) {
    if (rank == 0) {
      printf("skipped: needs %d x 3 GiB of available memory\n", size);
    }
    MPI_Finalize();
    return MT_SKIP_CODE;
  }
  const size_t huge_page = (size_t)1 << 21;
  const size_t bytes = ((size_t)count + huge_page - 1) / huge_page * huge_page;
  void* memory = NULL;
  MT_CHECK(posix_memalign(&memory, huge_page, bytes) == 0,
           "cannot allocate %zu bytes", bytes);
  madvise(memory, bytes, MADV_HUGEPAGE);  // a hint: failure is fine
  uint64_t* buf = memory;
  if (rank == 0) {
    for (uint64_t i = 0; i < words; ++i) {
      buf[i] = word_at(i);
    }
  } else {
    memset(buf, 0, (size_t)count);
  }
  MT_CHECK_MPI(MPI_Bcast_c(buf, count, MPI_BYTE, 0, MPI_COMM_WORLD));
  for (uint64_t i = 0; i < words; ++i) {
    MT_CHECK(buf[i] == word_at(i),
             "byte %" PRIu64 " of %lld: word %#" PRIx64 ", expected %#" PRIx64,
             i * 8, (long long)count, buf[i], word_at(i));
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
