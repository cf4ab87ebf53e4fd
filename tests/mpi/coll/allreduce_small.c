// SPDX-License-Identifier: MIT
// MPI 4.0 §6.9.6: MPI_ALLREDUCE, for totals that fit a collective slot
// inline, which shmpi runs in one round straight through: every predefined
// operation on every predefined datatype whose elements fit, at every
// count that keeps the total within 64 bytes and at the counts on either
// side of the slot's room (48 bytes when every member has a core, 368 when
// they share cores), in place and not.
//
// Odd ranks describe their buffers with a contiguous derived datatype of
// one element instead of the predefined one (the same type signature), so
// members on the library's path for predefined types meet members on its
// general path in the same round. Each case runs on MPI_COMM_WORLD and on
// a duplicate, and once with a nonblocking barrier still pending before
// the blocking call. Every rank checks the result against the reduction it
// computes itself and, byte for byte, against rank 0's result.
//
// shmpi-only: MPI 4.0 defines the predefined operations on predefined
// datatypes only, so the derived type of the odd ranks is shmpi's leniency
// (MPICH refuses MPI_SUM on it with MPI_ERR_OP).
#include "mt_reduce.h"

enum {
  kEveryCountBytes = 64,  // every count up to this total
  kMostBytes = 400,       // totals tested, at most
};
// Totals at which the slot's room ends (coll/rounds.hpp, inline_bytes).
static const long kRooms[] = {48, 368};

// The datatype this rank passes for `count` elements of `t`: the
// predefined one on even ranks, a contiguous type of one element on odd
// ranks (freed by the caller when it is not t->type).
static MPI_Datatype rank_type(const MtType* t, int rank) {
  if (rank % 2 == 0) {
    return t->type;
  }
  MPI_Datatype derived;
  MPI_Type_contiguous(1, t->type, &derived);
  MPI_Type_commit(&derived);
  return derived;
}

static void check_same_everywhere(const void* result, size_t bytes,
                                  MPI_Comm comm, const char* what,
                                  const MtType* t, const MtOp* op, long count) {
  unsigned char from_root[kMostBytes];
  memcpy(from_root, result, bytes);
  MPI_Bcast(from_root, (int)bytes, MPI_BYTE, 0, comm);
  MT_CHECK(memcmp(from_root, result, bytes) == 0,
           "%s %s %s, count %ld: the result differs from rank 0's", what,
           op->name, t->name, count);
}

static void run_case(MPI_Comm comm, const MtType* t, const MtOp* op, long count,
                     int in_place, int with_pending) {
  const int rank = mt_rank();
  const int size = mt_size();
  unsigned char send[kMostBytes];
  unsigned char recv[kMostBytes];
  mt_reduce_fill(send, t, op->op, rank, size, count);
  memset(recv, 0x5A, sizeof recv);
  unsigned char* target = in_place ? send : recv;
  MPI_Datatype type = rank_type(t, rank);
  MPI_Request pending = MPI_REQUEST_NULL;
  if (with_pending) {
    MPI_Ibarrier(comm, &pending);
  }
  MT_CHECK(MPI_Allreduce(in_place ? MPI_IN_PLACE : send, target, (int)count,
                         type, op->op, comm) == MPI_SUCCESS,
           "MPI_Allreduce %s %s count %ld failed", op->name, t->name, count);
  if (with_pending) {
    MPI_Wait(&pending, MPI_STATUS_IGNORE);
  }
  const char* what = in_place ? "MPI_Allreduce (in place)" : "MPI_Allreduce";
  mt_reduce_check(target, t, op, size, count, what);
  check_same_everywhere(target, (size_t)count * t->size, comm, what, t, op,
                        count);
  if (type != t->type) {
    MPI_Type_free(&type);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MtType types[kMtMaxTypes];
  const int type_count = mt_reduce_types(types);
  int case_index = 0;
  for (int t = 0; t < type_count; ++t) {
    const long size = (long)types[t].size;
    if (size > kEveryCountBytes) {
      continue;
    }
    // Every count up to kEveryCountBytes, then the counts just below and
    // just above each room (ascending, none twice).
    long counts[kEveryCountBytes + 8];
    int n = 0;
    for (long count = 1; count * size <= kEveryCountBytes; ++count) {
      counts[n++] = count;
    }
    for (size_t r = 0; r < sizeof kRooms / sizeof kRooms[0]; ++r) {
      for (long count = kRooms[r] / size; count <= kRooms[r] / size + 1;
           ++count) {
        if (count > counts[n - 1] && count * size <= kMostBytes) {
          counts[n++] = count;
        }
      }
    }
    MtOp ops[kMtMaxOps];
    const int op_count = mt_reduce_ops(types[t].kind, ops);
    for (int o = 0; o < op_count; ++o) {
      for (int i = 0; i < n; ++i, ++case_index) {
        const int in_place = case_index % 2;
        run_case(MPI_COMM_WORLD, &types[t], &ops[o], counts[i], in_place, 0);
        run_case(dup, &types[t], &ops[o], counts[i], !in_place,
                 case_index % 7 == 0);
      }
    }
  }
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}
