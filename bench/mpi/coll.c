/* SPDX-License-Identifier: MIT */
/* Collective latency on MPI_COMM_WORLD, any number of ranks: MPI_Barrier,
 * MPI_Bcast (root 0, MPI_BYTE), MPI_Allreduce (MPI_DOUBLE, MPI_SUM) and
 * MPI_Alltoall (MPI_BYTE; the size is the block sent to each peer, so a rank
 * sends np times it) at 8 B, 1 KiB, 64 KiB and 1 MiB. Barrier, allreduce and
 * alltoall run back to back (each call depends on every rank); each bcast is
 * timed alone and followed by an untimed barrier, so pipelined bcasts cannot
 * overlap. On request (--ops) also MPI_Gather and MPI_Scatter (root 0,
 * MPI_BYTE, the size being each rank's block; timed alone as bcast),
 * MPI_Allgather (MPI_BYTE, each rank's block), MPI_Reduce_scatter_block
 * (MPI_DOUBLE, MPI_SUM, each rank's block) and MPI_Scan (MPI_DOUBLE,
 * MPI_SUM), the last three back to back, and MPI_Neighbor_alltoall
 * (MPI_BYTE, back to back) on a ring made with MPI_Dist_graph_create_adjacent
 * (each rank's sources and destinations: its left then its right
 * neighbour; the size is the block sent to each). The time of a call is the
 * slowest rank's. Prints, e.g.:
 *   barrier np=8 usec=13.5 mean=... min=... max=... iters=... batches=...
 *   allreduce bytes=8 np=2 usec=0.61 ...
 *   alltoall bytes=1024 np=4 usec=n/a     (the implementation lacks it)
 * Errors return (MPI_ERRORS_RETURN): an operation whose untimed first call
 * fails on any rank is reported as n/a at every size and skipped, so one
 * missing collective does not end the run.
 * --time-limit is shared out: each operation may start new sizes until its
 * share (what is left divided by the operations left) is used up, so a slow
 * implementation still reaches every operation.
 * With --comm inter the collectives run on an intercommunicator between
 * the lower and the upper half of MPI_COMM_WORLD (np >= 2; the lower half
 * has np / 2 ranks): bcast, gather and scatter from rank 0 of the lower
 * half (MPI_ROOT there, MPI_PROC_NULL beside it), alltoall and allgather
 * blocks to and from each member of the other half, reduce_scatter_block
 * scattering the other half's reduction; scan and neighbor_alltoall are
 * not defined there and are reported as n/a.
 * Options: --ops barrier,bcast,allreduce,alltoall,gather,scatter,allgather,
 * reduce_scatter_block,scan,neighbor_alltoall (default the first four),
 * --sizes a,b,..., --comm world|inter (default world) */
#include "bench_common.h"

enum {
  OP_BARRIER,
  OP_BCAST,
  OP_ALLREDUCE,
  OP_ALLTOALL,
  OP_GATHER,
  OP_SCATTER,
  OP_ALLGATHER,
  OP_REDUCE_SCATTER_BLOCK,
  OP_SCAN,
  OP_NEIGHBOR_ALLTOALL,
  OP_COUNT
};

typedef struct {
  char* buf;
  double* sbuf;
  double* rbuf;
  /* np blocks of the largest size; the 0x5a bytes are finite doubles */
  char* a2a_sbuf;
  char* a2a_rbuf;
  int bytes;
  int op;
  MPI_Comm ring; /* neighbor_alltoall's (MPI_COMM_NULL if not made) */
  MPI_Comm comm; /* MPI_COMM_WORLD, or the intercommunicator of the halves */
  int root;      /* the root argument of bcast, gather and scatter */
} coll_ctx;

/* One call of the operation; returns its MPI error code. */
static int coll_call(const coll_ctx* c) {
  switch (c->op) {
    case OP_BARRIER:
      return MPI_Barrier(c->comm);
    case OP_BCAST:
      return MPI_Bcast(c->buf, c->bytes, MPI_BYTE, c->root, c->comm);
    case OP_ALLREDUCE:
      return MPI_Allreduce(c->sbuf, c->rbuf, c->bytes / (int)sizeof(double),
                           MPI_DOUBLE, MPI_SUM, c->comm);
    case OP_ALLTOALL:
      return MPI_Alltoall(c->a2a_sbuf, c->bytes, MPI_BYTE, c->a2a_rbuf,
                          c->bytes, MPI_BYTE, c->comm);
    case OP_GATHER:
      return MPI_Gather(c->a2a_sbuf, c->bytes, MPI_BYTE, c->a2a_rbuf, c->bytes,
                        MPI_BYTE, c->root, c->comm);
    case OP_SCATTER:
      return MPI_Scatter(c->a2a_sbuf, c->bytes, MPI_BYTE, c->a2a_rbuf, c->bytes,
                         MPI_BYTE, c->root, c->comm);
    case OP_ALLGATHER:
      return MPI_Allgather(c->a2a_sbuf, c->bytes, MPI_BYTE, c->a2a_rbuf,
                           c->bytes, MPI_BYTE, c->comm);
    case OP_REDUCE_SCATTER_BLOCK:
      return MPI_Reduce_scatter_block(c->a2a_sbuf, c->a2a_rbuf,
                                      c->bytes / (int)sizeof(double),
                                      MPI_DOUBLE, MPI_SUM, c->comm);
    case OP_NEIGHBOR_ALLTOALL:
      if (c->ring == MPI_COMM_NULL) {
        return MPI_ERR_TOPOLOGY;
      }
      return MPI_Neighbor_alltoall(c->a2a_sbuf, c->bytes, MPI_BYTE, c->a2a_rbuf,
                                   c->bytes, MPI_BYTE, c->ring);
    default:
      if (c->comm != MPI_COMM_WORLD) {
        return MPI_ERR_COMM; /* no scan on an intercommunicator */
      }
      return MPI_Scan(c->sbuf, c->rbuf, c->bytes / (int)sizeof(double),
                      MPI_DOUBLE, MPI_SUM, c->comm);
  }
}

/* Rooted operations are timed alone, each call followed by a barrier. */
static int coll_timed_alone(int op) {
  return op == OP_BCAST || op == OP_GATHER || op == OP_SCATTER;
}

static double coll_run(void* p, long iters) {
  coll_ctx* c = (coll_ctx*)p;
  double t0 = MPI_Wtime();
  double in_bcast = 0.0;
  long i;
  if (coll_timed_alone(c->op)) {
    for (i = 0; i < iters; ++i) {
      double t = MPI_Wtime();
      coll_call(c);
      in_bcast += MPI_Wtime() - t;
      MPI_Barrier(MPI_COMM_WORLD);
    }
    return in_bcast;
  }
  for (i = 0; i < iters; ++i) {
    coll_call(c);
  }
  return MPI_Wtime() - t0;
}

static void coll_print(const char* name, const coll_ctx* c, int np,
                       const bench_stats* st) {
  if (c->op == OP_BARRIER) {
    printf("%s np=%d", name, np);
  } else {
    printf("%s bytes=%d np=%d", name, c->bytes, np);
  }
  if (st == NULL) {
    printf(" usec=n/a\n");
  } else {
    printf(" usec=%.3f mean=%.3f min=%.3f max=%.3f iters=%ld batches=%d\n",
           st->median * 1e6, st->mean * 1e6, st->min * 1e6, st->max * 1e6,
           st->iters, st->batches);
  }
  fflush(stdout);
}

/* Collective: the untimed first call of the operation at the current size.
 * Returns 1 on every rank when it failed on any (rank 0 names the error). */
static int coll_unsupported(const char* name, const coll_ctx* c) {
  int rc = coll_call(c);
  int failed = rc != MPI_SUCCESS;
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any && bench_rank() == 0) {
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    msg[0] = '\0';
    if (rc != MPI_SUCCESS) {
      MPI_Error_string(rc, msg, &len);
    }
    printf("# %s: skipped, the first call failed: %s\n", name,
           rc != MPI_SUCCESS ? msg : "(on another rank)");
    fflush(stdout);
  }
  return any;
}

/* Collective: rank 0 decides whether the operation's share of the time limit
 * is used up. */
static int coll_op_out_of_time(const char* name, double op_start,
                               double budget) {
  int stop = 0;
  if (bench_rank() == 0) {
    stop = (MPI_Wtime() - op_start) > budget;
  }
  MPI_Bcast(&stop, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (stop && bench_rank() == 0) {
    printf("# %s: stopped, its share of the time limit (%.1f s) is used up\n",
           name, budget > 0.0 ? budget : 0.0);
    fflush(stdout);
  }
  return stop;
}

int main(int argc, char** argv) {
  static const char* const kNames[OP_COUNT] = {
      "barrier",   "bcast",
      "allreduce", "alltoall",
      "gather",    "scatter",
      "allgather", "reduce_scatter_block",
      "scan",      "neighbor_alltoall"};
  bench_opts o;
  coll_ctx c;
  int np = 0;
  int rank;
  int op;
  int i;
  int ops_left = 0;
  long largest;
  size_t k;

  MPI_Init(&argc, &argv);
  bench_begin();
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  rank = bench_rank();
  if (bench_parse(&o, argc, argv, "barrier,bcast,allreduce,alltoall",
                  " [--ops barrier,bcast,allreduce,alltoall,gather,scatter,"
                  "allgather,reduce_scatter_block,scan,neighbor_alltoall]"
                  " [--comm world|inter]") != 0 ||
      (o.inter && np < 2)) {
    MPI_Finalize();
    return 2;
  }
  /* A missing collective must not end the job: see coll_unsupported. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (o.size_count == 0) {
    static const long kSizes[] = {8, 1024, 65536, 1048576};
    for (i = 0; i < (int)(sizeof(kSizes) / sizeof(kSizes[0])); ++i) {
      o.sizes[o.size_count++] = kSizes[i];
    }
  }
  largest = bench_largest_size(&o);
  memset(&c, 0, sizeof(c));
  c.buf = (char*)bench_alloc((size_t)largest);
  c.sbuf = (double*)bench_alloc((size_t)largest);
  c.rbuf = (double*)bench_alloc((size_t)largest);
  for (k = 0; k < (size_t)largest / sizeof(double); ++k) {
    c.sbuf[k] = 1.0;
  }
  for (op = 0; op < OP_COUNT; ++op) {
    ops_left += bench_has_op(&o, kNames[op]);
  }
  if (bench_has_op(&o, "alltoall") || bench_has_op(&o, "gather") ||
      bench_has_op(&o, "scatter") || bench_has_op(&o, "allgather") ||
      bench_has_op(&o, "reduce_scatter_block") ||
      bench_has_op(&o, "neighbor_alltoall")) {
    /* np blocks, and at least the ring's two */
    const size_t blocks = np < 2 ? 2 : (size_t)np;
    c.a2a_sbuf = (char*)bench_alloc((size_t)largest * blocks);
    c.a2a_rbuf = (char*)bench_alloc((size_t)largest * blocks);
  }
  c.ring = MPI_COMM_NULL;
  c.comm = MPI_COMM_WORLD;
  c.root = 0;
  if (o.inter) {
    /* The lower half's leader is world rank 0, the upper half's np / 2. */
    const int low = rank < np / 2;
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? np / 2 : 0, 7, &c.comm);
    MPI_Comm_free(&half);
    MPI_Comm_set_errhandler(c.comm, MPI_ERRORS_RETURN);
    c.root = low ? (rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
  } else if (bench_has_op(&o, "neighbor_alltoall")) {
    /* Weights of 1 rather than MPI_UNWEIGHTED, a sentinel pointer that GCC
     * warns about as an array of size 0 with some mpi.h. */
    const int ring[2] = {(rank + np - 1) % np, (rank + 1) % np};
    const int weights[2] = {1, 1};
    if (MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, ring, weights, 2,
                                       ring, weights, MPI_INFO_NULL, 0,
                                       &c.ring) != MPI_SUCCESS) {
      c.ring = MPI_COMM_NULL;
    }
  }
  if (rank == 0) {
    printf(
        "# coll np=%d comm=%s unit=usec per call (slowest rank), median of "
        "batches; alltoall bytes = block sent to each peer; gather, scatter, "
        "allgather, reduce_scatter_block bytes = each rank's block\n",
        np, o.inter ? "inter" : "world");
    fflush(stdout);
  }
  for (op = 0; op < OP_COUNT; ++op) {
    const int points = (op == OP_BARRIER) ? 1 : o.size_count;
    double op_start;
    double budget;
    if (!bench_has_op(&o, kNames[op])) {
      continue;
    }
    /* What is left of the limit, shared by the operations left; rank 0's
     * clock decides, so every rank uses its figure. */
    op_start = MPI_Wtime();
    budget = (o.time_limit_s - (op_start - bench_start_time)) / ops_left--;
    MPI_Bcast(&budget, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    c.op = op;
    c.bytes = (op == OP_BARRIER) ? 0 : (int)o.sizes[0];
    if (coll_unsupported(kNames[op], &c)) {
      for (i = 0; i < points; ++i) {
        c.bytes = (op == OP_BARRIER) ? 0 : (int)o.sizes[i];
        if (rank == 0) {
          coll_print(kNames[op], &c, np, NULL);
        }
      }
      continue;
    }
    for (i = 0; i < points; ++i) {
      bench_stats st;
      if (i > 0 && coll_op_out_of_time(kNames[op], op_start, budget)) {
        break;
      }
      c.bytes = (op == OP_BARRIER) ? 0 : (int)o.sizes[i];
      st = bench_measure(coll_run, &c, &o, 1);
      if (rank == 0) {
        coll_print(kNames[op], &c, np, &st);
      }
    }
  }
  if (c.ring != MPI_COMM_NULL) {
    MPI_Comm_free(&c.ring);
  }
  if (c.comm != MPI_COMM_WORLD) {
    MPI_Comm_free(&c.comm);
  }
  free(c.a2a_rbuf);
  free(c.a2a_sbuf);
  free(c.rbuf);
  free(c.sbuf);
  free(c.buf);
  MPI_Finalize();
  return 0;
}
