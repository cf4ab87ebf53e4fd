/* SPDX-License-Identifier: MIT */
/* Message rate of small messages. Ranks form pairs (i, i + np/2); each sender
 * keeps a window of 64 MPI_Isend in flight, its receiver posts 64 MPI_Irecv
 * (one buffer each) and acknowledges the window with a zero-byte message.
 * The rate is the aggregate over all pairs, over the slowest rank's time.
 * Prints one line per size:
 *   msgrate bytes=8 mmsgs=5.123 mean=... min=... max=... iters=... batches=...
 * where mmsgs is millions of messages per second, median over the batches. */
#include "bench_common.h"

typedef struct {
  char* sbuf;
  char* rbuf; /* window * stride bytes */
  MPI_Request* reqs;
  long stride;
  int bytes;
  int window;
  int peer;
  int role; /* 1 sender, 2 receiver, 0 idle */
} rate_ctx;

static double rate_run(void* p, long iters) {
  rate_ctx* c = (rate_ctx*)p;
  double t0 = MPI_Wtime();
  long i;
  int w;
  if (c->role == 1) {
    for (i = 0; i < iters; ++i) {
      for (w = 0; w < c->window; ++w) {
        MPI_Isend(c->sbuf, c->bytes, MPI_BYTE, c->peer, 4, MPI_COMM_WORLD,
                  &c->reqs[w]);
      }
      MPI_Waitall(c->window, c->reqs, MPI_STATUSES_IGNORE);
      MPI_Recv(NULL, 0, MPI_BYTE, c->peer, 5, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    }
  } else if (c->role == 2) {
    for (i = 0; i < iters; ++i) {
      for (w = 0; w < c->window; ++w) {
        MPI_Irecv(c->rbuf + (long)w * c->stride, c->bytes, MPI_BYTE, c->peer, 4,
                  MPI_COMM_WORLD, &c->reqs[w]);
      }
      MPI_Waitall(c->window, c->reqs, MPI_STATUSES_IGNORE);
      MPI_Send(NULL, 0, MPI_BYTE, c->peer, 5, MPI_COMM_WORLD);
    }
  }
  return MPI_Wtime() - t0;
}

int main(int argc, char** argv) {
  bench_opts o;
  rate_ctx c;
  int np = 0;
  int status;
  int rank;
  int pairs;
  int i;

  status = bench_init(&argc, &argv, &o, "msgrate", NULL, 2, &np);
  if (status != 0) {
    return status;
  }
  rank = bench_rank();
  if (o.size_count == 0) {
    static const long kSizes[] = {0, 1, 8, 64, 512, 4096};
    for (i = 0; i < (int)(sizeof(kSizes) / sizeof(kSizes[0])); ++i) {
      o.sizes[o.size_count++] = kSizes[i];
    }
  }
  pairs = np / 2;
  c.role = (rank < pairs) ? 1 : (rank < 2 * pairs ? 2 : 0);
  c.peer = (c.role == 1) ? rank + pairs : rank - pairs;
  c.window = o.window;
  c.stride = (bench_largest_size(&o) + 63) / 64 * 64;
  if (c.stride == 0) {
    c.stride = 64;
  }
  c.sbuf = (char*)bench_alloc((size_t)bench_largest_size(&o));
  c.rbuf = (char*)bench_alloc((size_t)(c.stride * c.window));
  c.reqs = (MPI_Request*)malloc(sizeof(MPI_Request) * (size_t)c.window);
  if (rank == 0) {
    printf("# msgrate np=%d pairs=%d window=%d unit=million msgs/s aggregate\n",
           np, pairs, c.window);
    fflush(stdout);
  }
  for (i = 0; i < o.size_count; ++i) {
    bench_stats st;
    double msgs = (double)pairs * c.window / 1e6;
    if (bench_out_of_time(&o)) {
      break;
    }
    c.bytes = (int)o.sizes[i];
    st = bench_measure(rate_run, &c, &o, 1);
    if (rank == 0) {
      printf(
          "msgrate bytes=%d mmsgs=%.3f mean=%.3f min=%.3f max=%.3f iters=%ld "
          "batches=%d\n",
          c.bytes, msgs / st.median, msgs / st.mean, msgs / st.max,
          msgs / st.min, st.iters, st.batches);
      fflush(stdout);
    }
  }
  free(c.reqs);
  free(c.rbuf);
  free(c.sbuf);
  MPI_Finalize();
  return 0;
}
