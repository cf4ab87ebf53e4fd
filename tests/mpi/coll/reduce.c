// SPDX-License-Identifier: MIT
// MPI 4.0 §6.9.1: MPI_REDUCE "combines the elements provided in the input
// buffer of each process in the group, using the operation op, and returns
// the combined value in the output buffer of the process with rank root".
//
// Every predefined operation on every predefined datatype it applies to,
// with the root moving from rank to rank, counts of 1 and 1000, and
// MPI_IN_PLACE on some cases where rank 0 is the root. The root checks the
// result it computes itself; the other ranks' receive buffers (NULL on some
// cases) must stay untouched.
#include "mt_reduce.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MtType types[kMtMaxTypes];
  const int type_count = mt_reduce_types(types);
  const long kMaxCount = 1000;
  char* send_buf = mt_malloc((size_t)kMaxCount * 32);
  char* recv_buf = mt_malloc((size_t)kMaxCount * 32);
  int case_index = 0;
  for (int t = 0; t < type_count; ++t) {
    MtOp ops[kMtMaxOps];
    const int op_count = mt_reduce_ops(types[t].kind, ops);
    for (int o = 0; o < op_count; ++o, ++case_index) {
      const long count = case_index % 5 == 0 ? 1 : kMaxCount;
      const int root = case_index % size;
      // In place at root 0 only here: see reduce_in_place.c.
      const int in_place = case_index % 3 == 0 && rank == root && root == 0;
      const size_t len = (size_t)count * types[t].size;
      mt_reduce_fill(send_buf, &types[t], ops[o].op, rank, size, count);
      memset(recv_buf, 0x5A, len);
      // Non-root ranks pass NULL on odd cases, as many programs do.
      const int null_recv = rank != root && case_index % 2 == 1;
      char* target = in_place ? send_buf : null_recv ? NULL : recv_buf;
      MPI_Reduce(in_place ? MPI_IN_PLACE : send_buf, target, (int)count,
                 types[t].type, ops[o].op, root, MPI_COMM_WORLD);
      if (rank == root) {
        mt_reduce_check(target, &types[t], &ops[o], size, count,
                        in_place ? "MPI_Reduce (in place)" : "MPI_Reduce");
      } else if (!null_recv) {
        for (size_t b = 0; b < len; ++b) {
          MT_CHECK(recv_buf[b] == 0x5A,
                   "MPI_Reduce %s %s wrote to the "
                   "receive buffer of non-root rank %d",
                   ops[o].name, types[t].name, rank);
        }
      }
    }
  }
  free(recv_buf);
  free(send_buf);
  MPI_Finalize();
  return 0;
}
