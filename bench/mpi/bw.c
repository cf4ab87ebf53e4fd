/* SPDX-License-Identifier: MIT */
/* Streaming bandwidth from rank 0 to rank 1: rank 0 keeps a window of 64
 * MPI_Isend in flight, rank 1 posts 64 MPI_Irecv, then rank 1 acknowledges the
 * window with a zero-byte message. Sizes 1 B ... 4 MiB. Unlike OSU's osu_bw,
 * every receive of a window has its own buffer (overlapping buffers of pending
 * receives are not allowed by MPI); the sends share one buffer, which MPI-3
 * allows. Prints one line per size:
 *   bw bytes=65536 mbps=9876.5 mean=... min=... max=... iters=... batches=...
 * where mbps is 10^6 bytes per second, median over the timing batches. */
#include "bench_common.h"

typedef struct {
  char* sbuf;
  char* rbuf; /* window * stride bytes */
  MPI_Request* reqs;
  long stride;
  int bytes;
  int window;
  int rank;
} bw_ctx;

static double bw_run(void* p, long iters) {
  bw_ctx* c = (bw_ctx*)p;
  double t0 = MPI_Wtime();
  long i;
  int w;
  if (c->rank == 0) {
    for (i = 0; i < iters; ++i) {
      for (w = 0; w < c->window; ++w) {
        MPI_Isend(c->sbuf, c->bytes, MPI_BYTE, 1, 2, MPI_COMM_WORLD,
                  &c->reqs[w]);
      }
      MPI_Waitall(c->window, c->reqs, MPI_STATUSES_IGNORE);
      MPI_Recv(NULL, 0, MPI_BYTE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  } else if (c->rank == 1) {
    for (i = 0; i < iters; ++i) {
      for (w = 0; w < c->window; ++w) {
        MPI_Irecv(c->rbuf + (long)w * c->stride, c->bytes, MPI_BYTE, 0, 2,
                  MPI_COMM_WORLD, &c->reqs[w]);
      }
      MPI_Waitall(c->window, c->reqs, MPI_STATUSES_IGNORE);
      MPI_Send(NULL, 0, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
    }
  }
  return MPI_Wtime() - t0;
}

int main(int argc, char** argv) {
  bench_opts o;
  bw_ctx c;
  int np = 0;
  int status;
  int i;

  status = bench_init(&argc, &argv, &o, "bw", NULL, 2, &np);
  if (status != 0) {
    return status;
  }
  c.rank = bench_rank();
  bench_default_sizes(&o, 0);
  c.window = o.window;
  /* Receive slots start on separate cache lines. */
  c.stride = (bench_largest_size(&o) + 63) / 64 * 64;
  c.sbuf = (char*)bench_alloc((size_t)bench_largest_size(&o));
  c.rbuf = (char*)bench_alloc(c.rank == 1 ? (size_t)(c.stride * c.window) : 1);
  c.reqs = (MPI_Request*)malloc(sizeof(MPI_Request) * (size_t)c.window);
  if (c.rank == 0) {
    printf("# bw np=%d window=%d unit=MB/s (1e6 B/s), median of batches\n", np,
           c.window);
    fflush(stdout);
  }
  for (i = 0; i < o.size_count; ++i) {
    bench_stats st;
    double per_iter_bytes;
    if (bench_out_of_time(&o)) {
      break;
    }
    c.bytes = (int)o.sizes[i];
    st = bench_measure(bw_run, &c, &o, 0);
    per_iter_bytes = (double)c.bytes * c.window / 1e6;
    /* Rates: the fastest batch gives the max rate and vice versa. */
    if (c.rank == 0) {
      printf(
          "bw bytes=%d mbps=%.1f mean=%.1f min=%.1f max=%.1f iters=%ld "
          "batches=%d\n",
          c.bytes, per_iter_bytes / st.median, per_iter_bytes / st.mean,
          per_iter_bytes / st.max, per_iter_bytes / st.min, st.iters,
          st.batches);
      fflush(stdout);
    }
  }
  free(c.reqs);
  free(c.rbuf);
  free(c.sbuf);
  MPI_Finalize();
  return 0;
}
