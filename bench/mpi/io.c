/* SPDX-License-Identifier: MIT */
/* MPI-IO on one file shared by every rank (default 2), each rank its own
 * block of `bytes` at offset rank * bytes, rewritten or reread in place, so
 * the data stays in the page cache and the figure is the implementation's
 * cost on top of the kernel's copy:
 *   pwrite          the floor: POSIX pwrite of the same block through a
 *                   descriptor of the rank's own (no MPI)
 *   write_at        MPI_File_write_at
 *   read_at         MPI_File_read_at
 *   write_at_all    MPI_File_write_at_all (collective)
 *   read_at_all     MPI_File_read_at_all (collective)
 *   open_close      MPI_File_open + MPI_File_close of the file (bytes 0)
 * and, through a view that interleaves the ranks' blocks of `bytes` (8 and
 * 512, whatever --sizes says; the file holds block 0 of every rank, then
 * block 1 of every rank, ...), 64 KiB of each rank's data per call:
 *   write_view      MPI_File_write_at
 *   read_view       MPI_File_read_at
 *   write_view_all  MPI_File_write_at_all
 *   read_view_all   MPI_File_read_at_all
 * The time of a call is the slowest rank's. The file is $TMPDIR/bench-io-
 * <pid> (/tmp by default), deleted at the end. Prints, e.g.:
 *   io op=write_at bytes=65536 np=2 usec=... mean=... min=... max=...
 *   iters=... batches=... */
#define _POSIX_C_SOURCE 200809L /* pwrite, posix_memalign under -std=c99 */
#include <fcntl.h>
#include <unistd.h>

#include "bench_common.h"

enum {
  kPwrite,
  kWriteAt,
  kReadAt,
  kWriteAtAll,
  kReadAtAll,
  kOpenClose,
  kWriteView,
  kReadView,
  kWriteViewAll,
  kReadViewAll,
  kOpCount
};
static const char* const kOps[kOpCount] = {
    "pwrite",     "write_at",   "read_at",   "write_at_all",   "read_at_all",
    "open_close", "write_view", "read_view", "write_view_all", "read_view_all"};

/* The block sizes of the view operations, and the data of one call. */
static const long kViewBlocks[] = {8, 512};
enum { kViewBytes = 64 << 10 };

typedef struct {
  MPI_File fh;
  int fd;
  char* buf;
  long bytes;
  int rank;
  int op;
  const char* name;
} io_ctx;

static double io_run(void* p, long iters) {
  io_ctx* c = (io_ctx*)p;
  const MPI_Offset at = (MPI_Offset)c->rank * (MPI_Offset)c->bytes;
  const int n = (int)c->bytes;
  double t0 = MPI_Wtime();
  long i;
  for (i = 0; i < iters; ++i) {
    switch (c->op) {
      case kPwrite:
        if (pwrite(c->fd, c->buf, (size_t)c->bytes, (off_t)at) < 0) {
          return -1.0;
        }
        break;
      case kWriteAt:
        MPI_File_write_at(c->fh, at, c->buf, n, MPI_BYTE, MPI_STATUS_IGNORE);
        break;
      case kReadAt:
        MPI_File_read_at(c->fh, at, c->buf, n, MPI_BYTE, MPI_STATUS_IGNORE);
        break;
      case kWriteAtAll:
        MPI_File_write_at_all(c->fh, at, c->buf, n, MPI_BYTE,
                              MPI_STATUS_IGNORE);
        break;
      case kReadAtAll:
        MPI_File_read_at_all(c->fh, at, c->buf, n, MPI_BYTE, MPI_STATUS_IGNORE);
        break;
      case kWriteView:
        MPI_File_write_at(c->fh, 0, c->buf, kViewBytes, MPI_BYTE,
                          MPI_STATUS_IGNORE);
        break;
      case kReadView:
        MPI_File_read_at(c->fh, 0, c->buf, kViewBytes, MPI_BYTE,
                         MPI_STATUS_IGNORE);
        break;
      case kWriteViewAll:
        MPI_File_write_at_all(c->fh, 0, c->buf, kViewBytes, MPI_BYTE,
                              MPI_STATUS_IGNORE);
        break;
      case kReadViewAll:
        MPI_File_read_at_all(c->fh, 0, c->buf, kViewBytes, MPI_BYTE,
                             MPI_STATUS_IGNORE);
        break;
      default: {
        MPI_File fh;
        MPI_File_open(MPI_COMM_WORLD, c->name, MPI_MODE_RDWR, MPI_INFO_NULL,
                      &fh);
        MPI_File_close(&fh);
        break;
      }
    }
  }
  return MPI_Wtime() - t0;
}

/* Rank r's blocks of c->bytes at r, r + np, r + 2 np, ... blocks. */
static void set_interleaved_view(io_ctx* c, int np) {
  MPI_Datatype block;
  MPI_Datatype tile;
  MPI_Type_contiguous((int)c->bytes, MPI_BYTE, &block);
  MPI_Type_create_resized(block, 0, (MPI_Aint)c->bytes * np, &tile);
  MPI_Type_commit(&tile);
  MPI_File_set_view(c->fh, (MPI_Offset)c->rank * c->bytes, MPI_BYTE, tile,
                    "native", MPI_INFO_NULL);
  MPI_Type_free(&tile);
  MPI_Type_free(&block);
}

int main(int argc, char** argv) {
  static const long kDefaultSizes[] = {8, 65536, 1048576};
  char name[512];
  bench_opts o;
  io_ctx c;
  int np = 0;
  int status;
  int op;
  int s;
  long pid;
  const char* dir;

  status = bench_init(&argc, &argv, &o, "io", NULL, 1, &np);
  if (status != 0) {
    return status;
  }
  c.rank = bench_rank();
  if (o.size_count == 0) {
    for (s = 0; s < 3; ++s) {
      o.sizes[s] = kDefaultSizes[s];
    }
    o.size_count = 3;
  }
  pid = (long)getpid();
  MPI_Bcast(&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  dir = getenv("TMPDIR");
  snprintf(name, sizeof name, "%s/bench-io-%ld",
           dir != NULL && dir[0] != '\0' ? dir : "/tmp", pid);
  c.name = name;
  c.buf = (char*)bench_alloc((size_t)bench_largest_size(&o) + kViewBytes + 8);
  if (MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR,
                    MPI_INFO_NULL, &c.fh) != MPI_SUCCESS) {
    if (c.rank == 0) {
      fprintf(stderr, "io: cannot open %s\n", name);
    }
    MPI_Finalize();
    return 1;
  }
  c.fd = open(name, O_RDWR);
  if (c.rank == 0) {
    printf("# io np=%d file=%s unit=usec, median of batches, slowest rank\n",
           np, name);
    fflush(stdout);
  }
  for (op = 0; op < kOpCount; ++op) {
    const int view = op >= kWriteView;
    const int sizes =
        view ? (int)(sizeof kViewBlocks / sizeof kViewBlocks[0]) : o.size_count;
    c.op = op;
    if (o.ops[0] != '\0' && !bench_has_op(&o, kOps[op])) {
      continue;
    }
    for (s = 0; s < sizes; ++s) {
      bench_stats st;
      c.bytes = op == kOpenClose ? 0 : view ? kViewBlocks[s] : o.sizes[s];
      if (bench_out_of_time(&o)) {
        break;
      }
      if (view) {
        set_interleaved_view(&c, np);
        /* Every block exists before it is read. */
        MPI_File_write_at_all(c.fh, 0, c.buf, kViewBytes, MPI_BYTE,
                              MPI_STATUS_IGNORE);
      } else {
        MPI_File_write_at_all(c.fh, (MPI_Offset)c.rank * c.bytes, c.buf,
                              (int)c.bytes, MPI_BYTE, MPI_STATUS_IGNORE);
      }
      MPI_Barrier(MPI_COMM_WORLD);
      st = bench_measure(io_run, &c, &o, 1);
      if (c.rank == 0) {
        printf(
            "io op=%s bytes=%ld np=%d usec=%.3f mean=%.3f min=%.3f max=%.3f "
            "iters=%ld batches=%d\n",
            kOps[op], c.bytes, np, st.median * 1e6, st.mean * 1e6, st.min * 1e6,
            st.max * 1e6, st.iters, st.batches);
        fflush(stdout);
      }
      if (op == kOpenClose) {
        break;
      }
    }
  }
  close(c.fd);
  MPI_File_close(&c.fh);
  if (c.rank == 0) {
    MPI_File_delete(name, MPI_INFO_NULL);
  }
  MPI_Finalize();
  return 0;
}
