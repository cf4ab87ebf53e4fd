// SPDX-License-Identifier: MIT
// MPI 4.0 §6.3: MPI_BARRIER "blocks the caller until all group members have
// called it. The call returns at any process only after all group members
// have entered the call."
//
// The ranks share a counter in a file mapping (outside MPI). In each round
// every rank adds one and enters the barrier, one rank arriving late; on
// leaving, each must see every rank's increment of that round, and none of
// the round after next. Then many barriers back to back.
#include <fcntl.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();

  char path[256] = {0};
  if (rank == 0) {
    const char* dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/shmpi-barrier-XXXXXX",
             dir != NULL && dir[0] != '\0' ? dir : "/tmp");
    const int fd = mkstemp(path);
    MT_CHECK(fd >= 0, "mkstemp(%s) failed", path);
    MT_CHECK(ftruncate(fd, 4096) == 0, "ftruncate failed");
    close(fd);
  }
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
  const int fd = open(path, O_RDWR);
  MT_CHECK(fd >= 0, "open(%s) failed", path);
  void* map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  MT_CHECK(map != MAP_FAILED, "mmap failed");
  close(fd);
  atomic_long* counter = (atomic_long*)map;
  MPI_Barrier(MPI_COMM_WORLD);  // everyone has it mapped
  if (rank == 0) {
    unlink(path);
  }

  const long rounds = mt_scale(size <= 4 ? 20 : 8);
  for (long round = 0; round < rounds; ++round) {
    if (rank == round % size) {
      mt_sleep_ms(20);  // arrive late
    }
    atomic_fetch_add_explicit(counter, 1, memory_order_seq_cst);
    MPI_Barrier(MPI_COMM_WORLD);
    const long seen = atomic_load_explicit(counter, memory_order_seq_cst);
    // Others may already be past this barrier and counted the next round,
    // but none can be past the next barrier.
    MT_CHECK(seen >= size * (round + 1) && seen < size * (round + 2),
             "round %ld: counter %ld after the barrier, expected %ld..%ld",
             round, seen, size * (round + 1), size * (round + 2) - 1);
  }
  munmap(map, 4096);

  const long quick = mt_scale(size <= 4 ? 200 : 20);
  for (long i = 0; i < quick; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
