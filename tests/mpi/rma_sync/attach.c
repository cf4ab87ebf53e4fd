// SPDX-License-Identifier: MIT
// MPI 4.0 §12.2.4: on a window made by MPI_WIN_CREATE_DYNAMIC, "MPI_WIN_ATTACH
// attaches a local memory region beginning at base for remote access" and
// MPI_WIN_DETACH "detaches a previously attached memory region beginning
// at base"; a process may attach several non-overlapping regions, and
// attach memory again after detaching it.
//
// Rounds of attaching 16 regions per rank (8 of them adjacent), then
// detaching them in an order that differs from the attach order, with
// fences around (a window with nothing attached is fine);
// then a region of zero bytes, and attaching again what was detached.
#include "mpitest.h"

enum { kRegions = 8 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  MPI_Win win = MPI_WIN_NULL;
  MT_CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  // One buffer split into adjacent regions (adjacent is not overlapping),
  // plus separately allocated ones.
  char* block = malloc(kRegions * 64);
  char* separate[kRegions];
  MT_ASSERT(block != NULL);
  for (int i = 0; i < kRegions; ++i) {
    separate[i] = malloc((size_t)(i + 1) * 100);
    MT_ASSERT(separate[i] != NULL);
  }
  const long rounds = mt_scale(50);
  for (long r = 0; r < rounds; ++r) {
    MT_CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < kRegions; ++i) {
      MT_CHECK_MPI(MPI_Win_attach(win, block + i * 64, 64));
      MT_CHECK_MPI(MPI_Win_attach(win, separate[i], (i + 1) * 100));
    }
    MT_CHECK_MPI(MPI_Win_fence(0, win));
    // Detach every other block region first, from the back, then the rest.
    for (int i = kRegions - 1; i >= 0; i -= 2) {
      MT_CHECK_MPI(MPI_Win_detach(win, block + i * 64));
    }
    for (int i = (int)((r + rank) % kRegions); i < kRegions; ++i) {
      MT_CHECK_MPI(MPI_Win_detach(win, separate[i]));
    }
    for (int i = 0; i < (int)((r + rank) % kRegions); ++i) {
      MT_CHECK_MPI(MPI_Win_detach(win, separate[i]));
    }
    for (int i = kRegions - 2; i >= 0; i -= 2) {
      MT_CHECK_MPI(MPI_Win_detach(win, block + i * 64));
    }
  }
  MT_CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
  // A region of zero bytes, attached and detached again.
  MT_CHECK_MPI(MPI_Win_attach(win, block, 0));
  MT_CHECK_MPI(MPI_Win_detach(win, block));
  // Detached memory may be attached again.
  MT_CHECK_MPI(MPI_Win_attach(win, block, 64));
  MT_CHECK_MPI(MPI_Win_detach(win, block));
  MT_CHECK_MPI(MPI_Win_attach(win, block, 64));
  MT_CHECK_MPI(MPI_Win_detach(win, block));
  MT_CHECK_MPI(MPI_Win_free(&win));
  for (int i = 0; i < kRegions; ++i) {
    free(separate[i]);
  }
  free(block);
  MPI_Finalize();
  return 0;
}
