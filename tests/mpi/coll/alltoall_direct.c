// SPDX-License-Identifier: MIT
// MPI_Alltoall and MPI_Ialltoall with blocks of 32 KiB and more. In shmpi,
// when every member's send buffer lives in the shared heap (any malloc'd
// block of 64 KiB or more), each member copies its blocks straight out of
// the others' send buffers (src/coll/intra.cpp, alltoallv's direct path);
// otherwise every member takes the rounds through the scratch block. The
// members must all choose alike, and none may return while another still
// reads its buffer.
//
// Rounds alternate: all send buffers malloc'd (direct); rank 1's send buffer
// in static storage (the others' in the heap: nobody goes direct); rank 0
// sending through a strided datatype (the same). Every member overwrites
// its send buffer as soon as each call returns, and odd ranks receive into
// a strided type.
#include "mpitest.h"

// The buffers that may be read in place come from malloc, or with the
// argument "alloc_mem" from MPI_Alloc_mem (the shared heap in every shmpi
// build, sanitizer builds included, whose allocator is their own).
static int use_alloc_mem;

enum { kInts = 9001, kMaxRanks = 8, kRounds = 9 };
static int outside_heap[kMaxRanks * kInts * 2];

static int value(int from, int to, int round, int i) {
  return ((from * 31 + to) * 17 + round) * 100003 + i;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  use_alloc_mem = mt_alloc_mem_arg(argc, argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MT_CHECK(size <= kMaxRanks, "at most %d ranks", kMaxRanks);
  const size_t total = (size_t)size * kInts;
  int* heap_send = mt_alloc(sizeof(int) * total * 2, use_alloc_mem);
  int* recv = mt_alloc(sizeof(int) * total * 2, use_alloc_mem);
  MPI_Datatype every_other_block = mt_every_other_block(kInts);
  for (int round = 0; round < kRounds; ++round) {
    const int kind = round % 3;  // 0 all heap, 1 rank 1 static, 2 strided
    int* send = kind == 1 && rank == 1 ? outside_heap : heap_send;
    const int strided_send = kind == 2 && rank == 0;
    const int strided_recv = rank % 2 == 1;
    for (int to = 0; to < size; ++to) {
      for (int i = 0; i < kInts; ++i) {
        const size_t at = strided_send ? ((size_t)to * kInts + (size_t)i) * 2
                                       : (size_t)to * kInts + (size_t)i;
        send[at] = value(rank, to, round, i);
      }
    }
    for (size_t i = 0; i < total * 2; ++i) {
      recv[i] = -1;
    }
    const MPI_Datatype stype = strided_send ? every_other_block : MPI_INT;
    const int scount = strided_send ? 1 : kInts;
    const MPI_Datatype rtype = strided_recv ? every_other_block : MPI_INT;
    const int rcount = strided_recv ? 1 : kInts;
    if (round % 2 == 0) {
      MT_CHECK_MPI(MPI_Alltoall(send, scount, stype, recv, rcount, rtype,
                                MPI_COMM_WORLD));
    } else {
      MPI_Request request;
      MT_CHECK_MPI(MPI_Ialltoall(send, scount, stype, recv, rcount, rtype,
                                 MPI_COMM_WORLD, &request));
      MT_CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    }
    // At once: another member must not be reading this any more.
    memset(send, 0x5a, sizeof(int) * total * (strided_send ? 2 : 1));
    for (int from = 0; from < size; ++from) {
      for (int i = 0; i < kInts; ++i) {
        const size_t at = strided_recv ? ((size_t)from * kInts + (size_t)i) * 2
                                       : (size_t)from * kInts + (size_t)i;
        MT_CHECK(recv[at] == value(from, rank, round, i),
                 "round %d (kind %d): block from %d, [%d] = %d, want %d", round,
                 kind, from, i, recv[at], value(from, rank, round, i));
        if (strided_recv) {
          MT_CHECK(recv[at + 1] == -1, "a strided receive wrote a gap");
        }
      }
    }
  }
  MT_CHECK_MPI(MPI_Type_free(&every_other_block));
  mt_free(recv, use_alloc_mem);
  mt_free(heap_send, use_alloc_mem);
  MPI_Finalize();
  return 0;
}
