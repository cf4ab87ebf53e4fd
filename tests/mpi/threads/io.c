// SPDX-License-Identifier: MIT
// MPI 4.0 §14.4 under MPI_THREAD_MULTIPLE: four threads of each rank share
// one file handle. Each thread writes its own blocks with explicit offsets
// and through the shared file pointer, then reads every block back; the
// shared pointer's reservations never overlap between threads or ranks, and
// it ends past exactly all of them. Each thread also moves through its own
// blocks with MPI_File_iwrite_at + MPI_Wait.
#include "mt_file.h"
#include "mt_threads.h"

enum { kThreads = 4, kBlocks = 50, kInts = 64 };

typedef struct {
  MPI_File fh;
  int rank;
  int size;
  int thread;
} Item;

static int value(int rank, int thread, int block, int i) {
  return ((rank * kThreads + thread) * kBlocks + block) * kInts + i;
}

// The block slot of (rank, thread, block) in the explicit-offset half.
static MPI_Offset slot(const Item* it, int block) {
  return ((MPI_Offset)(it->rank * kThreads + it->thread) * kBlocks + block) *
         kInts * (MPI_Offset)sizeof(int);
}

static void* writer(void* p) {
  const Item* it = p;
  int buf[kInts];
  for (int b = 0; b < kBlocks; ++b) {
    for (int i = 0; i < kInts; ++i) {
      buf[i] = value(it->rank, it->thread, b, i);
    }
    if (b % 2 == 0) {
      MT_CHECK_IO(MPI_File_write_at(it->fh, slot(it, b), buf, kInts, MPI_INT,
                                    MPI_STATUS_IGNORE),
                  "MPI_File_write_at");
    } else {
      MPI_Request request;
      MT_CHECK_IO(MPI_File_iwrite_at(it->fh, slot(it, b), buf, kInts, MPI_INT,
                                     &request),
                  "MPI_File_iwrite_at");
      MT_CHECK_IO(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait");
    }
    MT_CHECK_IO(
        MPI_File_write_shared(it->fh, buf, kInts, MPI_INT, MPI_STATUS_IGNORE),
        "MPI_File_write_shared");
  }
  return NULL;
}

static void* reader(void* p) {
  const Item* it = p;
  int buf[kInts];
  for (int b = 0; b < kBlocks; ++b) {
    MT_CHECK_IO(MPI_File_read_at(it->fh, slot(it, b), buf, kInts, MPI_INT,
                                 MPI_STATUS_IGNORE),
                "MPI_File_read_at");
    for (int i = 0; i < kInts; ++i) {
      if (buf[i] != value(it->rank, it->thread, b, i)) {
        MT_FAIL("thread %d block %d int %d is %d", it->thread, b, i, buf[i]);
      }
    }
  }
  return NULL;
}

int main(int argc, char** argv) {
  mt_init_threads(&argc, &argv, kThreads);
  const int rank = mt_rank();
  const int size = mt_size();
  MPI_File fh = mt_open_scratch_file("threads-io");
  const MPI_Offset half =
      (MPI_Offset)size * kThreads * kBlocks * kInts * (MPI_Offset)sizeof(int);
  // The shared-pointer writes go after the explicit-offset half.
  MT_CHECK_IO(MPI_File_seek_shared(fh, half, MPI_SEEK_SET),
              "MPI_File_seek_shared");
  Item items[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    items[t] = (Item){fh, rank, size, t};
  }
  mt_run_threads(kThreads, writer, items, sizeof(Item));
  MPI_Barrier(MPI_COMM_WORLD);
  mt_run_threads(kThreads, reader, items, sizeof(Item));
  MPI_Offset position = 0;
  MT_CHECK_IO(MPI_File_get_position_shared(fh, &position),
              "MPI_File_get_position_shared");
  if (position != 2 * half) {
    MT_FAIL("the shared pointer ends at %lld, expected %lld",
            (long long)position, (long long)(2 * half));
  }
  // Every shared-pointer block is some thread's whole block, once.
  if (rank == 0) {
    const int total = size * kThreads * kBlocks;
    char* seen = calloc((size_t)total, 1);
    int buf[kInts];
    for (int k = 0; k < total; ++k) {
      MT_CHECK_IO(
          MPI_File_read_at(
              fh, half + (MPI_Offset)k * kInts * (MPI_Offset)sizeof(int), buf,
              kInts, MPI_INT, MPI_STATUS_IGNORE),
          "MPI_File_read_at");
      const int id =
          buf[0] / kInts;  // (rank * kThreads + thread) * kBlocks + b
      if (id < 0 || id >= total || seen[id]) {
        MT_FAIL("shared block %d starts with %d", k, buf[0]);
      }
      seen[id] = 1;
      for (int i = 0; i < kInts; ++i) {
        if (buf[i] != id * kInts + i) {
          MT_FAIL("shared block %d is torn at int %d", k, i);
        }
      }
    }
    free(seen);
  }
  MT_CHECK_IO(MPI_File_close(&fh), "MPI_File_close");
  MPI_Finalize();
  return 0;
}
