/* SPDX-License-Identifier: MIT */
/* Partitioned communication (MPI 4.0 chapter 4) between ranks 0 and 1.
 * Prints one line per measured point:
 *   part parts=8 bytes=1024 usec=...       time per iteration (Start,
 *       Pready of every partition, Wait on both sides), streaming; bytes is
 *       the size of one partition
 *   part_plain bytes=8192 usec=...         MPI_Send/MPI_Recv of the same
 *       bytes as one message, streaming (the comparison)
 *   part_alloc parts=8 bytes=1024 usec=... as part, with both buffers from
 *       MPI_Alloc_mem (an MPI may then move the data with fewer copies)
 *   part_early parts=8 bytes=8 usec=...    early bird: from MPI_Pready(p) on
 *       rank 0 to MPI_Parrived(p) becoming true on rank 1, partitions made
 *       ready 20 us apart (mean over the partitions)
 * usec is the median over timing batches of rank 0's time. */
#include "bench_common.h"

typedef struct {
  char* sbuf;
  char* rbuf;
  MPI_Request send; /* rank 0: to rank 1; rank 1: to rank 0 (early bird) */
  MPI_Request recv;
  int parts;
  long bytes; /* per partition */
  int rank;
} part_ctx;

static double iteration_run(void* p, long iters) {
  part_ctx* c = (part_ctx*)p;
  double t0 = MPI_Wtime();
  long i;
  for (i = 0; i < iters; ++i) {
    if (c->rank == 0) {
      MPI_Start(&c->send);
      MPI_Pready_range(0, c->parts - 1, c->send);
      MPI_Wait(&c->send, MPI_STATUS_IGNORE);
    } else if (c->rank == 1) {
      MPI_Start(&c->recv);
      MPI_Wait(&c->recv, MPI_STATUS_IGNORE);
    }
  }
  return MPI_Wtime() - t0;
}

static double plain_run(void* p, long iters) {
  part_ctx* c = (part_ctx*)p;
  double t0 = MPI_Wtime();
  long i;
  const int total = (int)(c->bytes * c->parts);
  for (i = 0; i < iters; ++i) {
    if (c->rank == 0) {
      MPI_Send(c->sbuf, total, MPI_BYTE, 1, 5, MPI_COMM_WORLD);
    } else if (c->rank == 1) {
      MPI_Recv(c->rbuf, total, MPI_BYTE, 0, 5, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    }
  }
  return MPI_Wtime() - t0;
}

/* Early bird: rank 0 makes the partitions ready one by one, kGapUsec apart,
 * noting when it called MPI_Pready(p); rank 1 polls MPI_Parrived on each
 * partition in order and notes when it became true. Both read the same
 * CLOCK_MONOTONIC (one machine; MPI_WTIME_IS_GLOBAL), so the difference is
 * the early-bird latency of partition p. An MPI whose MPI_Parrived waits for
 * the whole message shows the gaps of the later partitions in it. Returns
 * the summed latencies over the partitions, so the per-iteration figure is
 * the mean latency of one partition. */
enum { kMaxEarlyParts = 64 };
static const double kGapUsec = 20.0;

static double early_run(void* p, long iters) {
  part_ctx* c = (part_ctx*)p;
  double stamps[kMaxEarlyParts];
  double spent = 0.0;
  long i;
  int q;
  for (i = 0; i < iters; ++i) {
    if (c->rank == 0) {
      MPI_Start(&c->send);
      /* The receiver has started too once the previous iteration is done;
       * wait for its go so the first gap is not spent in its MPI_Start. */
      MPI_Recv(NULL, 0, MPI_BYTE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (q = 0; q < c->parts; ++q) {
        double until;
        stamps[q] = MPI_Wtime();
        MPI_Pready(q, c->send);
        until = MPI_Wtime() + kGapUsec * 1e-6;
        while (MPI_Wtime() < until) {
        }
      }
      MPI_Wait(&c->send, MPI_STATUS_IGNORE);
      {
        double arrived[kMaxEarlyParts];
        MPI_Recv(arrived, c->parts, MPI_DOUBLE, 1, 4, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        for (q = 0; q < c->parts; ++q) {
          spent += arrived[q] - stamps[q];
        }
      }
    } else if (c->rank == 1) {
      MPI_Start(&c->recv);
      MPI_Send(NULL, 0, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
      for (q = 0; q < c->parts; ++q) {
        int flag = 0;
        while (!flag) {
          MPI_Parrived(c->recv, q, &flag);
        }
        stamps[q] = MPI_Wtime();
      }
      MPI_Wait(&c->recv, MPI_STATUS_IGNORE);
      MPI_Send(stamps, c->parts, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD);
    }
  }
  return spent / (double)c->parts;
}

static void report(const char* what, const part_ctx* c, bench_stats st,
                   int with_parts) {
  if (c->rank != 0) {
    return;
  }
  if (with_parts) {
    printf(
        "%s parts=%d bytes=%ld usec=%.3f mean=%.3f min=%.3f max=%.3f "
        "iters=%ld batches=%d\n",
        what, c->parts, c->bytes, st.median * 1e6, st.mean * 1e6, st.min * 1e6,
        st.max * 1e6, st.iters, st.batches);
  } else {
    printf(
        "%s bytes=%ld usec=%.3f mean=%.3f min=%.3f max=%.3f iters=%ld "
        "batches=%d\n",
        what, c->bytes * c->parts, st.median * 1e6, st.mean * 1e6, st.min * 1e6,
        st.max * 1e6, st.iters, st.batches);
  }
  fflush(stdout);
}

static void iteration_init(part_ctx* c, int tag) {
  c->send = MPI_REQUEST_NULL;
  c->recv = MPI_REQUEST_NULL;
  if (c->rank == 0) {
    MPI_Psend_init(c->sbuf, c->parts, (MPI_Count)c->bytes, MPI_BYTE, 1, tag,
                   MPI_COMM_WORLD, MPI_INFO_NULL, &c->send);
  } else if (c->rank == 1) {
    MPI_Precv_init(c->rbuf, c->parts, (MPI_Count)c->bytes, MPI_BYTE, 0, tag,
                   MPI_COMM_WORLD, MPI_INFO_NULL, &c->recv);
  }
}

static void iteration_free(part_ctx* c) {
  if (c->send != MPI_REQUEST_NULL) {
    MPI_Request_free(&c->send);
  }
  if (c->recv != MPI_REQUEST_NULL) {
    MPI_Request_free(&c->recv);
  }
}

enum { kIterationCases = 3, kIterationSizes = 2 };
static const int kParts[kIterationCases] = {1, 8, 64};
static const long kBytes[kIterationSizes] = {1024, 65536};
static const size_t kBufferBytes = (size_t)64 * 65536;

int main(int argc, char** argv) {
  static const int kEarlyParts = 8;
  static const long kEarlyBytes[2] = {8, 1024};
  bench_opts o;
  part_ctx c;
  int np = 0;
  int status;
  int i;
  int j;

  status = bench_init(&argc, &argv, &o, "part", NULL, 2, &np);
  if (status != 0) {
    return status;
  }
  c.rank = bench_rank();
  c.sbuf = (char*)bench_alloc(kBufferBytes);
  c.rbuf = (char*)bench_alloc(kBufferBytes);
  if (c.rank == 0) {
    printf("# part np=%d unit=usec, median of batches\n", np);
    fflush(stdout);
  }
  for (j = 0; j < kIterationSizes; ++j) {
    for (i = 0; i < kIterationCases; ++i) {
      bench_stats st;
      if (bench_out_of_time(&o)) {
        break;
      }
      c.parts = kParts[i];
      c.bytes = kBytes[j];
      iteration_init(&c, 1);
      st = bench_measure(iteration_run, &c, &o, 0);
      report("part", &c, st, 1);
      st = bench_measure(plain_run, &c, &o, 0);
      report("part_plain", &c, st, 0);
      iteration_free(&c);
    }
  }
  {
    /* The same iterations with both buffers from MPI_Alloc_mem. */
    char* sbuf = c.sbuf;
    char* rbuf = c.rbuf;
    void* salloc = NULL;
    void* ralloc = NULL;
    MPI_Alloc_mem((MPI_Aint)kBufferBytes, MPI_INFO_NULL, &salloc);
    MPI_Alloc_mem((MPI_Aint)kBufferBytes, MPI_INFO_NULL, &ralloc);
    memset(salloc, 0x5a, kBufferBytes);
    memset(ralloc, 0x5a, kBufferBytes);
    c.sbuf = (char*)salloc;
    c.rbuf = (char*)ralloc;
    for (j = 0; j < kIterationSizes; ++j) {
      for (i = 0; i < kIterationCases; ++i) {
        bench_stats st;
        if (bench_out_of_time(&o)) {
          break;
        }
        c.parts = kParts[i];
        c.bytes = kBytes[j];
        iteration_init(&c, 6);
        st = bench_measure(iteration_run, &c, &o, 0);
        report("part_alloc", &c, st, 1);
        iteration_free(&c);
      }
    }
    MPI_Free_mem(salloc);
    MPI_Free_mem(ralloc);
    c.sbuf = sbuf;
    c.rbuf = rbuf;
  }
  for (j = 0; j < 2; ++j) {
    bench_stats st;
    if (bench_out_of_time(&o)) {
      break;
    }
    c.parts = kEarlyParts;
    c.bytes = kEarlyBytes[j];
    iteration_init(&c, 2);
    st = bench_measure(early_run, &c, &o, 0);
    report("part_early", &c, st, 1);
    iteration_free(&c);
  }
  free(c.sbuf);
  free(c.rbuf);
  MPI_Finalize();
  return 0;
}
