// SPDX-License-Identifier: MIT
// MPI_Allreduce and MPI_Iallreduce of 32 KiB and more. In shmpi, when every
// member's send and receive buffers live in the shared heap (any malloc'd
// block of 64 KiB or more), each member folds its part straight from the
// others' send buffers and then copies the other parts straight from their
// receive buffers (src/coll/intra.cpp, allreduce's direct path); otherwise
// every member takes the rounds through the scratch block. The members must
// all choose alike, fold in rank order (MPI 4.0 §6.9.5: a non-commutative
// operation is applied in rank order), and none may return while another
// still reads its buffers.
//
// Rounds alternate between: all buffers malloc'd (direct); rank 1 receiving
// into static storage (nobody goes direct); MPI_IN_PLACE everywhere (the
// same). The operation multiplies 2x2 matrices of unsigned ints (mod 2^32):
// associative, not commutative. Every member overwrites its buffers as soon
// as each call returns.
#include "mpitest.h"

// The buffers that may be read in place come from malloc, or with the
// argument "alloc_mem" from MPI_Alloc_mem (the shared heap in every shmpi
// build, sanitizer builds included, whose allocator is their own).
static int use_alloc_mem;

enum { kUnits = 4099, kRounds = 9 };  // 4099 * 16 bytes: 64 KiB and more
static unsigned outside_heap[kUnits * 4];

static void matmul(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned r[4];
  r[0] = a[0] * b[0] + a[1] * b[2];
  r[1] = a[0] * b[1] + a[1] * b[3];
  r[2] = a[2] * b[0] + a[3] * b[2];
  r[3] = a[2] * b[1] + a[3] * b[3];
  memcpy(out, r, sizeof r);
}

// inout = in x inout: `in` comes from the lower rank.
static void matmul_op(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const unsigned* a = in;
  unsigned* b = inout;
  for (int k = 0; k < *len; ++k) {
    matmul(a + 4 * k, b + 4 * k, b + 4 * k);
  }
}

static void matrix_of(int rank, int round, int unit, unsigned* m) {
  const unsigned s = (unsigned)(rank * 7919 + round * 104729 + unit * 31);
  m[0] = s | 1u;
  m[1] = s * 3u + 2u;
  m[2] = s * 5u + 7u;
  m[3] = (s ^ 0x9e3779b9u) | 1u;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  use_alloc_mem = argc > 1 && strcmp(argv[1], "alloc_mem") == 0;
  const int rank = mt_rank();
  const int size = mt_size();
  MPI_Datatype matrix;
  MPI_Op op;
  MT_CHECK_MPI(MPI_Type_contiguous(4, MPI_UNSIGNED, &matrix));
  MT_CHECK_MPI(MPI_Type_commit(&matrix));
  MT_CHECK_MPI(MPI_Op_create(matmul_op, 0, &op));
  unsigned* send = mt_alloc(sizeof(unsigned) * 4 * kUnits, use_alloc_mem);
  unsigned* heap_recv = mt_alloc(sizeof(unsigned) * 4 * kUnits, use_alloc_mem);
  for (int round = 0; round < kRounds; ++round) {
    const int kind = round % 3;  // 0 all heap, 1 rank 1 static, 2 in place
    unsigned* recv = kind == 1 && rank == 1 ? outside_heap : heap_recv;
    unsigned* mine = kind == 2 ? recv : send;
    for (int u = 0; u < kUnits; ++u) {
      matrix_of(rank, round, u, mine + 4 * u);
    }
    const void* sbuf = kind == 2 ? MPI_IN_PLACE : (const void*)send;
    if (round % 2 == 0) {
      MT_CHECK_MPI(
          MPI_Allreduce(sbuf, recv, kUnits, matrix, op, MPI_COMM_WORLD));
    } else {
      MPI_Request request;
      MT_CHECK_MPI(MPI_Iallreduce(sbuf, recv, kUnits, matrix, op,
                                  MPI_COMM_WORLD, &request));
      MT_CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    }
    unsigned result[4 * kUnits];
    memcpy(result, recv, sizeof result);
    // At once: another member must not be reading these any more.
    memset(send, 0x5a, sizeof(unsigned) * 4 * kUnits);
    memset(recv, 0xa5, sizeof(unsigned) * 4 * kUnits);
    for (int u = 0; u < kUnits; ++u) {
      unsigned want[4];
      unsigned next[4];
      matrix_of(0, round, u, want);
      for (int r = 1; r < size; ++r) {
        matrix_of(r, round, u, next);
        matmul(want, next, want);
      }
      MT_CHECK(memcmp(want, result + 4 * u, sizeof want) == 0,
               "round %d (kind %d): unit %d is {%u %u %u %u}, want {%u %u %u "
               "%u}",
               round, kind, u, result[4 * u], result[4 * u + 1],
               result[4 * u + 2], result[4 * u + 3], want[0], want[1], want[2],
               want[3]);
    }
  }
  mt_free(heap_recv, use_alloc_mem);
  mt_free(send, use_alloc_mem);
  MT_CHECK_MPI(MPI_Op_free(&op));
  MT_CHECK_MPI(MPI_Type_free(&matrix));
  MPI_Finalize();
  return 0;
}
