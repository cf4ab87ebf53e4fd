/* SPDX-License-Identifier: MIT */
/* Ping-pong between ranks 0 and 1: one-way latency (half the round trip) for
 * message sizes 0, 1, 2, 4, ... 4 MiB. Other ranks, if any, stay idle.
 * Prints one line per size:
 *   latency bytes=8 usec=0.31 mean=0.32 min=0.30 max=0.35 iters=8000 batches=11
 * where usec is the median over the timing batches. */
#include "bench_common.h"

typedef struct {
  char* buf;
  int bytes;
  int rank;
} latency_ctx;

static double latency_run(void* p, long iters) {
  latency_ctx* c = (latency_ctx*)p;
  double t0 = MPI_Wtime();
  long i;
  if (c->rank == 0) {
    for (i = 0; i < iters; ++i) {
      MPI_Send(c->buf, c->bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(c->buf, c->bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    }
  } else if (c->rank == 1) {
    for (i = 0; i < iters; ++i) {
      MPI_Recv(c->buf, c->bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      MPI_Send(c->buf, c->bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
  }
  /* A round trip is two one-way trips. */
  return (MPI_Wtime() - t0) / 2.0;
}

int main(int argc, char** argv) {
  bench_opts o;
  latency_ctx c;
  int np = 0;
  int status;
  int i;

  status = bench_init(&argc, &argv, &o, "latency", NULL, 2, &np);
  if (status != 0) {
    return status;
  }
  c.rank = bench_rank();
  bench_default_sizes(&o, 1);
  c.buf = (char*)bench_alloc((size_t)bench_largest_size(&o));
  if (c.rank == 0) {
    printf("# latency np=%d unit=usec one-way, median of batches\n", np);
    fflush(stdout);
  }
  for (i = 0; i < o.size_count; ++i) {
    bench_stats st;
    if (bench_out_of_time(&o)) {
      break;
    }
    c.bytes = (int)o.sizes[i];
    st = bench_measure(latency_run, &c, &o, 0);
    if (c.rank == 0) {
      printf(
          "latency bytes=%d usec=%.3f mean=%.3f min=%.3f max=%.3f iters=%ld "
          "batches=%d\n",
          c.bytes, st.median * 1e6, st.mean * 1e6, st.min * 1e6, st.max * 1e6,
          st.iters, st.batches);
      fflush(stdout);
    }
  }
  free(c.buf);
  MPI_Finalize();
  return 0;
}
