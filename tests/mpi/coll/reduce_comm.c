// SPDX-License-Identifier: MIT
// MPI 4.0 §6.9.1 MPI_REDUCE, §6.9.6 MPI_ALLREDUCE and §6.12.7/8 their
// nonblocking forms on any intracommunicator:
//  - every predefined operation on every predefined datatype it applies to
//    (§6.9.2), roots moving, MPI_IN_PLACE on some cases;
//  - a non-commutative user operation (§6.9.5: "the operation is assumed
//    to be associative ... the order of evaluation" must follow rank
//    order when commute is false), small and large counts, in place too;
//  - floating point: §6.9.1 advises that "the same result is obtained
//    whenever the function is applied on the same arguments, appearing in
//    the same order"; every rank must get bit-identical MPI_Allreduce
//    results (checked by gathering the bytes), close to the exact sum.
// args: world|split|rev  b|nb.
#include <math.h>

#include "mt_coll.h"
#include "mt_reduce.h"

static MtCollArgs args;
static MPI_Comm comm;
static int rank, size;

static void reduce(const void* sb, void* rb, int count, MPI_Datatype type,
                   MPI_Op op, int root) {
  MPI_Request req = MPI_REQUEST_NULL;
  if (args.nonblocking) {
    MT_CHECK_MPI(MPI_Ireduce(sb, rb, count, type, op, root, comm, &req));
  } else {
    MT_CHECK_MPI(MPI_Reduce(sb, rb, count, type, op, root, comm));
  }
  mt_coll_wait(&req);
}

static void allreduce(const void* sb, void* rb, int count, MPI_Datatype type,
                      MPI_Op op) {
  MPI_Request req = MPI_REQUEST_NULL;
  if (args.nonblocking) {
    MT_CHECK_MPI(MPI_Iallreduce(sb, rb, count, type, op, comm, &req));
  } else {
    MT_CHECK_MPI(MPI_Allreduce(sb, rb, count, type, op, comm));
  }
  mt_coll_wait(&req);
}

static void predefined_cases(void) {
  MtType types[kMtMaxTypes];
  const int type_count = mt_reduce_types(types);
  const long kMaxCount = 300;
  char* send = mt_malloc((size_t)kMaxCount * 32);
  char* recv = mt_malloc((size_t)kMaxCount * 32);
  int case_index = 0;
  for (int t = 0; t < type_count; ++t) {
    MtOp ops[kMtMaxOps];
    const int op_count = mt_reduce_ops(types[t].kind, ops);
    for (int o = 0; o < op_count; ++o, ++case_index) {
      const long count = case_index % 4 == 0 ? 1 : kMaxCount;
      const size_t len = (size_t)count * types[t].size;
      // Reduce (MPI_IN_PLACE at root 0 only: MPICH 4.0 crashes on other
      // in-place roots, see reduce_in_place.c).
      const int root = case_index % size;
      const int in_place = root == 0 && rank == 0 && case_index % 3 == 0;
      mt_reduce_fill(send, &types[t], ops[o].op, rank, size, count);
      memset(recv, 0x5A, len);
      reduce(in_place ? MPI_IN_PLACE : send, in_place ? send : recv, (int)count,
             types[t].type, ops[o].op, root);
      if (rank == root) {
        mt_reduce_check(in_place ? send : recv, &types[t], &ops[o], size, count,
                        in_place ? "reduce in place" : "reduce");
      }
      // Allreduce, in place on every other case.
      const int all_in_place = case_index % 2 == 0;
      mt_reduce_fill(send, &types[t], ops[o].op, rank, size, count);
      allreduce(all_in_place ? MPI_IN_PLACE : send, all_in_place ? send : recv,
                (int)count, types[t].type, ops[o].op);
      mt_reduce_check(all_in_place ? send : recv, &types[t], &ops[o], size,
                      count, all_in_place ? "allreduce in place" : "allreduce");
    }
  }
  free(recv);
  free(send);
}

static void user_op_cases(void) {
  MPI_Op op;
  MT_CHECK_MPI(MPI_Op_create(mt_affine_op, 0, &op));
  const long counts[] = {0, 1, 7, 1000, 70000};
  MtAffine* send = mt_malloc(70000 * sizeof(MtAffine));
  MtAffine* recv = mt_malloc(70000 * sizeof(MtAffine));
  for (int c = 0; c < 5; ++c) {
    const long count = counts[c];
    for (int root = 0; root < size; ++root) {
      if (count > 1000 && root != size / 2) {
        continue;
      }
      const int in_place = rank == root && root == 0 && c % 2 == 1;
      mt_affine_fill(send, count, rank);
      reduce(in_place ? MPI_IN_PLACE : send, in_place ? send : recv, (int)count,
             MPI_2INT, op, root);
      if (rank == root) {
        MT_AFFINE_CHECK(in_place ? send : recv, count, 0, size,
                        "reduce, non-commutative op");
      }
    }
    for (int in_place = 0; in_place < 2; ++in_place) {
      mt_affine_fill(send, count, rank);
      allreduce(in_place ? MPI_IN_PLACE : send, in_place ? send : recv,
                (int)count, MPI_2INT, op);
      MT_AFFINE_CHECK(in_place ? send : recv, count, 0, size,
                      "allreduce, non-commutative op");
    }
  }
  // A nonblocking reduction keeps the operation alive after MPI_Op_free.
  if (args.nonblocking) {
    MPI_Request req;
    mt_affine_fill(send, 1000, rank);
    MT_CHECK_MPI(MPI_Iallreduce(send, recv, 1000, MPI_2INT, op, comm, &req));
    MT_CHECK_MPI(MPI_Op_free(&op));
    MT_CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MT_AFFINE_CHECK(recv, 1000, 0, size, "iallreduce after MPI_Op_free");
  } else {
    MT_CHECK_MPI(MPI_Op_free(&op));
  }
  free(recv);
  free(send);
}

static void bitwise_identical(void) {
  enum { kCount = 4096 };
  double* send = mt_malloc(kCount * sizeof(double));
  double* result = mt_malloc(kCount * sizeof(double));
  double* all = mt_malloc((size_t)size * kCount * sizeof(double));
  for (int i = 0; i < kCount; ++i) {
    // Values whose sum depends on the order of the additions.
    send[i] = 1.0 / (double)(3 * rank + i + 1) * (rank % 2 ? 1e8 : 1e-3);
  }
  for (int in_place = 0; in_place < 2; ++in_place) {
    if (in_place) {
      memcpy(result, send, kCount * sizeof(double));
    }
    allreduce(in_place ? MPI_IN_PLACE : send, result, kCount, MPI_DOUBLE,
              MPI_SUM);
    MT_CHECK_MPI(MPI_Allgather(result, kCount, MPI_DOUBLE, all, kCount,
                               MPI_DOUBLE, comm));
    for (int r = 0; r < size; ++r) {
      MT_CHECK(memcmp(all + (size_t)r * kCount, result,
                      kCount * sizeof(double)) == 0,
               "allreduce of doubles: rank %d's result differs in its bits "
               "from rank %d's",
               r, rank);
    }
    for (int i = 0; i < kCount; ++i) {
      double exact = 0.0;
      for (int r = 0; r < size; ++r) {
        exact += 1.0 / (double)(3 * r + i + 1) * (r % 2 ? 1e8 : 1e-3);
      }
      MT_CHECK(fabs(result[i] - exact) <= 1e-12 * fabs(exact),
               "allreduce of doubles: element %d is %.17g, expected %.17g", i,
               result[i], exact);
    }
  }
  free(all);
  free(result);
  free(send);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  args = mt_coll_args(argc, argv);
  comm = mt_coll_comm(args.comm_kind);
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  predefined_cases();
  user_op_cases();
  bitwise_identical();
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
