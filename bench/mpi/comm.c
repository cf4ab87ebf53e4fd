/* SPDX-License-Identifier: MIT */
/* Communicator creation rate on MPI_COMM_WORLD, any number of ranks:
 *   dup:   MPI_Comm_dup(MPI_COMM_WORLD) then MPI_Comm_free of the copy;
 *   split: MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank) then MPI_Comm_free;
 *   split_use: the split, one MPI_Allreduce of an int on the new
 *          communicator (its first collective), then MPI_Comm_free.
 * One operation is one creation plus its free, issued back to back by every
 * rank. Prints one line per operation:
 *   comm_dup np=4 per_s=91.7 usec=10905 mean=... min=... max=... iters=...
 *   batches=...
 * where per_s is operations per second over the median batch (a batch's time
 * is the slowest rank's) and mean, min and max are rates as well.
 *
 * Unlike the other programs, the batches are long (0.2 s) and everything is
 * bounded by time rather than by iterations, because the rate spans five
 * orders of magnitude: some 10^5 per second with 2 ranks, under 100 per second
 * for a busy-polling implementation with 4 ranks on 2 cores. Calibration
 * doubles the batch from 1 iteration until it takes batch_ms (a single
 * iteration that takes longer is accepted as it is), then the count is scaled
 * to batch_ms by the best time per iteration seen (at most doubled); then
 * timing batches run until `batches` are done or the operation's budget
 * (--op-budget, counted from the start of its calibration) is spent, with at
 * least one. Every decision is made by rank 0 and broadcast between batches,
 * outside the timed region, so all ranks run the same number of iterations. An
 * operation is not started when the program would then run beyond --time-limit
 * seconds, judged by the time the previous operation took.
 *
 * Errors return to the program (MPI_ERRORS_RETURN on MPI_COMM_WORLD, which
 * the new communicators inherit): a failing call is named on stderr and the
 * job ends with MPI_Abort, so a missing implementation shows as a failed run.
 * Options: --quick, --ops dup,split,split_use, --batch-ms X, --batches N,
 * --op-budget S, --time-limit S. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMM_MAX_BATCHES 64

typedef struct {
  double batch_ms;     /* calibration target of one batch */
  int batches;         /* timing batches at most */
  double op_budget_s;  /* wall time of one operation, calibration included */
  double time_limit_s; /* no new operation after this */
  char ops[64];
} comm_opts;

typedef struct {
  double median, mean, min, max; /* operations per second */
  long iters;
  int batches;
} comm_stats;

static int g_rank = 0;
static int g_np = 1;

static void comm_fail(const char* what, int rc) {
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  msg[0] = '\0';
  MPI_Error_string(rc, msg, &len);
  fprintf(stderr, "comm: rank %d: %s failed: %s (error %d)\n", g_rank, what,
          msg, rc);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 3);
}

static void comm_usage(const char* prog) {
  if (g_rank == 0) {
    fprintf(stderr,
            "usage: %s [--quick] [--ops dup,split,split_use] [--batch-ms X]\n"
            "          [--batches N] [--op-budget S] [--time-limit S]\n",
            prog);
  }
}

static int comm_parse(comm_opts* o, int argc, char** argv) {
  int i;
  o->batch_ms = 200.0;
  o->batches = 5;
  o->op_budget_s = 3.0;
  o->time_limit_s = 10.0;
  snprintf(o->ops, sizeof(o->ops), "dup,split,split_use");
  for (i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const char* v = (i + 1 < argc) ? argv[i + 1] : NULL;
    if (strcmp(a, "--quick") == 0) {
      o->batch_ms = 100.0;
      o->batches = 3;
      o->op_budget_s = 1.5;
      o->time_limit_s = 5.0;
      continue;
    }
    if (v == NULL) {
      comm_usage(argv[0]);
      return -1;
    }
    if (strcmp(a, "--batch-ms") == 0) {
      o->batch_ms = atof(v);
    } else if (strcmp(a, "--batches") == 0) {
      o->batches = atoi(v);
    } else if (strcmp(a, "--op-budget") == 0) {
      o->op_budget_s = atof(v);
    } else if (strcmp(a, "--time-limit") == 0) {
      o->time_limit_s = atof(v);
    } else if (strcmp(a, "--ops") == 0) {
      snprintf(o->ops, sizeof(o->ops), "%s", v);
    } else {
      comm_usage(argv[0]);
      return -1;
    }
    ++i;
  }
  if (o->batches < 1) {
    o->batches = 1;
  }
  if (o->batches > COMM_MAX_BATCHES) {
    o->batches = COMM_MAX_BATCHES;
  }
  return 0;
}

static int comm_has_op(const char* ops, const char* op) {
  size_t n = strlen(op);
  const char* p = ops;
  while ((p = strstr(p, op)) != NULL) {
    if ((p == ops || p[-1] == ',') && (p[n] == '\0' || p[n] == ',')) {
      return 1;
    }
    p += n;
  }
  return 0;
}

/* One batch of `iters` operations (0 dup, 1 split, 2 split_use) after an
 * untimed barrier; returns the slowest rank's seconds on rank 0 (other
 * ranks: their own). */
static double comm_batch(int op, long iters) {
  double t0, local, slowest = 0.0;
  long i;
  int rc;
  MPI_Comm c;
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  if (op == 0) {
    for (i = 0; i < iters; ++i) {
      rc = MPI_Comm_dup(MPI_COMM_WORLD, &c);
      if (rc != MPI_SUCCESS) {
        comm_fail("MPI_Comm_dup", rc);
      }
      rc = MPI_Comm_free(&c);
      if (rc != MPI_SUCCESS) {
        comm_fail("MPI_Comm_free", rc);
      }
    }
  } else {
    for (i = 0; i < iters; ++i) {
      rc = MPI_Comm_split(MPI_COMM_WORLD, g_rank % 2, g_rank, &c);
      if (rc != MPI_SUCCESS) {
        comm_fail("MPI_Comm_split", rc);
      }
      if (op == 2) {
        int one = 1;
        int sum = 0;
        rc = MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
        if (rc != MPI_SUCCESS) {
          comm_fail("MPI_Allreduce", rc);
        }
      }
      rc = MPI_Comm_free(&c);
      if (rc != MPI_SUCCESS) {
        comm_fail("MPI_Comm_free", rc);
      }
    }
  }
  local = MPI_Wtime() - t0;
  MPI_Reduce(&local, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  return g_rank == 0 ? slowest : local;
}

/* Untimed check that the calls work and give communicators of the right
 * size, so a wrong implementation cannot produce a rate. */
static void comm_check(int op) {
  MPI_Comm c;
  int size = 0;
  int want = op == 0 ? g_np : (g_np + 1 - g_rank % 2) / 2;
  int rc = op == 0 ? MPI_Comm_dup(MPI_COMM_WORLD, &c)
                   : MPI_Comm_split(MPI_COMM_WORLD, g_rank % 2, g_rank, &c);
  if (rc != MPI_SUCCESS) {
    comm_fail(op == 0 ? "MPI_Comm_dup" : "MPI_Comm_split", rc);
  }
  MPI_Comm_size(c, &size);
  if (size != want) {
    fprintf(stderr,
            "comm: rank %d: %s gave a communicator of %d ranks, not %d\n",
            g_rank, op == 0 ? "MPI_Comm_dup" : "MPI_Comm_split", size, want);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 4);
  }
  rc = MPI_Comm_free(&c);
  if (rc != MPI_SUCCESS) {
    comm_fail("MPI_Comm_free", rc);
  }
}

static int comm_cmp_double(const void* a, const void* b) {
  double x = *(const double*)a;
  double y = *(const double*)b;
  return (x > y) - (x < y);
}

/* Collective; the statistics are meaningful on rank 0. */
static comm_stats comm_measure(int op, const comm_opts* o) {
  comm_stats st;
  double secs[COMM_MAX_BATCHES];
  double op_start = MPI_Wtime();
  const double target = o->batch_ms * 1e-3;
  const long max_iters = 1L << 30;
  long plan[2]; /* [0] iterations of the next batch, [1] 1 = go on */
  long iters = 1;
  double best = 1e30; /* rank 0: lowest seconds per iteration seen */
  int n = 0;
  int b;

  memset(&st, 0, sizeof(st));
  comm_check(op);
  /* Calibration: double until one batch takes the target time. */
  for (;;) {
    double t = comm_batch(op, iters);
    if (g_rank == 0) {
      if (t / (double)iters < best) {
        best = t / (double)iters;
      }
      plan[1] = t < target && iters < max_iters / 2;
      if (plan[1]) {
        plan[0] = iters * 2;
      } else {
        /* Scale the count to the target by the best time per iteration, so
         * that one preempted probe (a busy 2-core machine) cannot shrink the
         * batches to a few milliseconds; at most twice the last probe, so
         * that one lucky small probe cannot stretch them to seconds. */
        double scaled = target / (best > 1e-9 ? best : 1e-9);
        if (scaled > 2.0 * (double)iters) {
          scaled = 2.0 * (double)iters;
        }
        plan[0] = scaled < 1.0 ? 1 : (long)scaled;
      }
    }
    MPI_Bcast(plan, 2, MPI_LONG, 0, MPI_COMM_WORLD);
    iters = plan[0];
    if (!plan[1]) {
      break;
    }
  }
  /* Timing batches, at least one, then as many as the budget allows. */
  for (b = 0; b < o->batches; ++b) {
    secs[n++] = comm_batch(op, iters);
    if (g_rank == 0) {
      plan[1] = (MPI_Wtime() - op_start) < o->op_budget_s;
    }
    MPI_Bcast(plan, 2, MPI_LONG, 0, MPI_COMM_WORLD);
    if (!plan[1]) {
      break;
    }
  }
  qsort(secs, (size_t)n, sizeof(double), comm_cmp_double);
  st.iters = iters;
  st.batches = n;
  st.median =
      (n % 2 == 1) ? secs[n / 2] : 0.5 * (secs[n / 2 - 1] + secs[n / 2]);
  st.median = (double)iters / st.median;
  st.max = (double)iters / secs[0];
  st.min = (double)iters / secs[n - 1];
  st.mean = 0.0;
  for (b = 0; b < n; ++b) {
    st.mean += secs[b];
  }
  st.mean = (double)iters / (st.mean / n);
  return st;
}

int main(int argc, char** argv) {
  static const char* const kNames[] = {"dup", "split", "split_use"};
  comm_opts o;
  double start;
  double last_op_s = 0.0; /* rank 0: wall time of the previous operation */
  int op;

  MPI_Init(&argc, &argv);
  start = MPI_Wtime();
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_np);
  if (comm_parse(&o, argc, argv) != 0) {
    MPI_Finalize();
    return 2;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (g_rank == 0) {
    printf(
        "# comm np=%d unit=operations/s (create + free; slowest rank), median "
        "of batches\n",
        g_np);
    fflush(stdout);
  }
  for (op = 0; op < 3; ++op) {
    comm_stats st;
    double op_start;
    int stop = 0;
    if (!comm_has_op(o.ops, kNames[op])) {
      continue;
    }
    if (g_rank == 0) {
      stop = (MPI_Wtime() - start) + last_op_s > o.time_limit_s;
    }
    MPI_Bcast(&stop, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (stop) {
      if (g_rank == 0) {
        printf("# stopped: time limit of %.1f s reached\n", o.time_limit_s);
        fflush(stdout);
      }
      break;
    }
    op_start = MPI_Wtime();
    st = comm_measure(op, &o);
    if (g_rank == 0) {
      last_op_s = MPI_Wtime() - op_start;
      printf(
          "comm_%s np=%d per_s=%.1f usec=%.3f mean=%.1f min=%.1f max=%.1f "
          "iters=%ld batches=%d\n",
          kNames[op], g_np, st.median, 1e6 / st.median, st.mean, st.min, st.max,
          st.iters, st.batches);
      fflush(stdout);
    }
  }
  MPI_Finalize();
  return 0;
}
