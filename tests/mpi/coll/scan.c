// SPDX-License-Identifier: MIT
// MPI 4.0 §6.11 MPI_SCAN / MPI_EXSCAN and §6.12.12/13 their nonblocking
// forms: SCAN "returns, in the receive buffer of the process with rank i,
// the reduction of the values in the send buffers of processes with ranks
// 0,...,i (inclusive)"; EXSCAN those of ranks 0,...,i-1, and "the value in
// recvbuf on the process with rank 0 is undefined". Both accept
// MPI_IN_PLACE. For a non-commutative user operation the order is rank
// order.
//
// args: world|split|rev  b|nb. Every predefined op/type pair (counts 1, 200
// and 3000: from 8 KiB on, scans of three or more members go along a
// chain), then the non-commutative affine op at counts 0..70000, in place
// on every other case.
#include "mt_coll.h"
#include "mt_reduce.h"

static MtCollArgs args;
static MPI_Comm comm;
static int rank, size;

static void scan(int exclusive, const void* sb, void* rb, int count,
                 MPI_Datatype type, MPI_Op op) {
  MPI_Request req = MPI_REQUEST_NULL;
  if (exclusive && args.nonblocking) {
    MT_CHECK_MPI(MPI_Iexscan(sb, rb, count, type, op, comm, &req));
  } else if (exclusive) {
    MT_CHECK_MPI(MPI_Exscan(sb, rb, count, type, op, comm));
  } else if (args.nonblocking) {
    MT_CHECK_MPI(MPI_Iscan(sb, rb, count, type, op, comm, &req));
  } else {
    MT_CHECK_MPI(MPI_Scan(sb, rb, count, type, op, comm));
  }
  mt_coll_wait(&req);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  args = mt_coll_args(argc, argv);
  comm = mt_coll_comm(args.comm_kind);
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);

  MtType types[kMtMaxTypes];
  const int type_count = mt_reduce_types(types);
  char* send = mt_malloc(3000 * 32);
  char* recv = mt_malloc(3000 * 32);
  int case_index = 0;
  for (int t = 0; t < type_count; ++t) {
    MtOp ops[kMtMaxOps];
    const int op_count = mt_reduce_ops(types[t].kind, ops);
    for (int o = 0; o < op_count; ++o, ++case_index) {
      const long count = case_index % 3 == 0   ? 1
                         : case_index % 3 == 1 ? 200
                                               : 3000;
      for (int exclusive = 0; exclusive < 2; ++exclusive) {
        const int in_place = (case_index + exclusive) % 2 == 0;
        mt_reduce_fill(send, &types[t], ops[o].op, rank, size, count);
        if (in_place) {
          memcpy(recv, send, (size_t)count * types[t].size);
        }
        scan(exclusive, in_place ? MPI_IN_PLACE : send, recv, (int)count,
             types[t].type, ops[o].op);
        const char* what = exclusive ? (in_place ? "exscan in place" : "exscan")
                                     : (in_place ? "scan in place" : "scan");
        if (!exclusive || rank > 0) {
          mt_reduce_check_ranks(recv, &types[t], &ops[o], size,
                                exclusive ? rank : rank + 1, count, what);
        }
      }
    }
  }
  free(recv);
  free(send);

  MPI_Op op;
  MT_CHECK_MPI(MPI_Op_create(mt_affine_op, 0, &op));
  const long counts[] = {0, 1, 7, 1000, 70000};
  MtAffine* asend = mt_malloc(70000 * sizeof(MtAffine));
  MtAffine* arecv = mt_malloc(70000 * sizeof(MtAffine));
  for (int c = 0; c < 5; ++c) {
    for (int exclusive = 0; exclusive < 2; ++exclusive) {
      for (int in_place = 0; in_place < 2; ++in_place) {
        const long count = counts[c];
        mt_affine_fill(asend, count, rank);
        if (in_place) {
          memcpy(arecv, asend, (size_t)count * sizeof(MtAffine));
        }
        scan(exclusive, in_place ? MPI_IN_PLACE : asend, arecv, (int)count,
             MPI_2INT, op);
        if (!exclusive || rank > 0) {
          MT_AFFINE_CHECK(arecv, count, 0, exclusive ? rank : rank + 1,
                          exclusive ? "exscan, non-commutative op"
                                    : "scan, non-commutative op");
        }
      }
    }
  }
  MT_CHECK_MPI(MPI_Op_free(&op));
  free(arecv);
  free(asend);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
