// SPDX-License-Identifier: MIT
// A broadcast's root may run ahead of readers that lag, but never so far
// that it rewrites what they have not read yet. Here the readers post the
// first of `gap` small MPI_Ibcasts before the root has sent anything and
// then sleep, so that it has said it started (which lets the root reuse
// older slots) but has read nothing, while the root broadcasts the small
// messages and a larger one straight through; then they post the others,
// wait, and check every message. On a communicator
// whose collectives have not used their large buffers yet (a new
// duplicate, and MPI_COMM_WORLD before any large collective), for gaps
// around the depths a root may run ahead (8 slots per member in the
// world's block of a --universe-size 32 job, else 32).
//
// The larger broadcast takes a new large buffer, which nobody has read,
// but also the root's next slot: with only the buffer checked, the root
// rewrote the slot of a small broadcast the readers had not read yet, and
// they got the larger message's data in its place.
#include "mpitest.h"

enum {
  kSmall = 4,     // ints: fits a slot
  kLarge = 1024,  // ints (4 KiB): one large buffer, not streamed
  kMaxGap = 40,
  kNap = 100  // ms the readers sleep before they wait
};

static int value_of(int call, int k) { return call * 1009 + k * 7 + 3; }

// `gap` small broadcasts and one large from rank 0 on `comm`, the readers
// sleeping after posting their first; all checked.
static void run(MPI_Comm comm, int gap, const char* what) {
  static int bufs[kMaxGap + 1][kLarge];
  static MPI_Request requests[kMaxGap + 1];
  int rank;
  MT_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  MT_CHECK_MPI(MPI_Barrier(comm));
  if (rank == 0) {
    mt_sleep_ms(kNap / 5);  // the readers' first call starts, finds nothing
  }
  for (int c = 0; c <= gap; ++c) {
    const int n = c == gap ? kLarge : kSmall;
    for (int k = 0; k < n; ++k) {
      bufs[c][k] = rank == 0 ? value_of(c, k) : -1;
    }
    // Nonblocking everywhere (a blocking collective never matches a
    // nonblocking one); the root waits for each at once.
    MT_CHECK_MPI(MPI_Ibcast(bufs[c], n, MPI_INT, 0, comm, &requests[c]));
    if (rank == 0) {
      MT_CHECK_MPI(MPI_Wait(&requests[c], MPI_STATUS_IGNORE));
    } else if (c == 0) {
      mt_sleep_ms(kNap);  // started, nothing read: the root runs ahead
    }
  }
  if (rank != 0) {
    MT_CHECK_MPI(MPI_Waitall(gap + 1, requests, MPI_STATUSES_IGNORE));
  }
  for (int c = 0; c <= gap; ++c) {
    const int n = c == gap ? kLarge : kSmall;
    for (int k = 0; k < n; ++k) {
      MT_CHECK(bufs[c][k] == value_of(c, k),
               "%s, gap %d: broadcast %d element %d is %d, want %d", what, gap,
               c, k, bufs[c][k], value_of(c, k));
    }
  }
  MT_CHECK_MPI(MPI_Barrier(comm));
}

int main(int argc, char** argv) {
  MT_CHECK_MPI(MPI_Init(&argc, &argv));
  // The world's block first: no large collective has run on it yet.
  run(MPI_COMM_WORLD, 8, "MPI_COMM_WORLD");
  static const int kGaps[] = {7, 8, 9, 31, 32, 33};
  for (size_t g = 0; g < sizeof kGaps / sizeof kGaps[0]; ++g) {
    MPI_Comm dup;
    MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    run(dup, kGaps[g], "a new duplicate");
    MT_CHECK_MPI(MPI_Comm_free(&dup));
  }
  if (mt_rank() == 0) {
    printf("slot_reuse: ok\n");
  }
  MT_CHECK_MPI(MPI_Finalize());
  return 0;
}
