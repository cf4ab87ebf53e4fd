/* SPDX-License-Identifier: MIT */
/* Collective latency on MPI_COMM_WORLD, any number of ranks: MPI_Barrier,
 * MPI_Bcast (root 0, MPI_BYTE) and MPI_Allreduce (MPI_DOUBLE, MPI_SUM) at
 * 8 B, 1 KiB, 64 KiB and 1 MiB. Barrier and allreduce run back to back (each
 * call depends on every rank); each bcast is timed alone and followed by an
 * untimed barrier, so pipelined bcasts cannot overlap. The time of a call is
 * the slowest rank's. Prints, e.g.:
 *   barrier np=8 usec=13.5 mean=... min=... max=... iters=... batches=...
 *   allreduce bytes=8 np=2 usec=0.61 ...
 * Options: --ops barrier,bcast,allreduce (default all), --sizes a,b,... */
#include "bench_common.h"

typedef struct {
  char* buf;
  double* sbuf;
  double* rbuf;
  int bytes;
  int op; /* 0 barrier, 1 bcast, 2 allreduce */
} coll_ctx;

static double coll_run(void* p, long iters) {
  coll_ctx* c = (coll_ctx*)p;
  double t0 = MPI_Wtime();
  double in_bcast = 0.0;
  long i;
  switch (c->op) {
    case 0:
      for (i = 0; i < iters; ++i) {
        MPI_Barrier(MPI_COMM_WORLD);
      }
      break;
    case 1:
      for (i = 0; i < iters; ++i) {
        double t = MPI_Wtime();
        MPI_Bcast(c->buf, c->bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
        in_bcast += MPI_Wtime() - t;
        MPI_Barrier(MPI_COMM_WORLD);
      }
      return in_bcast;
    default:
      for (i = 0; i < iters; ++i) {
        MPI_Allreduce(c->sbuf, c->rbuf, c->bytes / (int)sizeof(double),
                      MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      }
      break;
  }
  return MPI_Wtime() - t0;
}

static void coll_print(const char* name, const coll_ctx* c, int np,
                       const bench_stats* st) {
  if (c->op == 0) {
    printf("%s np=%d", name, np);
  } else {
    printf("%s bytes=%d np=%d", name, c->bytes, np);
  }
  printf(" usec=%.3f mean=%.3f min=%.3f max=%.3f iters=%ld batches=%d\n",
         st->median * 1e6, st->mean * 1e6, st->min * 1e6, st->max * 1e6,
         st->iters, st->batches);
  fflush(stdout);
}

int main(int argc, char** argv) {
  static const char* const kNames[] = {"barrier", "bcast", "allreduce"};
  bench_opts o;
  coll_ctx c;
  int np = 0;
  int rank;
  int op;
  int i;
  long largest;
  size_t k;

  MPI_Init(&argc, &argv);
  bench_begin();
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  rank = bench_rank();
  if (bench_parse(&o, argc, argv, "barrier,bcast,allreduce",
                  " [--ops barrier,bcast,allreduce]") != 0) {
    MPI_Finalize();
    return 2;
  }
  if (o.size_count == 0) {
    static const long kSizes[] = {8, 1024, 65536, 1048576};
    for (i = 0; i < (int)(sizeof(kSizes) / sizeof(kSizes[0])); ++i) {
      o.sizes[o.size_count++] = kSizes[i];
    }
  }
  largest = bench_largest_size(&o);
  c.buf = (char*)bench_alloc((size_t)largest);
  c.sbuf = (double*)bench_alloc((size_t)largest);
  c.rbuf = (double*)bench_alloc((size_t)largest);
  for (k = 0; k < (size_t)largest / sizeof(double); ++k) {
    c.sbuf[k] = 1.0;
  }
  if (rank == 0) {
    printf(
        "# coll np=%d unit=usec per call (slowest rank), median of batches\n",
        np);
    fflush(stdout);
  }
  for (op = 0; op < 3; ++op) {
    if (!bench_has_op(&o, kNames[op])) {
      continue;
    }
    c.op = op;
    for (i = 0; i < (op == 0 ? 1 : o.size_count); ++i) {
      bench_stats st;
      if (bench_out_of_time(&o)) {
        break;
      }
      c.bytes = (op == 0) ? 0 : (int)o.sizes[i];
      st = bench_measure(coll_run, &c, &o, 1);
      if (rank == 0) {
        coll_print(kNames[op], &c, np, &st);
      }
    }
  }
  free(c.rbuf);
  free(c.sbuf);
  free(c.buf);
  MPI_Finalize();
  return 0;
}
