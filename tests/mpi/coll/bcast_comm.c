// SPDX-License-Identifier: MIT
// MPI 4.0 §6.4 MPI_BCAST / §6.12.2 MPI_IBCAST: after the call "the content
// of root's buffer is copied to all other processes".
//
// args: world|split|rev  b|nb  [big]. Every root broadcasts ints of sizes
// from 0 to 16 KiB (with big, 4 MiB from the last root), back to back;
// receive buffers carry a guard that must stay untouched.
#include "mt_coll.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const MtCollArgs args = mt_coll_args(argc, argv);
  MPI_Comm comm = mt_coll_comm(args.comm_kind);
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  long counts[] = {0, 1, 3, 1000, 4099, 1L << 20};
  const int count_n = args.big ? 6 : 5;
  int* buf = mt_malloc((size_t)(1L << 20) * sizeof(int) + MT_GUARD_LEN);
  int tag = 0;
  for (int c = 0; c < count_n; ++c) {
    const long count = counts[c];
    for (int root = 0; root < size; ++root, ++tag) {
      if (!mt_coll_root_used(root, size)) {
        continue;
      }
      if (count > 4099 && root != size - 1) {
        continue;  // big sizes from one root only: runtime
      }
      if (rank == root) {
        mt_coll_fill(buf, count, root, -1, tag);
      } else {
        mt_fill_guard(buf, (size_t)count * sizeof(int));
      }
      MPI_Request req = MPI_REQUEST_NULL;
      if (args.nonblocking) {
        MT_CHECK_MPI(MPI_Ibcast(buf, (int)count, MPI_INT, root, comm, &req));
      } else {
        MT_CHECK_MPI(MPI_Bcast(buf, (int)count, MPI_INT, root, comm));
      }
      mt_coll_wait(&req);
      MT_COLL_CHECK(buf, count, root, -1, tag, "bcast");
      if (rank != root) {
        MT_CHECK_GUARD(buf, (size_t)count * sizeof(int), "bcast");
      }
    }
  }
  // Bytes and doubles, so a type's size is not taken for an int's.
  double d[17];
  for (int root = 0; root < size; ++root) {
    if (!mt_coll_root_used(root, size)) {
      continue;
    }
    for (int i = 0; i < 17; ++i) {
      d[i] = rank == root ? 0.5 * i + root : -1.0;
    }
    MPI_Request req = MPI_REQUEST_NULL;
    if (args.nonblocking) {
      MT_CHECK_MPI(MPI_Ibcast(d, 17, MPI_DOUBLE, root, comm, &req));
    } else {
      MT_CHECK_MPI(MPI_Bcast(d, 17, MPI_DOUBLE, root, comm));
    }
    mt_coll_wait(&req);
    for (int i = 0; i < 17; ++i) {
      MT_CHECK(d[i] == 0.5 * i + root, "double %d from root %d is %g", i, root,
               d[i]);
    }
  }
  free(buf);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
