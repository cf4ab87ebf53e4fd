// SPDX-License-Identifier: MIT
// Long loops of small rooted collectives, where a member that only writes
// (a broadcast's root, a reduction's non-roots) may get rounds ahead of
// members that read (MPI 4.0 §6.1: a collective may return as soon as the
// caller's part is done, so a root need not wait for the others). Readers
// sleep now and then, so writers do get ahead; the roots change, and
// large broadcasts, allreduces and barriers come in between, so ahead-running
// small rounds meet rounds that reuse every slot and bulk buffer. Gathers
// (whose non-roots only write), scatters (whose root only writes) and
// prefix reductions (where nobody waits for the members above it) run
// ahead the same way. Every result is checked, on every rank, in every
// iteration.
//
// Modes: blocking (MPI_Bcast/MPI_Reduce...) and nonblocking (each call as
// its I-form followed at once by MPI_Wait, plus a window of MPI_Ibcasts
// waited for together).
#include "mpitest.h"

enum {
  kIters = 400,
  // Longer than a member's slot ring (32 slots in communicators of up to
  // 16 members, 8 above), so that writers that got ahead wrap round it and
  // wait for slots their readers still hold.
  kRun = 36,
  kSmall = 6,
  kLarge = 40000,
  kWindow = 8,
  kBulkRun = 10,
  kStreamed = 12000,   // one bulk round, streamed with a core per rank
  kGatherBulk = 20000  // ints per member: two bulk rounds of a gather
};

static int value_of(int iter, int root, int k) {
  return iter * 131 + root * 17 + k * 7 + 1;
}

// Now and then a rank stops for a moment (a descheduled reader) before a
// run of kRun calls of one kind: rank-dependent, so different ranks lag in
// different iterations, and the writers of the run get ahead of it.
static void maybe_lag(int iter, int rank) {
  if ((iter * 7 + rank * 13) % 23 == 0) {
    mt_sleep_ms(1);
  }
}

// A run of `calls` broadcasts of `n` ints from `root` (MPI_Bcast, or
// MPI_Ibcast and MPI_Wait), call j of iteration `it` numbered
// it * calls + j; every element checked on every rank.
static void bcast_run(int* buf, int n, long it, int calls, int root,
                      int nonblocking, const char* what) {
  const int rank = mt_rank();
  for (int j = 0; j < calls; ++j) {
    const int i = (int)it * calls + j;
    for (int k = 0; k < n; ++k) {
      buf[k] = rank == root ? value_of(i, root, k) : -1;
    }
    if (nonblocking) {
      MPI_Request request;
      MT_CHECK_MPI(MPI_Ibcast(buf, n, MPI_INT, root, MPI_COMM_WORLD, &request));
      MT_CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    } else {
      MT_CHECK_MPI(MPI_Bcast(buf, n, MPI_INT, root, MPI_COMM_WORLD));
    }
    for (int k = 0; k < n; ++k) {
      MT_CHECK(buf[k] == value_of(i, root, k),
               "iteration %d: %s from %d: element %d is %d, want %d", i, what,
               root, k, buf[k], value_of(i, root, k));
    }
  }
}

// The same for sums of `n` ints at `root` (MPI_Reduce or MPI_Ireduce),
// from `contribution` into `sum`, checked at the root.
static void reduce_run(int* contribution, int* sum, int n, long it, int calls,
                       int root, int nonblocking, const char* what) {
  const int rank = mt_rank();
  const int size = mt_size();
  for (int j = 0; j < calls; ++j) {
    const int i = (int)it * calls + j;
    for (int k = 0; k < n; ++k) {
      contribution[k] = value_of(i, rank, k);
      sum[k] = -1;
    }
    if (nonblocking) {
      MPI_Request request;
      MT_CHECK_MPI(MPI_Ireduce(contribution, sum, n, MPI_INT, MPI_SUM, root,
                               MPI_COMM_WORLD, &request));
      MT_CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    } else {
      MT_CHECK_MPI(MPI_Reduce(contribution, sum, n, MPI_INT, MPI_SUM, root,
                              MPI_COMM_WORLD));
    }
    for (int k = 0; rank == root && k < n; ++k) {
      int want = 0;
      for (int r = 0; r < size; ++r) {
        want += value_of(i, r, k);
      }
      MT_CHECK(sum[k] == want,
               "iteration %d: %s at %d: element %d is %d, want %d", i, what,
               root, k, sum[k], want);
    }
  }
}

// The same for prefix sums of `n` ints (MPI_Scan or MPI_Exscan, or their
// I-forms), where nobody waits for the members above it and member 0 only
// writes; every element checked on every rank (but rank 0's exclusive
// result, which MPI leaves undefined).
static void scan_run(int* contribution, int* sum, int n, long it, int calls,
                     int nonblocking, int exclusive, const char* what) {
  const int rank = mt_rank();
  for (int j = 0; j < calls; ++j) {
    const int i = (int)it * calls + j;
    for (int k = 0; k < n; ++k) {
      contribution[k] = value_of(i, rank, k);
      sum[k] = -1;
    }
    MPI_Request request;
    if (exclusive && nonblocking) {
      MT_CHECK_MPI(MPI_Iexscan(contribution, sum, n, MPI_INT, MPI_SUM,
                               MPI_COMM_WORLD, &request));
    } else if (exclusive) {
      MT_CHECK_MPI(
          MPI_Exscan(contribution, sum, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    } else if (nonblocking) {
      MT_CHECK_MPI(MPI_Iscan(contribution, sum, n, MPI_INT, MPI_SUM,
                             MPI_COMM_WORLD, &request));
    } else {
      MT_CHECK_MPI(
          MPI_Scan(contribution, sum, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    }
    if (nonblocking) {
      MT_CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    }
    const int last = exclusive ? rank - 1 : rank;
    for (int k = 0; last >= 0 && k < n; ++k) {
      int want = 0;
      for (int r = 0; r <= last; ++r) {
        want += value_of(i, r, k);
      }
      MT_CHECK(sum[k] == want,
               "iteration %d: %s at %d: element %d is %d, want %d", i, what,
               rank, k, sum[k], want);
    }
  }
}

// Counts and displacements of blocks of n ints per member; in the vector
// forms member r gets or gives n - r % 2.
static void blocks_of(int n, int vector, int* counts, int* displs) {
  const int size = mt_size();
  MT_CHECK(size <= 64, "at most 64 ranks");
  for (int r = 0; r < size; ++r) {
    counts[r] = vector ? n - r % 2 : n;
    displs[r] = r * n;
  }
}

// A run of gathers of `n` ints per member at `root` (MPI_Gather or
// MPI_Gatherv, or their I-forms and MPI_Wait), where the non-roots only
// write and may run ahead of the root; every element checked at the root.
static void gather_run(int* send, int* recv, int n, long it, int calls,
                       int root, int nonblocking, int vector,
                       const char* what) {
  const int rank = mt_rank();
  const int size = mt_size();
  int counts[64];
  int displs[64];
  blocks_of(n, vector, counts, displs);
  for (int j = 0; j < calls; ++j) {
    const int i = (int)it * calls + j;
    for (int k = 0; k < n; ++k) {
      send[k] = value_of(i, rank, k);
    }
    for (int k = 0; rank == root && k < size * n; ++k) {
      recv[k] = -1;
    }
    MPI_Request request;
    if (vector && nonblocking) {
      MT_CHECK_MPI(MPI_Igatherv(send, counts[rank], MPI_INT, recv, counts,
                                displs, MPI_INT, root, MPI_COMM_WORLD,
                                &request));
    } else if (vector) {
      MT_CHECK_MPI(MPI_Gatherv(send, counts[rank], MPI_INT, recv, counts,
                               displs, MPI_INT, root, MPI_COMM_WORLD));
    } else if (nonblocking) {
      MT_CHECK_MPI(MPI_Igather(send, n, MPI_INT, recv, n, MPI_INT, root,
                               MPI_COMM_WORLD, &request));
    } else {
      MT_CHECK_MPI(
          MPI_Gather(send, n, MPI_INT, recv, n, MPI_INT, root, MPI_COMM_WORLD));
    }
    if (nonblocking) {
      MT_CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    }
    for (int r = 0; rank == root && r < size; ++r) {
      for (int k = 0; k < counts[r]; ++k) {
        MT_CHECK(recv[r * n + k] == value_of(i, r, k),
                 "iteration %d: %s at %d: element %d from %d is %d, want %d", i,
                 what, root, k, r, recv[r * n + k], value_of(i, r, k));
      }
    }
  }
}

// The same for scatters (MPI_Scatter or MPI_Scatterv, or their I-forms),
// where the root only writes; every element checked on every rank.
static void scatter_run(int* send, int* recv, int n, long it, int calls,
                        int root, int nonblocking, int vector,
                        const char* what) {
  const int rank = mt_rank();
  const int size = mt_size();
  int counts[64];
  int displs[64];
  blocks_of(n, vector, counts, displs);
  for (int j = 0; j < calls; ++j) {
    const int i = (int)it * calls + j;
    for (int r = 0; rank == root && r < size; ++r) {
      for (int k = 0; k < n; ++k) {
        send[r * n + k] = value_of(i, r, k);
      }
    }
    for (int k = 0; k < n; ++k) {
      recv[k] = -1;
    }
    MPI_Request request;
    if (vector && nonblocking) {
      MT_CHECK_MPI(MPI_Iscatterv(send, counts, displs, MPI_INT, recv,
                                 counts[rank], MPI_INT, root, MPI_COMM_WORLD,
                                 &request));
    } else if (vector) {
      MT_CHECK_MPI(MPI_Scatterv(send, counts, displs, MPI_INT, recv,
                                counts[rank], MPI_INT, root, MPI_COMM_WORLD));
    } else if (nonblocking) {
      MT_CHECK_MPI(MPI_Iscatter(send, n, MPI_INT, recv, n, MPI_INT, root,
                                MPI_COMM_WORLD, &request));
    } else {
      MT_CHECK_MPI(MPI_Scatter(send, n, MPI_INT, recv, n, MPI_INT, root,
                               MPI_COMM_WORLD));
    }
    if (nonblocking) {
      MT_CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    }
    for (int k = 0; k < counts[rank]; ++k) {
      MT_CHECK(recv[k] == value_of(i, rank, k),
               "iteration %d: %s from %d: element %d is %d, want %d", i, what,
               root, k, recv[k], value_of(i, rank, k));
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MT_CHECK(argc == 2, "usage: run_ahead blocking|nonblocking");
  const int nonblocking = strcmp(argv[1], "nonblocking") == 0;
  const long iters = mt_scale(kIters);
  int* large = mt_malloc(sizeof(int) * kLarge);
  int* large_sum = mt_malloc(sizeof(int) * kLarge);
  int small[kSmall];
  int small_sum[kSmall];
  int window[kWindow][kSmall];
  // Gathers and scatters: a block per member.
  int* blocks = mt_malloc(sizeof(int) * (size_t)size * kGatherBulk);
  int* block = mt_malloc(sizeof(int) * kGatherBulk);

  for (long it = 0; it < iters; ++it) {
    const int iter = (int)it;
    const int root =
        (iter / 5) % size;  // a few runs from one root, then another
    maybe_lag(iter, rank);

    // A run of broadcasts of a few ints from the root, then of sums of a
    // few ints at the root.
    bcast_run(small, kSmall, it, kRun, root, nonblocking, "bcast");
    maybe_lag(iter + 1, rank);
    reduce_run(small, small_sum, kSmall, it, kRun, root, nonblocking, "reduce");

    // Runs of gathers and scatters of a few ints per member (plain and
    // vector forms in turn), after lags: a gather's non-roots and a
    // scatter's root only write, so they get rounds ahead.
    maybe_lag(iter + 7, rank);
    gather_run(block, blocks, kSmall, it, kRun, root, nonblocking, iter % 2,
               "gather");
    maybe_lag(iter + 11, rank);
    scatter_run(blocks, block, kSmall, it, kRun, root, nonblocking, iter % 2,
                "scatter");

    // Runs of prefix sums (inclusive and exclusive in turn), after a lag:
    // the low ranks get rounds ahead of the high ones.
    maybe_lag(iter + 19, rank);
    scan_run(small, small_sum, kSmall, it, kRun, nonblocking, iter % 2,
             iter % 2 ? "exscan" : "scan");

    // Every 10th iteration: a window of broadcasts in flight together.
    if (nonblocking && iter % 10 == 5) {
      MPI_Request requests[kWindow];
      for (int w = 0; w < kWindow; ++w) {
        for (int k = 0; k < kSmall; ++k) {
          window[w][k] = rank == root ? value_of(iter + w, root, k) : -1;
        }
        MT_CHECK_MPI(MPI_Ibcast(window[w], kSmall, MPI_INT, root,
                                MPI_COMM_WORLD, &requests[w]));
      }
      MT_CHECK_MPI(MPI_Waitall(kWindow, requests, MPI_STATUSES_IGNORE));
      for (int w = 0; w < kWindow; ++w) {
        for (int k = 0; k < kSmall; ++k) {
          MT_CHECK(window[w][k] == value_of(iter + w, root, k),
                   "iteration %d: window bcast %d: element %d is %d", iter, w,
                   k, window[w][k]);
        }
      }
    }

    // Every 4th iteration: runs of broadcasts and sums too large for a
    // slot (three bulk rounds each), after a lag, so the writers run
    // rounds ahead through their ring of bulk buffers while the readers
    // still read older ones. Every element is checked.
    if (iter % 4 == 2) {
      maybe_lag(iter + 2, rank);
      bcast_run(large, kLarge, it, kBulkRun, root, nonblocking, "bulk bcast");
      maybe_lag(iter + 3, rank);
      reduce_run(large, large_sum, kLarge, it, kBulkRun, root, nonblocking,
                 "bulk reduce");
    }

    // Every 4th iteration: the same for blocks of two bulk rounds each.
    if (iter % 4 == 1) {
      maybe_lag(iter + 13, rank);
      gather_run(block, blocks, kGatherBulk, it, kBulkRun, root, nonblocking,
                 iter % 8 == 1, "bulk gather");
      maybe_lag(iter + 17, rank);
      scatter_run(blocks, block, kGatherBulk, it, kBulkRun, root, nonblocking,
                  iter % 8 == 1, "bulk scatter");
      maybe_lag(iter + 23, rank);
      scan_run(large, large_sum, kGatherBulk, it, kBulkRun, nonblocking,
               iter % 8 == 1, iter % 8 == 1 ? "bulk exscan" : "bulk scan");
    }

    // Every 4th iteration too: runs of broadcasts of one bulk round each,
    // which readers with a core of their own copy while the root writes
    // (src/coll/intra.cpp, streams()); after a lag, so the root's progress
    // word is rounds ahead of a reader that looks at it.
    if (iter % 4 == 0) {
      maybe_lag(iter + 5, rank);
      bcast_run(large, kStreamed, it, kBulkRun, root, nonblocking,
                "streamed bcast");
    }

    // Now and then, rounds that reuse every slot and the bulk buffers.
    if (iter % 37 == 11) {
      for (int k = 0; k < kLarge; ++k) {
        large[k] = rank == root ? value_of(iter, root, k) : 0;
      }
      MT_CHECK_MPI(MPI_Bcast(large, kLarge, MPI_INT, root, MPI_COMM_WORLD));
      for (int k = 0; k < kLarge; k += 997) {
        MT_CHECK(large[k] == value_of(iter, root, k),
                 "iteration %d: large bcast: element %d is %d", iter, k,
                 large[k]);
      }
    }
    if (iter % 41 == 3) {
      int mine = rank + iter;
      int total = 0;
      MT_CHECK_MPI(
          MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
      MT_CHECK(total == size * iter + size * (size - 1) / 2,
               "iteration %d: allreduce gave %d", iter, total);
    }
    if (iter % 43 == 7) {
      MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
  }
  free(block);
  free(blocks);
  free(large_sum);
  free(large);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    printf("run_ahead %s: ok\n", argv[1]);
  }
  MPI_Finalize();
  return 0;
}
