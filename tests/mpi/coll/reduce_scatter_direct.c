// SPDX-License-Identifier: MIT
// MPI_Reduce_scatter_block and MPI_Reduce_scatter (and their I-forms) with
// blocks of 32 KiB and more, with a non-commutative operation. In shmpi,
// when every member's send buffer is contiguous and lives in the shared
// heap (any malloc'd block of 64 KiB or more) and is not its receive
// buffer, each member folds its block straight from everyone's send buffer
// (src/coll/intra.cpp, reduce_scatter's direct path); otherwise every
// member takes the rounds. The members must all choose alike, fold in rank
// order, and none may return while another still reads its send buffer.
//
// Rounds alternate: every send buffer in the heap (direct), rank 1's in
// static storage (rounds), and MPI_IN_PLACE (rounds); half of them with a
// different count per member. Every member overwrites its send buffer as
// soon as each call returns.
#include "mpitest.h"
#include "mt_coll.h"

static int use_alloc_mem;

enum { kElems = 4500, kMaxRanks = 8, kRounds = 12 };
static MtAffine outside_heap[kMaxRanks * kElems];

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  use_alloc_mem = mt_alloc_mem_arg(argc, argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MT_CHECK(size <= kMaxRanks, "at most %d ranks", kMaxRanks);
  const size_t total = (size_t)size * kElems;
  MtAffine* heap_send = mt_alloc(sizeof(MtAffine) * total, use_alloc_mem);
  MtAffine* recv = mt_alloc(sizeof(MtAffine) * total, use_alloc_mem);
  MPI_Op affine;
  MT_CHECK_MPI(MPI_Op_create(mt_affine_op, 0, &affine));
  int counts[kMaxRanks];
  for (int round = 0; round < kRounds; ++round) {
    const int kind = round % 3;  // 0 heap, 1 rank 1 static, 2 in place
    const int vector = (round / 3) % 2;
    const int nonblocking = round % 2;
    MtAffine* send = kind == 1 && rank == 1 ? outside_heap : heap_send;
    long all = 0;
    long start = 0;
    for (int m = 0; m < size; ++m) {
      counts[m] = vector ? kElems - 7 * m : kElems;
      if (m == rank) {
        start = all;
      }
      all += counts[m];
    }
    MtAffine* input = kind == 2 ? recv : send;
    for (long i = 0; i < all; ++i) {
      input[i] = mt_affine_value(rank + round, i);
    }
    const void* sbuf = kind == 2 ? MPI_IN_PLACE : send;
    MPI_Request request = MPI_REQUEST_NULL;
    if (vector && nonblocking) {
      MT_CHECK_MPI(MPI_Ireduce_scatter(sbuf, recv, counts, MPI_2INT, affine,
                                       MPI_COMM_WORLD, &request));
    } else if (vector) {
      MT_CHECK_MPI(MPI_Reduce_scatter(sbuf, recv, counts, MPI_2INT, affine,
                                      MPI_COMM_WORLD));
    } else if (nonblocking) {
      MT_CHECK_MPI(MPI_Ireduce_scatter_block(sbuf, recv, kElems, MPI_2INT,
                                             affine, MPI_COMM_WORLD, &request));
    } else {
      MT_CHECK_MPI(MPI_Reduce_scatter_block(sbuf, recv, kElems, MPI_2INT,
                                            affine, MPI_COMM_WORLD));
    }
    MT_CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    // At once: another member must not be reading this any more.
    if (kind != 2) {
      memset(send, 0x5a, sizeof(MtAffine) * total);
    }
    for (int k = 0; k < counts[rank]; ++k) {
      // The fold of ranks 0..size-1 in rank order, at element start + k.
      MtAffine want = {1, 0};
      for (int r = 0; r < size; ++r) {
        want = mt_affine_compose(want, mt_affine_value(r + round, start + k));
      }
      MT_CHECK(recv[k].a == want.a && recv[k].b == want.b,
               "round %d (kind %d%s): element %d is (%d, %d), want (%d, %d)",
               round, kind, vector ? ", vector" : "", k, recv[k].a, recv[k].b,
               want.a, want.b);
    }
  }
  MT_CHECK_MPI(MPI_Op_free(&affine));
  mt_free(recv, use_alloc_mem);
  mt_free(heap_send, use_alloc_mem);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    printf("reduce_scatter_direct: ok\n");
  }
  MPI_Finalize();
  return 0;
}
