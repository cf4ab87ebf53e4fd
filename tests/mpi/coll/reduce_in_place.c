// SPDX-License-Identifier: MIT
// MPI 4.0 §6.9.3: "The 'in place' option for intra-communicators is
// specified by passing the value MPI_IN_PLACE to the argument sendbuf at the
// root. In such a case, the input data is taken at the root from the receive
// buffer, where it will be replaced by the output data."
//
// MPI_Reduce with MPI_IN_PLACE at every root in turn, for a few types and
// operations, small and large counts. MPICH 4.0 and 4.1 crash when the root
// is not rank 0 (github.com/pmodels/mpich/issues/6540), so this case lives
// apart from reduce.c.
#include "mt_reduce.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MtType types[kMtMaxTypes];
  const int type_count = mt_reduce_types(types);
  const long kCounts[2] = {3, 5000};
  char* buf = mt_malloc(5000 * 32);
  for (int root = 0; root < size; ++root) {
    for (int t = 0; t < type_count; ++t) {
      if (types[t].type != MPI_INT && types[t].type != MPI_DOUBLE &&
          types[t].type != MPI_DOUBLE_INT) {
        continue;
      }
      MtOp ops[kMtMaxOps];
      MT_CHECK(mt_reduce_ops(types[t].kind, ops) > 0, "no operation");
      for (int c = 0; c < 2; ++c) {
        mt_reduce_fill(buf, &types[t], ops[0].op, rank, size, kCounts[c]);
        MPI_Reduce(rank == root ? MPI_IN_PLACE : buf, buf, (int)kCounts[c],
                   types[t].type, ops[0].op, root, MPI_COMM_WORLD);
        if (rank == root) {
          mt_reduce_check(buf, &types[t], &ops[0], size, kCounts[c],
                          "MPI_Reduce (in place)");
        }
      }
    }
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
