/* SPDX-License-Identifier: MIT */
/* Shared helpers of the MPI benchmark programs: options, time-budgeted
 * calibration, repeated timing batches and their statistics. Header-only and
 * plain C99 with standard MPI calls only, so that every program builds with any
 * implementation's compiler wrapper from a single source file. */
#ifndef SHMPI_BENCH_MPI_BENCH_COMMON_H
#define SHMPI_BENCH_MPI_BENCH_COMMON_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L /* posix_memalign */
#endif

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_MAX_SIZES 64

typedef struct {
  double batch_ms;     /* target wall time of one timing batch */
  double point_ms;     /* wall-time budget of one measured point */
  int min_batches;     /* never fewer batches than this */
  int max_batches;     /* never more batches than this */
  double time_limit_s; /* skip the remaining points once exceeded */
  long max_bytes;      /* largest message size */
  int size_count;      /* > 0 when --sizes was given */
  long sizes[BENCH_MAX_SIZES];
  char ops[256]; /* coll: comma-separated operation list */
  int window;    /* bw, msgrate: messages in flight */
  int inter;     /* coll: --comm inter (an intercommunicator of the halves) */
} bench_opts;

/* One measured point: statistics over the batches of the per-unit time
 * (seconds per operation). */
typedef struct {
  double median, mean, min, max;
  long iters;
  int batches;
} bench_stats;

/* Runs `iters` repetitions of the measured operation; collective over
 * MPI_COMM_WORLD. Returns the seconds this rank attributes to the
 * operations (usually the wall time of the loop). */
typedef double (*bench_fn)(void* ctx, long iters);

static inline int bench_rank(void) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

static inline void bench_usage(const char* prog, const char* extra) {
  if (bench_rank() == 0) {
    fprintf(stderr,
            "usage: %s [--quick] [--batch-ms X] [--point-ms X] [--batches N]\n"
            "          [--min-batches N] [--time-limit S] [--max-bytes N]\n"
            "          [--sizes a,b,...] [--window N]%s\n",
            prog, extra);
  }
}

static inline int bench_parse_sizes(bench_opts* o, const char* list) {
  const char* p = list;
  o->size_count = 0;
  while (*p != '\0' && o->size_count < BENCH_MAX_SIZES) {
    char* end = NULL;
    long v = strtol(p, &end, 0);
    if (end == p || v < 0) {
      return -1;
    }
    o->sizes[o->size_count++] = v;
    p = (*end == ',') ? end + 1 : end;
    if (*end != ',' && *end != '\0') {
      return -1;
    }
  }
  return o->size_count > 0 ? 0 : -1;
}

/* Parses the common options; returns 0, or -1 after printing usage. */
static inline int bench_parse(bench_opts* o, int argc, char** argv,
                              const char* default_ops,
                              const char* extra_usage) {
  int i;
  memset(o, 0, sizeof(*o));
  o->batch_ms = 5.0;
  o->point_ms = 60.0;
  o->min_batches = 3;
  o->max_batches = 11;
  o->time_limit_s = 15.0;
  o->max_bytes = 4L << 20;
  o->window = 64;
  snprintf(o->ops, sizeof(o->ops), "%s", default_ops ? default_ops : "");
  for (i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const char* v = (i + 1 < argc) ? argv[i + 1] : NULL;
    if (strcmp(a, "--quick") == 0) {
      o->batch_ms = 2.0;
      o->point_ms = 12.0;
      o->max_batches = 5;
      o->time_limit_s = 8.0;
      continue;
    }
    if (v == NULL) {
      bench_usage(argv[0], extra_usage);
      return -1;
    }
    if (strcmp(a, "--batch-ms") == 0) {
      o->batch_ms = atof(v);
    } else if (strcmp(a, "--point-ms") == 0) {
      o->point_ms = atof(v);
    } else if (strcmp(a, "--batches") == 0) {
      o->max_batches = atoi(v);
    } else if (strcmp(a, "--min-batches") == 0) {
      o->min_batches = atoi(v);
    } else if (strcmp(a, "--time-limit") == 0) {
      o->time_limit_s = atof(v);
    } else if (strcmp(a, "--max-bytes") == 0) {
      o->max_bytes = atol(v);
    } else if (strcmp(a, "--window") == 0) {
      o->window = atoi(v);
    } else if (strcmp(a, "--sizes") == 0) {
      if (bench_parse_sizes(o, v) != 0) {
        bench_usage(argv[0], extra_usage);
        return -1;
      }
    } else if (strcmp(a, "--ops") == 0) {
      snprintf(o->ops, sizeof(o->ops), "%s", v);
    } else if (strcmp(a, "--comm") == 0 &&
               (strcmp(v, "world") == 0 || strcmp(v, "inter") == 0)) {
      o->inter = strcmp(v, "inter") == 0;
    } else {
      bench_usage(argv[0], extra_usage);
      return -1;
    }
    ++i;
  }
  if (o->min_batches < 1) {
    o->min_batches = 1;
  }
  if (o->max_batches < o->min_batches) {
    o->max_batches = o->min_batches;
  }
  if (o->window < 1) {
    o->window = 1;
  }
  return 0;
}

/* Fills sizes with 0 (if with_zero), 1, 2, 4, ... up to max_bytes unless
 * --sizes was given. */
static inline void bench_default_sizes(bench_opts* o, int with_zero) {
  long s;
  if (o->size_count > 0) {
    return;
  }
  if (with_zero) {
    o->sizes[o->size_count++] = 0;
  }
  for (s = 1; s <= o->max_bytes && o->size_count < BENCH_MAX_SIZES; s *= 2) {
    o->sizes[o->size_count++] = s;
  }
}

static inline long bench_largest_size(const bench_opts* o) {
  long m = 0;
  int i;
  for (i = 0; i < o->size_count; ++i) {
    if (o->sizes[i] > m) {
      m = o->sizes[i];
    }
  }
  return m;
}

static inline int bench_has_op(const bench_opts* o, const char* op) {
  size_t n = strlen(op);
  const char* p = o->ops;
  while ((p = strstr(p, op)) != NULL) {
    int starts = (p == o->ops) || (p[-1] == ',');
    int ends = (p[n] == '\0') || (p[n] == ',');
    if (starts && ends) {
      return 1;
    }
    p += n;
  }
  return 0;
}

/* Page-aligned, touched buffer (first touch by the rank that uses it). */
static inline void* bench_alloc(size_t bytes) {
  void* p = NULL;
  if (bytes == 0) {
    bytes = 1;
  }
  if (posix_memalign(&p, 4096, bytes) != 0) {
    fprintf(stderr, "bench: out of memory (%zu bytes)\n", bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  memset(p, 0x5a, bytes);
  return p;
}

static double bench_start_time;

static inline void bench_begin(void) { bench_start_time = MPI_Wtime(); }

/* Collective: rank 0 decides whether the program's time limit is used up. */
static inline int bench_out_of_time(const bench_opts* o) {
  static int stopped = 0; /* the same on every rank: set from the bcast */
  int stop = 0;
  if (stopped) {
    return 1;
  }
  if (bench_rank() == 0) {
    stop = (MPI_Wtime() - bench_start_time) > o->time_limit_s;
  }
  MPI_Bcast(&stop, 1, MPI_INT, 0, MPI_COMM_WORLD);
  stopped = stop;
  if (stop && bench_rank() == 0) {
    printf("# stopped: time limit of %.1f s reached\n", o->time_limit_s);
    fflush(stdout);
  }
  return stop;
}

static inline int bench_cmp_double(const void* a, const void* b) {
  double x = *(const double*)a;
  double y = *(const double*)b;
  return (x > y) - (x < y);
}

/* What every program begins with: MPI_Init, the start time (bench_begin),
 * the common options and the rank count. Returns 0, or the exit status the
 * program ends with after MPI_Finalize: 2 for bad options (usage printed)
 * or fewer than min_np ranks (a message naming prog). */
static inline int bench_init(int* argc, char*** argv, bench_opts* o,
                             const char* prog, const char* default_ops,
                             int min_np, int* np) {
  MPI_Init(argc, argv);
  bench_begin();
  MPI_Comm_size(MPI_COMM_WORLD, np);
  if (bench_parse(o, *argc, *argv, default_ops, "") != 0) {
    MPI_Finalize();
    return 2;
  }
  if (*np < min_np) {
    if (bench_rank() == 0) {
      fprintf(stderr, "%s: needs at least %d ranks\n", prog, min_np);
    }
    MPI_Finalize();
    return 2;
  }
  return 0;
}

/* Runs one batch; returns the seconds per operation and the wall time. With
 * reduce_max the per-operation time is the maximum over all ranks, else the
 * value of rank 0. */
static inline double bench_batch(bench_fn fn, void* ctx, long iters,
                                 int reduce_max, double* wall) {
  double t0 = MPI_Wtime();
  double local = fn(ctx, iters);
  double result = local;
  *wall = MPI_Wtime() - t0;
  if (reduce_max) {
    MPI_Allreduce(&local, &result, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
  return result / (double)iters;
}

/* Calibrates the iteration count on rank 0's wall clock so one batch takes
 * about batch_ms (the calibration runs double as warm-up), then runs as many
 * batches as point_ms allows, within [min_batches, max_batches]. The count
 * doubles until a quarter of batch_ms is reached; the time per operation is the
 * lowest seen over all probes, and the deciding probe is repeated, so one
 * preempted probe (a busy 2-core machine) cannot shrink the batches to a
 * single operation.
 * Collective; the statistics are meaningful on rank 0. */
static inline bench_stats bench_measure(bench_fn fn, void* ctx,
                                        const bench_opts* o, int reduce_max) {
  bench_stats st;
  double per_batch[256];
  double wall = 0.0;
  double spent = 0.0; /* rank 0: wall time of the timing batches so far */
  double best_per_iter = 1e30;
  long plan[2]; /* rank 0's decisions: calibration step, then iters, batches */
  long iters = 1;
  const long max_iters = 1L << 24;
  const double target = o->batch_ms * 1e-3;
  int b;

  memset(&st, 0, sizeof(st));
  for (;;) {
    int probe;
    int done = 0;
    for (probe = 0; probe < 2 && !done; ++probe) {
      bench_batch(fn, ctx, iters, reduce_max, &wall);
      if (wall / (double)iters < best_per_iter) {
        best_per_iter = wall / (double)iters;
      }
      /* Rank 0 decides: 0 double the count, 1 run a confirming probe,
       * 2 done. Judged on the best time so far, not this probe alone. */
      plan[0] = 0;
      /* A probe that itself took 4 batch times ends the doubling too: a
       * lucky early probe must not make it go on for seconds. */
      if ((double)iters * best_per_iter >= target * 0.25 ||
          iters >= max_iters || wall >= 4.0 * target) {
        plan[0] = probe == 0 ? 1 : 2;
      }
      MPI_Bcast(plan, 1, MPI_LONG, 0, MPI_COMM_WORLD);
      if (plan[0] == 0) {
        break;
      }
      done = plan[0] == 2;
    }
    if (done) {
      break;
    }
    iters *= 2;
  }
  if (bench_rank() == 0) {
    double per_iter = best_per_iter > 1e-9 ? best_per_iter : 1e-9;
    long n = (long)(target / per_iter);
    long nb;
    if (n < 1) {
      n = 1;
    }
    if (n > max_iters) {
      n = max_iters;
    }
    if (n > 8 * iters) { /* normally 2-4 times; only a lucky probe says more */
      n = 8 * iters;
    }
    nb = (long)(o->point_ms * 1e-3 / (per_iter * (double)n));
    if (nb < o->min_batches) {
      nb = o->min_batches;
    }
    if (nb > o->max_batches) {
      nb = o->max_batches;
    }
    if (nb > 255) {
      nb = 255;
    }
    plan[0] = n;
    plan[1] = nb;
  }
  MPI_Bcast(plan, 2, MPI_LONG, 0, MPI_COMM_WORLD);
  st.iters = plan[0];
  st.batches = (int)plan[1];
  /* One more warm-up batch at the final size. The count came from the best
   * probe; when the machine (or an oversubscribed run) is much slower than
   * that probe, this batch shows it: rescale so that the timing batches do not
   * take seconds each. */
  bench_batch(fn, ctx, st.iters, reduce_max, &wall);
  if (bench_rank() == 0) {
    plan[0] = st.iters;
    if (wall > 4.0 * target) {
      plan[0] = (long)((double)st.iters * target / wall);
      plan[0] = plan[0] < 1 ? 1 : plan[0];
    }
  }
  MPI_Bcast(plan, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  st.iters = plan[0];
  /* Timing batches; once min_batches have run and they have taken 4 times
   * their planned wall time, rank 0 drops the rest (the output's batches=
   * says how many ran). */
  for (b = 0; b < st.batches; ++b) {
    int go_on = 1;
    per_batch[b] = bench_batch(fn, ctx, st.iters, reduce_max, &wall);
    spent += wall;
    if (bench_rank() == 0) {
      go_on =
          b + 1 < o->min_batches || spent <= 4.0 * target * (double)st.batches;
    }
    MPI_Bcast(&go_on, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!go_on) {
      st.batches = b + 1;
      break;
    }
  }
  qsort(per_batch, (size_t)st.batches, sizeof(double), bench_cmp_double);
  st.min = per_batch[0];
  st.max = per_batch[st.batches - 1];
  st.median =
      (st.batches % 2 == 1)
          ? per_batch[st.batches / 2]
          : 0.5 * (per_batch[st.batches / 2 - 1] + per_batch[st.batches / 2]);
  st.mean = 0.0;
  for (b = 0; b < st.batches; ++b) {
    st.mean += per_batch[b];
  }
  st.mean /= st.batches;
  return st;
}

#endif /* SHMPI_BENCH_MPI_BENCH_COMMON_H */
