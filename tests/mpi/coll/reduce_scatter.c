// SPDX-License-Identifier: MIT
// MPI 4.0 §6.10 MPI_REDUCE_SCATTER_BLOCK / MPI_REDUCE_SCATTER and §6.12.9/10
// their nonblocking forms: an element-wise reduction of the send buffers,
// whose block i (recvcount elements each, or recvcounts[i]) goes to rank i.
// MPI_IN_PLACE: "the input data is taken from the receive buffer", which
// then holds the whole vector. A non-commutative operation combines in
// rank order.
//
// args: world|split|rev  b|nb. MPI_LONG_LONG sums and the non-commutative
// affine op, block sizes 0..1000 (reduce_scatter: per-rank counts, some
// zero), in place on every other case.
#include "mt_coll.h"

static MtCollArgs args;
static MPI_Comm comm;
static int rank, size;

static void reduce_scatter(int block, const void* sb, void* rb,
                           const int* counts, MPI_Datatype type, MPI_Op op) {
  MPI_Request req = MPI_REQUEST_NULL;
  if (block && args.nonblocking) {
    MT_CHECK_MPI(
        MPI_Ireduce_scatter_block(sb, rb, counts[0], type, op, comm, &req));
  } else if (block) {
    MT_CHECK_MPI(MPI_Reduce_scatter_block(sb, rb, counts[0], type, op, comm));
  } else if (args.nonblocking) {
    MT_CHECK_MPI(MPI_Ireduce_scatter(sb, rb, counts, type, op, comm, &req));
  } else {
    MT_CHECK_MPI(MPI_Reduce_scatter(sb, rb, counts, type, op, comm));
  }
  mt_coll_wait(&req);
}

static long long sum_value(int r, long i) {
  return (long long)mt_coll_value(r, -1, i, 5) - (1 << 29);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  args = mt_coll_args(argc, argv);
  comm = mt_coll_comm(args.comm_kind);
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Op affine;
  MT_CHECK_MPI(MPI_Op_create(mt_affine_op, 0, &affine));
  int* counts = mt_malloc((size_t)size * sizeof(int));
  const long blocks[] = {0, 1, 3, 1000};
  const size_t max_total = (size_t)size * (1000 + (size_t)size);
  long long* lsend = mt_malloc(max_total * sizeof(long long));
  long long* lrecv = mt_malloc(max_total * sizeof(long long));
  MtAffine* asend = mt_malloc(max_total * sizeof(MtAffine));
  MtAffine* arecv = mt_malloc(max_total * sizeof(MtAffine));
  for (int b = 0; b < 4; ++b) {
    for (int block = 0; block < 2; ++block) {
      for (int in_place = 0; in_place < 2; ++in_place) {
        long total = 0;
        long mine_at = 0;
        for (int r = 0; r < size; ++r) {
          counts[r] =
              block ? (int)blocks[b] : (r % 3 == 2 ? 0 : (int)blocks[b] + r);
          if (r == rank) {
            mine_at = total;
          }
          total += counts[r];
        }
        const int mine = counts[rank];
        const char* what =
            block ? (in_place ? "reduce_scatter_block in place"
                              : "reduce_scatter_block")
                  : (in_place ? "reduce_scatter in place" : "reduce_scatter");
        // MPI_LONG_LONG sum.
        for (long i = 0; i < total; ++i) {
          (in_place ? lrecv : lsend)[i] = sum_value(rank, i);
        }
        reduce_scatter(block, in_place ? MPI_IN_PLACE : lsend, lrecv, counts,
                       MPI_LONG_LONG, MPI_SUM);
        for (long i = 0; i < mine; ++i) {
          long long want = 0;
          for (int r = 0; r < size; ++r) {
            want += sum_value(r, mine_at + i);
          }
          MT_CHECK(lrecv[i] == want,
                   "%s MPI_SUM: element %ld is %lld, want %lld", what, i,
                   lrecv[i], want);
        }
        // Non-commutative affine op: element j of the whole vector is
        // mt_affine_value(rank, j).
        mt_affine_fill(in_place ? arecv : asend, total, rank);
        reduce_scatter(block, in_place ? MPI_IN_PLACE : asend, arecv, counts,
                       MPI_2INT, affine);
        for (long i = 0; i < mine; ++i) {
          const MtAffine want = mt_affine_fold(0, size, mine_at + i);
          MT_CHECK(arecv[i].a == want.a && arecv[i].b == want.b,
                   "%s, non-commutative op: element %ld is (%d, %d), expected "
                   "(%d, %d)",
                   what, i, arecv[i].a, arecv[i].b, want.a, want.b);
        }
      }
    }
  }
  MT_CHECK_MPI(MPI_Op_free(&affine));
  free(arecv);
  free(asend);
  free(lrecv);
  free(lsend);
  free(counts);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
