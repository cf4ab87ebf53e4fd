// SPDX-License-Identifier: MIT
// A member that makes its first collective call on a communicator only
// after the others have run all of theirs on it and freed it. Nothing in
// a broadcast waits for a reader, so the others may finish and leave
// first (MPI 4.0 §6.1: a collective may complete as soon as the caller's
// part is done); the late member must still get every message.
//
// The communicator's scratch block counts rounds from a base that members
// leaving it used to advance: the late member then took the end of the
// others' rounds for the start of its own and waited forever for the root.
#include "mpitest.h"

// Few enough calls that the root never has to wait for the late member to
// reuse a slot (32 per member) or a large buffer (8): inline rounds and
// larger ones alternate.
enum {
  kCalls = 12,
  kInts = 300,
  kNap = 200  // ms the late member waits before its first call
};

static int value_of(int call, int k) { return call * 7919 + k * 3 + 1; }

int main(int argc, char** argv) {
  MT_CHECK_MPI(MPI_Init(&argc, &argv));
  const int rank = mt_rank();
  const int size = mt_size();
  const int late = size - 1;
  static int buf[kInts];
  MPI_Comm comm;
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  if (rank == late) {
    mt_sleep_ms(kNap);
  }
  for (int c = 0; c < kCalls; ++c) {
    const int n = c % 2 == 0 ? 4 : kInts;
    for (int k = 0; k < n; ++k) {
      buf[k] = rank == 0 ? value_of(c, k) : -1;
    }
    MT_CHECK_MPI(MPI_Bcast(buf, n, MPI_INT, 0, comm));
    for (int k = 0; k < n; ++k) {
      MT_CHECK(buf[k] == value_of(c, k),
               "broadcast %d element %d is %d, want %d", c, k, buf[k],
               value_of(c, k));
    }
  }
  MT_CHECK_MPI(MPI_Comm_free(&comm));
  // A second communicator after the first, on a block the first may have
  // left: its rounds start where the first one's ended.
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  int sum = 0;
  MT_CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm));
  MT_CHECK(sum == size * (size - 1) / 2, "allreduce gave %d", sum);
  MT_CHECK_MPI(MPI_Comm_free(&comm));
  if (rank == 0) {
    printf("late_attach: ok\n");
  }
  MT_CHECK_MPI(MPI_Finalize());
  return 0;
}
