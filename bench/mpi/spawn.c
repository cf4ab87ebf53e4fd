/* SPDX-License-Identifier: MIT */
/* Dynamic process creation: MPI_COMM_WORLD (any number of ranks, usually 2)
 * calls MPI_Comm_spawn of this program (argv[0] with the marker argument
 * --spawn-child, root 0, MPI_INFO_NULL) for k = 1, 2 and 4 processes, then
 * MPI_Comm_disconnect of the intercommunicator; a spawned process (it has a
 * parent) disconnects from it and finalizes, nothing else. One repetition
 * is one spawn plus its disconnect, timed on every parent rank after a
 * barrier on MPI_COMM_WORLD; its time is the slowest parent's. The first
 * spawn of each k is an untimed warm-up. Prints one line per k, the
 * statistics being over the repetitions:
 *   spawn procs=2 np=2 usec=48211.5 mean=... min=... max=... reps=8
 *   spawn procs=4 np=2 usec=n/a          (the implementation cannot spawn)
 * Errors return (MPI_ERRORS_RETURN): when a spawn (or its disconnect) fails
 * on any parent, rank 0 names the error, the k being measured reports what
 * it has timed so far (n/a if nothing) and every later k reports n/a, and
 * the program ends with status 0; so an implementation that cannot spawn
 * shows n/a, not a failed run.
 * A spawn that hangs (some implementations do, now and then) is cut short
 * by a watchdog: when one repetition has not ended after --spawn-timeout
 * seconds (default 10), rank 0 says so, prints the k's line over the
 * repetitions timed so far (if any) and every parent exits with status 3,
 * without MPI_Finalize, which ends the job; the later k's print nothing.
 * Slots: when MPI_UNIVERSE_SIZE is set and larger than np, all the processes
 * spawned over the run (warm-ups included) must fit in universe - np, as
 * with an implementation that never reuses a slot; the repetitions are
 * reduced (at least 1 per k, the warm-ups dropped first when even that does
 * not fit), and a k that still does not fit reports n/a. Otherwise nothing is
 * capped.
 * --time-limit is shared out as in coll: each k may start new repetitions
 * until its share (what is left divided by the k's left) is used up, with at
 * least one timed repetition.
 * Options: --reps N (default 8, --quick 3), --spawn-timeout S and the common
 * ones of bench_common.h (--quick, --time-limit S). */
#define _POSIX_C_SOURCE 200809L /* alarm, write, _exit under -std=c99 */
#include <signal.h>
#include <unistd.h>

#include "bench_common.h"

#define SPAWN_KS 3
#define SPAWN_MAX_REPS 256

static const int kProcs[SPAWN_KS] = {1, 2, 4};

/* What the watchdog prints (rank 0): made before every repetition, so that
 * the signal handler only writes it. */
static char g_watch_text[1024];
static size_t g_watch_len = 0;

static void spawn_watchdog(int sig) {
  (void)sig;
  if (g_watch_len > 0) {
    ssize_t w = write(STDOUT_FILENO, g_watch_text, g_watch_len);
    (void)w;
  }
  _exit(3);
}

static void spawn_print_na(int k, int np) {
  printf("spawn procs=%d np=%d usec=n/a\n", k, np);
  fflush(stdout);
}

/* The line of k over the n repetitions of t (sorted in place) into buf. */
static void spawn_format(char* buf, size_t size, int k, int np, double* t,
                         int n) {
  double mean = 0.0;
  double median;
  int i;
  qsort(t, (size_t)n, sizeof(double), bench_cmp_double);
  for (i = 0; i < n; ++i) {
    mean += t[i];
  }
  mean /= n;
  median = (n % 2 == 1) ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
  snprintf(buf, size,
           "spawn procs=%d np=%d usec=%.1f mean=%.1f min=%.1f max=%.1f "
           "reps=%d\n",
           k, np, median * 1e6, mean * 1e6, t[0] * 1e6, t[n - 1] * 1e6, n);
}

/* Rank 0, before a repetition of k: what the watchdog would print. */
static void spawn_arm_text(int k, int np, const double* t, int n,
                           unsigned limit) {
  double sorted[SPAWN_MAX_REPS];
  int len = snprintf(g_watch_text, sizeof(g_watch_text),
                     "# spawn procs=%d: stopped, a repetition has not ended "
                     "after %u s (hung?)\n",
                     k, limit);
  if (n > 0 && len > 0 && (size_t)len < sizeof(g_watch_text)) {
    memcpy(sorted, t, (size_t)n * sizeof(double));
    spawn_format(g_watch_text + len, sizeof(g_watch_text) - (size_t)len, k, np,
                 sorted, n);
  }
  g_watch_len = strlen(g_watch_text);
}

/* Collective over MPI_COMM_WORLD: one spawn of k processes and the
 * disconnect. Returns this rank's seconds of both calls; *rc gets the first
 * error (MPI_SUCCESS, or an error code, or MPI_ERR_SPAWN for a process
 * that did not start). */
static double spawn_once(const char* command, int k, int* rc) {
  static char marker[] = "--spawn-child";
  char* child_argv[] = {marker, NULL};
  int errcodes[4];
  MPI_Comm inter = MPI_COMM_NULL;
  double t0;
  double t;
  int i;
  for (i = 0; i < k; ++i) {
    errcodes[i] = MPI_SUCCESS;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  *rc = MPI_Comm_spawn(command, child_argv, k, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                       &inter, errcodes);
  if (inter != MPI_COMM_NULL) {
    int rc2 = MPI_Comm_disconnect(&inter);
    if (*rc == MPI_SUCCESS) {
      *rc = rc2;
    }
  }
  t = MPI_Wtime() - t0;
  for (i = 0; i < k && *rc == MPI_SUCCESS; ++i) {
    if (errcodes[i] != MPI_SUCCESS) {
      *rc = errcodes[i];
    }
  }
  if (*rc == MPI_SUCCESS && inter != MPI_COMM_NULL) {
    *rc = MPI_ERR_COMM; /* the disconnect did not release it */
  }
  return t;
}

/* How many timed repetitions (*reps) and warm-ups (*warm, 0 or 1) each k
 * gets, and which k's fit at all, within `budget` processes (< 0: no cap). */
static void spawn_plan(long budget, int want, int* reps, int* warm,
                       int fits[SPAWN_KS]) {
  long per_round = 0; /* processes of one spawn of every k */
  long left;
  int i;
  for (i = 0; i < SPAWN_KS; ++i) {
    per_round += kProcs[i];
    fits[i] = 1;
  }
  *reps = want;
  *warm = 1;
  if (budget < 0 || per_round * (want + 1) <= budget) {
    return;
  }
  if (budget / per_round >= 2) {
    *reps = (int)(budget / per_round) - 1;
    return;
  }
  *reps = 1;
  *warm = 0;
  left = budget;
  for (i = 0; i < SPAWN_KS; ++i) {
    fits[i] = kProcs[i] <= left;
    if (fits[i]) {
      left -= kProcs[i];
    }
  }
}

/* The spawned side: disconnect from the parents, nothing else. */
static int spawn_child(MPI_Comm parent) {
  MPI_Comm_disconnect(&parent);
  MPI_Finalize();
  return 0;
}

int main(int argc, char** argv) {
  bench_opts o;
  MPI_Comm parent = MPI_COMM_NULL;
  char* rest[64];
  char line[256];
  int nrest = 0;
  int want = -1;
  int quick = 0;
  unsigned watch_s = 10;
  int np = 0;
  int rank;
  int* universe = NULL;
  int flag = 0;
  long budget = -1;
  int reps;
  int warm;
  int fits[SPAWN_KS];
  int failed = 0;
  int ki;
  int i;

  MPI_Init(&argc, &argv);
  bench_begin();
  MPI_Comm_get_parent(&parent);
  if (parent != MPI_COMM_NULL) {
    return spawn_child(parent);
  }
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  rank = bench_rank();
  /* --reps and --spawn-timeout are this program's own; the rest goes to
   * bench_parse. */
  for (i = 0; i < argc && nrest < 63; ++i) {
    if (i > 0 && i + 1 < argc && strcmp(argv[i], "--reps") == 0) {
      want = atoi(argv[++i]);
      continue;
    }
    if (i > 0 && i + 1 < argc && strcmp(argv[i], "--spawn-timeout") == 0) {
      const int v = atoi(argv[++i]);
      watch_s = v < 1 ? 1U : (unsigned)v;
      continue;
    }
    quick |= strcmp(argv[i], "--quick") == 0;
    rest[nrest++] = argv[i];
  }
  rest[nrest] = NULL;
  if (bench_parse(&o, nrest, rest, NULL, " [--reps N] [--spawn-timeout S]") !=
      0) {
    MPI_Finalize();
    return 2;
  }
  if (want < 0) {
    want = quick ? 3 : 8;
  }
  if (want < 1) {
    want = 1;
  }
  if (want > SPAWN_MAX_REPS) {
    want = SPAWN_MAX_REPS;
  }
  /* A failed spawn must not end the job: see the header comment. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  signal(SIGALRM, spawn_watchdog);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &universe, &flag);
  if (flag && universe != NULL && *universe > np) {
    budget = *universe - np;
  }
  spawn_plan(budget, want, &reps, &warm, fits);
  if (rank == 0) {
    printf(
        "# spawn np=%d unit=usec per MPI_Comm_spawn + MPI_Comm_disconnect "
        "(slowest parent), median of repetitions; universe=%d reps=%d "
        "warm-up=%d\n",
        np, flag && universe != NULL ? *universe : -1, reps, warm);
    fflush(stdout);
  }
  for (ki = 0; ki < SPAWN_KS; ++ki) {
    const int k = kProcs[ki];
    double times[SPAWN_MAX_REPS];
    double k_start;
    double share;
    int n = 0;
    int r;
    if (failed || !fits[ki]) {
      if (rank == 0) {
        if (!failed) {
          printf(
              "# spawn procs=%d: skipped, the universe (%ld spare) has no "
              "room for it\n",
              k, budget);
        }
        spawn_print_na(k, np);
      }
      continue;
    }
    /* What is left of the limit, shared by the k's left; rank 0's clock. */
    k_start = MPI_Wtime();
    share = (o.time_limit_s - (k_start - bench_start_time)) / (SPAWN_KS - ki);
    MPI_Bcast(&share, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (r = -warm; r < reps; ++r) {
      int rc = MPI_SUCCESS;
      double mine[2];
      double slowest[2];
      int stop = 0;
      /* The other parents' watchdogs leave rank 0 time to print. */
      if (rank == 0) {
        spawn_arm_text(k, np, times, n, watch_s);
      }
      alarm(rank == 0 ? watch_s : watch_s + 2);
      mine[0] = spawn_once(argv[0], k, &rc);
      mine[1] = rc != MPI_SUCCESS;
      MPI_Allreduce(mine, slowest, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      alarm(0);
      if (slowest[1] != 0.0) {
        if (rank == 0) {
          char msg[MPI_MAX_ERROR_STRING];
          int len = 0;
          msg[0] = '\0';
          if (rc != MPI_SUCCESS) {
            MPI_Error_string(rc, msg, &len);
          }
          for (i = 0; msg[i] != '\0'; ++i) {
            if (msg[i] == '\n') {
              msg[i] = ' '; /* MPICH's error stack: one comment line */
            }
          }
          printf("# spawn procs=%d: stopped, a spawn failed: %s\n", k,
                 rc != MPI_SUCCESS ? msg : "(on another rank)");
          fflush(stdout);
        }
        failed = 1;
        break;
      }
      if (r < 0) {
        continue; /* the warm-up */
      }
      times[n++] = slowest[0];
      if (rank == 0) {
        stop = r + 1 < reps && MPI_Wtime() - k_start > share;
        if (stop) {
          printf(
              "# spawn procs=%d: stopped after %d repetitions, its share of "
              "the time limit (%.1f s) is used up\n",
              k, n, share > 0.0 ? share : 0.0);
          fflush(stdout);
        }
      }
      MPI_Bcast(&stop, 1, MPI_INT, 0, MPI_COMM_WORLD);
      if (stop) {
        break;
      }
    }
    if (rank == 0) {
      if (n > 0) {
        spawn_format(line, sizeof(line), k, np, times, n);
        fputs(line, stdout);
        fflush(stdout);
      } else {
        spawn_print_na(k, np);
      }
    }
  }
  MPI_Finalize();
  return 0;
}
