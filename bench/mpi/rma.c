/* SPDX-License-Identifier: MIT */
/* One-sided communication on two ranks. Rank 0 is the origin, rank 1 the
 * target, whose window comes from MPI_Win_allocate (what an implementation
 * can place best). Passive target: the origin holds MPI_Win_lock_all for the
 * whole run, and each timed operation is one RMA call followed by
 * MPI_Win_flush(1), so the figure is the time until the data is complete at
 * the target. The target meanwhile waits in MPI_Barrier (an implementation
 * that needs the target to make progress gets it there).
 *   put, get       MPI_Put / MPI_Get of `bytes` bytes, then flush
 *   acc            MPI_Accumulate of bytes/8 doubles with MPI_SUM, then flush
 *   fetch_and_op   MPI_Fetch_and_op of one long with MPI_SUM (a shared
 *                  counter), then flush
 *   fence          MPI_Put of 8 bytes inside a fence epoch on both ranks:
 *                  one iteration is the put and one MPI_Win_fence
 * Prints one line per point:
 *   rma op=put bytes=8 usec=0.123 mean=... min=... max=... iters=...
 * batches=... with the median over the batches. */
#include "bench_common.h"

typedef struct {
  MPI_Win win;
  char* origin;
  char* result;
  long bytes;
  int rank;
  int op; /* see kOps */
} rma_ctx;

enum { kPut, kGet, kAcc, kFetchAndOp, kFence, kOpCount };
static const char* const kOps[kOpCount] = {"put", "get", "acc", "fetch_and_op",
                                           "fence"};

static double passive_run(void* p, long iters) {
  rma_ctx* c = (rma_ctx*)p;
  double t0 = MPI_Wtime();
  double spent = 0.0;
  long i;
  if (c->rank == 0) {
    for (i = 0; i < iters; ++i) {
      switch (c->op) {
        case kPut:
          MPI_Put(c->origin, (int)c->bytes, MPI_BYTE, 1, 0, (int)c->bytes,
                  MPI_BYTE, c->win);
          break;
        case kGet:
          MPI_Get(c->origin, (int)c->bytes, MPI_BYTE, 1, 0, (int)c->bytes,
                  MPI_BYTE, c->win);
          break;
        case kAcc:
          MPI_Accumulate(c->origin, (int)(c->bytes / 8), MPI_DOUBLE, 1, 0,
                         (int)(c->bytes / 8), MPI_DOUBLE, MPI_SUM, c->win);
          break;
        default:
          MPI_Fetch_and_op(c->origin, c->result, MPI_LONG, 1, 0, MPI_SUM,
                           c->win);
          break;
      }
      MPI_Win_flush(1, c->win);
    }
    spent = MPI_Wtime() - t0;
  }
  /* The target waits here; the origin's time is the measure. */
  MPI_Barrier(MPI_COMM_WORLD);
  return c->rank == 0 ? spent : MPI_Wtime() - t0;
}

static double fence_run(void* p, long iters) {
  rma_ctx* c = (rma_ctx*)p;
  double t0 = MPI_Wtime();
  long i;
  for (i = 0; i < iters; ++i) {
    if (c->rank == 0) {
      MPI_Put(c->origin, 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, c->win);
    }
    MPI_Win_fence(0, c->win);
  }
  return MPI_Wtime() - t0;
}

static void report(const rma_ctx* c, bench_stats st) {
  if (c->rank != 0) {
    return;
  }
  printf(
      "rma op=%s bytes=%ld usec=%.3f mean=%.3f min=%.3f max=%.3f iters=%ld "
      "batches=%d\n",
      kOps[c->op], c->bytes, st.median * 1e6, st.mean * 1e6, st.min * 1e6,
      st.max * 1e6, st.iters, st.batches);
  fflush(stdout);
}

int main(int argc, char** argv) {
  static const long kDefaultSizes[] = {8, 1024, 65536, 1048576};
  bench_opts o;
  rma_ctx c;
  int np = 0;
  int status;
  int op;
  int s;
  long largest;
  void* base = NULL;

  status = bench_init(&argc, &argv, &o, "rma", NULL, 2, &np);
  if (status != 0) {
    return status;
  }
  c.rank = bench_rank();
  if (o.size_count == 0) {
    for (s = 0; s < 4; ++s) {
      o.sizes[s] = kDefaultSizes[s];
    }
    o.size_count = 4;
  }
  largest = bench_largest_size(&o);
  if (largest < 8) {
    largest = 8;
  }
  c.origin = (char*)bench_alloc((size_t)largest);
  c.result = (char*)bench_alloc((size_t)largest);
  memset(c.origin, 0, (size_t)largest);
  MPI_Win_allocate(c.rank == 1 ? (MPI_Aint)largest : 0, 1, MPI_INFO_NULL,
                   MPI_COMM_WORLD, &base, &c.win);
  if (c.rank == 1) {
    memset(base, 0, (size_t)largest);
  }
  if (c.rank == 0) {
    printf("# rma np=%d unit=usec, median of batches\n", np);
    fflush(stdout);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  for (op = 0; op < kOpCount; ++op) {
    c.op = op;
    if (o.ops[0] != '\0' && !bench_has_op(&o, kOps[op])) {
      continue;
    }
    if (op == kFence) {
      bench_stats st;
      if (bench_out_of_time(&o)) {
        break;
      }
      c.bytes = 8;
      MPI_Win_fence(0, c.win);
      st = bench_measure(fence_run, &c, &o, 0);
      MPI_Win_fence(0, c.win);
      report(&c, st);
      continue;
    }
    if (c.rank == 0) {
      MPI_Win_lock_all(0, c.win);
    }
    for (s = 0; s < o.size_count; ++s) {
      bench_stats st;
      c.bytes = o.sizes[s];
      if ((op == kFetchAndOp && s > 0) || (op == kAcc && c.bytes < 8)) {
        continue; /* one element only; whole doubles only */
      }
      if (op == kFetchAndOp) {
        c.bytes = 8;
      }
      if (bench_out_of_time(&o)) {
        break;
      }
      st = bench_measure(passive_run, &c, &o, 0);
      report(&c, st);
    }
    if (c.rank == 0) {
      MPI_Win_unlock_all(c.win);
    }
  }
  MPI_Win_free(&c.win);
  MPI_Finalize();
  return 0;
}
