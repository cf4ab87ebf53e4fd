// SPDX-License-Identifier: MIT
// MPI 4.0 §6.9.7: MPI_REDUCE_LOCAL "combines the elements provided in the
// input and input/output buffers of the local process, using the operation
// op, and returns the combined value in the inout/output buffer".
//
// Every predefined operation on every predefined datatype it applies to:
// folding the contributions of `size` pretend ranks one by one, from the
// last to the first (inout = in op inout), must give what a reduction over
// them gives. Counts 0, 1 and 1000.
#include "mt_reduce.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MtType types[kMtMaxTypes];
  const int type_count = mt_reduce_types(types);
  const long kMaxCount = 1000;
  const int kRanks = 5;
  char* in = mt_malloc((size_t)kMaxCount * 32);
  char* acc = mt_malloc((size_t)kMaxCount * 32);
  for (int t = 0; t < type_count; ++t) {
    MtOp ops[kMtMaxOps];
    const int op_count = mt_reduce_ops(types[t].kind, ops);
    for (int o = 0; o < op_count; ++o) {
      const long counts[] = {0, 1, kMaxCount};
      for (int c = 0; c < 3; ++c) {
        const long count = counts[c];
        mt_reduce_fill(acc, &types[t], ops[o].op, kRanks - 1, kRanks, count);
        for (int r = kRanks - 2; r >= 0; --r) {
          mt_reduce_fill(in, &types[t], ops[o].op, r, kRanks, count);
          MT_CHECK_MPI(
              MPI_Reduce_local(in, acc, (int)count, types[t].type, ops[o].op));
        }
        mt_reduce_check(acc, &types[t], &ops[o], kRanks, count,
                        "MPI_Reduce_local");
      }
    }
  }
  free(acc);
  free(in);
  MPI_Finalize();
  return 0;
}
