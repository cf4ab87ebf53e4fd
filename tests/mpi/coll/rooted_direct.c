// SPDX-License-Identifier: MIT
// MPI_Gather(v) and MPI_Scatter(v) (and their I-forms) with blocks of 32
// KiB and more. In shmpi, when the root's buffer (a gather's receive buffer, a
// scatter's send buffer) is contiguous and lives in the shared heap (any
// malloc'd block of 64 KiB or more), each member writes its block straight
// into it or copies its block straight out of it (src/coll/intra.cpp, the
// direct paths of gather(v) and scatter(v)); otherwise every member takes the
// rounds through the scratch block. All members must choose alike, and the
// root must not return while another member still uses its buffer.
//
// Rounds go through the roots and alternate the root's buffer: from the
// heap (direct), in static storage (rounds), through a strided datatype
// (rounds), and MPI_IN_PLACE at the root from the heap (direct); half of
// them are MPI_Gatherv and MPI_Scatterv with a different count per member.
// Odd ranks send or receive through a strided datatype in the fixed-size
// rounds. Every member overwrites its buffers as soon as each call
// returns.
#include "mpitest.h"

// The buffers that may be used in place come from malloc, or with the
// argument "alloc_mem" from MPI_Alloc_mem (the shared heap in every shmpi
// build, sanitizer builds included).
static int use_alloc_mem;

enum { kInts = 9001, kMaxRanks = 8, kRounds = 32 };
static int outside_heap[kMaxRanks * kInts * 2];

static int value(int member, int root, int round, int i) {
  return ((member * 31 + root) * 17 + round) * 100003 + i;
}

// Where element i of member m's block sits in a buffer of blocks, packed or
// every other int.
static size_t at_of(int m, int i, int strided) {
  const size_t at = (size_t)m * kInts + (size_t)i;
  return strided ? at * 2 : at;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  use_alloc_mem = mt_alloc_mem_arg(argc, argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MT_CHECK(size <= kMaxRanks, "at most %d ranks", kMaxRanks);
  const size_t total = (size_t)size * kInts;
  int* heap_blocks = mt_alloc(sizeof(int) * total * 2, use_alloc_mem);
  int* own = mt_alloc(sizeof(int) * kInts * 2, use_alloc_mem);
  MPI_Datatype every_other_block = mt_every_other_block(kInts);
  for (int round = 0; round < kRounds; ++round) {
    const int root = (round / 8) % size;
    // 0 heap, 1 static storage, 2 strided, 3 in place from the heap
    const int kind = round % 4;
    // MPI_Gatherv and MPI_Scatterv, with a different count per member
    // (strided blocks have kInts elements: the fixed-size forms only).
    const int vector = (round / 4) % 2;
    int counts[kMaxRanks];
    int displs[kMaxRanks];
    for (int m = 0; m < size; ++m) {
      counts[m] = vector ? kInts - m : kInts;
      displs[m] = m * kInts;
    }
    const int is_root = rank == root;
    int* blocks = kind == 1 ? outside_heap : heap_blocks;
    const int strided_blocks = kind == 2 && !vector;
    const int in_place = kind == 3 && is_root;
    const int strided_own = rank % 2 == 1 && !in_place && !vector;
    const MPI_Datatype btype = strided_blocks ? every_other_block : MPI_INT;
    const int bcount = strided_blocks ? 1 : kInts;
    const MPI_Datatype otype = strided_own ? every_other_block : MPI_INT;
    const int ocount = strided_own ? 1 : counts[rank];
    const int nonblocking = round % 2 == 1;

    // Gather: every member's own block to the root's blocks.
    for (int i = 0; i < counts[rank]; ++i) {
      own[strided_own ? (size_t)i * 2 : (size_t)i] =
          value(rank, root, round, i);
      if (strided_own) {
        own[(size_t)i * 2 + 1] = -2;
      }
    }
    if (is_root) {
      for (size_t i = 0; i < total * 2; ++i) {
        blocks[i] = -1;
      }
      if (in_place) {
        for (int i = 0; i < kInts; ++i) {
          blocks[at_of(root, i, 0)] = value(root, root, round, i);
        }
      }
    }
    const void* gsend = in_place ? MPI_IN_PLACE : own;
    MPI_Request request = MPI_REQUEST_NULL;
    if (vector && nonblocking) {
      MT_CHECK_MPI(MPI_Igatherv(gsend, ocount, otype, blocks, counts, displs,
                                MPI_INT, root, MPI_COMM_WORLD, &request));
    } else if (vector) {
      MT_CHECK_MPI(MPI_Gatherv(gsend, ocount, otype, blocks, counts, displs,
                               MPI_INT, root, MPI_COMM_WORLD));
    } else if (nonblocking) {
      MT_CHECK_MPI(MPI_Igather(gsend, ocount, otype, blocks, bcount, btype,
                               root, MPI_COMM_WORLD, &request));
    } else {
      MT_CHECK_MPI(MPI_Gather(gsend, ocount, otype, blocks, bcount, btype, root,
                              MPI_COMM_WORLD));
    }
    MT_CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    memset(own, 0x5a, sizeof(int) * kInts * 2);  // nobody reads it now
    for (int m = 0; is_root && m < size; ++m) {
      for (int i = 0; i < counts[m]; ++i) {
        const int got = blocks[at_of(m, i, strided_blocks)];
        MT_CHECK(got == value(m, root, round, i),
                 "round %d (kind %d): gather at %d, block of %d, [%d] = %d, "
                 "want %d",
                 round, kind, root, m, i, got, value(m, root, round, i));
        if (strided_blocks) {
          MT_CHECK(blocks[at_of(m, i, 1) + 1] == -1,
                   "a strided gather wrote a gap");
        }
      }
    }

    // Scatter: the root's blocks to every member (the root's own block
    // stays where it is in place).
    for (int m = 0; is_root && m < size; ++m) {
      for (int i = 0; i < kInts; ++i) {
        blocks[at_of(m, i, strided_blocks)] = value(m, root, round + 1, i);
      }
    }
    for (size_t i = 0; i < kInts * 2; ++i) {
      own[i] = -1;
    }
    void* srecv = in_place ? MPI_IN_PLACE : own;
    if (vector && nonblocking) {
      MT_CHECK_MPI(MPI_Iscatterv(blocks, counts, displs, MPI_INT, srecv, ocount,
                                 otype, root, MPI_COMM_WORLD, &request));
    } else if (vector) {
      MT_CHECK_MPI(MPI_Scatterv(blocks, counts, displs, MPI_INT, srecv, ocount,
                                otype, root, MPI_COMM_WORLD));
    } else if (nonblocking) {
      MT_CHECK_MPI(MPI_Iscatter(blocks, bcount, btype, srecv, ocount, otype,
                                root, MPI_COMM_WORLD, &request));
    } else {
      MT_CHECK_MPI(MPI_Scatter(blocks, bcount, btype, srecv, ocount, otype,
                               root, MPI_COMM_WORLD));
    }
    MT_CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    if (is_root) {
      // At once: another member must not be reading this any more.
      memset(blocks, 0x5a, sizeof(int) * total * 2);
    }
    for (int i = 0; !in_place && i < counts[rank]; ++i) {
      const int got = own[strided_own ? (size_t)i * 2 : (size_t)i];
      MT_CHECK(got == value(rank, root, round + 1, i),
               "round %d (kind %d): scatter from %d, [%d] = %d, want %d", round,
               kind, root, i, got, value(rank, root, round + 1, i));
      if (strided_own) {
        MT_CHECK(own[(size_t)i * 2 + 1] == -1, "a strided scatter wrote a gap");
      }
    }
  }
  MT_CHECK_MPI(MPI_Type_free(&every_other_block));
  mt_free(own, use_alloc_mem);
  mt_free(heap_blocks, use_alloc_mem);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    printf("rooted_direct: ok\n");
  }
  MPI_Finalize();
  return 0;
}
