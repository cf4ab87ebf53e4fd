// SPDX-License-Identifier: MIT
// MPI 4.0 §6.9.6: MPI_ALLREDUCE: "the result is returned to all members of
// the group"; §6.9.2 defines the predefined operations per datatype group.
//
// Every predefined operation on every predefined datatype it applies to
// (MPI_SUM ... MPI_BXOR on the integer types, MPI_MAXLOC/MPI_MINLOC on the
// pair types, ...), with counts of 1 and 1000 and sometimes MPI_IN_PLACE;
// then one large MPI_INT sum. Every rank checks against the result it
// computes itself.
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
      const int in_place = case_index % 3 == 0;
      char* target = in_place ? send_buf : recv_buf;
      mt_reduce_fill(send_buf, &types[t], ops[o].op, rank, size, count);
      memset(recv_buf, 0x5A, (size_t)count * types[t].size);
      MPI_Allreduce(in_place ? MPI_IN_PLACE : send_buf, target, (int)count,
                    types[t].type, ops[o].op, MPI_COMM_WORLD);
      mt_reduce_check(target, &types[t], &ops[o], size, count,
                      in_place ? "MPI_Allreduce (in place)" : "MPI_Allreduce");
    }
  }
  free(recv_buf);
  free(send_buf);

  // A large sum, bigger than any single staging chunk.
  const long big = 1 << 18;
  int* in = mt_malloc(sizeof(int) * (size_t)big);
  int* out = mt_malloc(sizeof(int) * (size_t)big);
  for (long i = 0; i < big; ++i) {
    in[i] = (int)((rank + 1) * (i % 1000));
  }
  MPI_Allreduce(in, out, (int)big, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (long i = 0; i < big; ++i) {
    const int expected = (int)(size * (size + 1) / 2 * (i % 1000));
    MT_CHECK(out[i] == expected,
             "large MPI_SUM: element %ld is %d, expected "
             "%d",
             i, out[i], expected);
  }
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
