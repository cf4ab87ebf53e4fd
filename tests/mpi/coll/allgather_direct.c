// SPDX-License-Identifier: MIT
// MPI_Allgather and MPI_Allgatherv (and their I-forms) with blocks of 32
// KiB and more. In shmpi, when every member's block (its send buffer, or
// its place in the receive buffer in place) is contiguous and lives in the
// shared heap (any malloc'd block of 64 KiB or more), each member copies
// the others' blocks straight from where they are (src/coll/intra.cpp,
// allgatherv's direct path); otherwise every member takes the rounds
// through the scratch block. All members must choose alike, and none may
// return while another still reads its block.
//
// Rounds alternate: every block in the heap (direct), rank 1's send buffer
// in static storage (rounds), rank 0 sending through a strided datatype and
// odd ranks receiving through one (rounds; the fixed-size form only), and
// in place (direct). Half the rounds are the vector form with a different
// count per member. Every member overwrites its buffers as soon as each
// call returns.
#include "mpitest.h"

static int use_alloc_mem;

enum { kInts = 9001, kMaxRanks = 8, kRounds = 16 };
static int outside_heap[kInts * 2];

static int value(int member, int round, int i) {
  return (member * 17 + round) * 100003 + i;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  use_alloc_mem = mt_alloc_mem_arg(argc, argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MT_CHECK(size <= kMaxRanks, "at most %d ranks", kMaxRanks);
  const size_t total = (size_t)size * kInts;
  int* heap_send = mt_alloc(sizeof(int) * kInts * 2, use_alloc_mem);
  int* recv = mt_alloc(sizeof(int) * total * 2, use_alloc_mem);
  MPI_Datatype every_other_block = mt_every_other_block(kInts);
  int counts[kMaxRanks];
  int displs[kMaxRanks];
  for (int round = 0; round < kRounds; ++round) {
    // 0 heap, 1 rank 1 static, 2 strided, 3 in place
    const int kind = round % 4;
    const int vector = (round / 4) % 2;
    const int nonblocking = round % 2;
    const int in_place = kind == 3;
    int* send = kind == 1 && rank == 1 ? outside_heap : heap_send;
    // Strided blocks have kInts elements: the fixed-size form only.
    const int strided_send = kind == 2 && rank == 0 && !vector;
    const int strided_recv = kind == 2 && rank % 2 == 1 && !vector;
    for (int m = 0; m < size; ++m) {
      counts[m] = vector ? kInts - m : kInts;
      displs[m] = m * kInts;
    }
    const int mine = counts[rank];
    for (size_t i = 0; i < total * 2; ++i) {
      recv[i] = -1;
    }
    for (int i = 0; i < mine; ++i) {
      if (in_place) {
        recv[(size_t)rank * kInts + (size_t)i] = value(rank, round, i);
      } else {
        send[strided_send ? (size_t)i * 2 : (size_t)i] = value(rank, round, i);
      }
    }
    const void* sbuf = in_place ? MPI_IN_PLACE : send;
    const MPI_Datatype stype = strided_send ? every_other_block : MPI_INT;
    const int scount = strided_send ? 1 : mine;
    const MPI_Datatype rtype = strided_recv ? every_other_block : MPI_INT;
    const int rcount = strided_recv ? 1 : kInts;
    MPI_Request request = MPI_REQUEST_NULL;
    if (vector) {
      if (nonblocking) {
        MT_CHECK_MPI(MPI_Iallgatherv(sbuf, mine, MPI_INT, recv, counts, displs,
                                     MPI_INT, MPI_COMM_WORLD, &request));
      } else {
        MT_CHECK_MPI(MPI_Allgatherv(sbuf, mine, MPI_INT, recv, counts, displs,
                                    MPI_INT, MPI_COMM_WORLD));
      }
    } else if (nonblocking) {
      MT_CHECK_MPI(MPI_Iallgather(sbuf, scount, stype, recv, rcount, rtype,
                                  MPI_COMM_WORLD, &request));
    } else {
      MT_CHECK_MPI(MPI_Allgather(sbuf, scount, stype, recv, rcount, rtype,
                                 MPI_COMM_WORLD));
    }
    MT_CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    // At once: another member must not be reading this any more.
    memset(send, 0x5a, sizeof(int) * kInts * (strided_send ? 2 : 1));
    const int strided = strided_recv;
    for (int m = 0; m < size; ++m) {
      for (int i = 0; i < counts[m]; ++i) {
        const size_t at = (size_t)m * kInts + (size_t)i;
        const int got = recv[strided ? at * 2 : at];
        MT_CHECK(got == value(m, round, i),
                 "round %d (kind %d%s): block of %d, [%d] = %d, want %d", round,
                 kind, vector ? ", vector" : "", m, i, got, value(m, round, i));
        if (strided) {
          MT_CHECK(recv[at * 2 + 1] == -1, "a strided receive wrote a gap");
        }
      }
    }
    // In place, the receive buffer was what the others read: overwrite it
    // too.
    memset(recv, 0x5a, sizeof(int) * total * 2);
  }
  MT_CHECK_MPI(MPI_Type_free(&every_other_block));
  mt_free(recv, use_alloc_mem);
  mt_free(heap_send, use_alloc_mem);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    printf("allgather_direct: ok\n");
  }
  MPI_Finalize();
  return 0;
}
