// SPDX-License-Identifier: MIT
// MPI 4.0 §6.5 MPI_GATHER / MPI_GATHERV and §6.12.3 their nonblocking forms:
// "each process (root process included) sends the contents of its send
// buffer to the root process. The root process receives the messages and
// stores them in rank order"; GATHERV takes per-rank counts and
// displacements. "MPI_IN_PLACE as the value of sendbuf at the root ... the
// root's contribution is assumed to be already in the correct place".
//
// args: world|split|rev  b|nb  [big]. Every root, counts 0..4099 ints per
// rank (big: 256 Ki ints per rank from the last root); gatherv with counts
// that differ per rank (some zero) and displacements in reverse rank order
// with gaps that must stay untouched; in place at the root on some cases.
// Non-root ranks pass NULL receive arguments, which they may.
#include "mt_coll.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const MtCollArgs args = mt_coll_args(argc, argv);
  MPI_Comm comm = mt_coll_comm(args.comm_kind);
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const long counts[] = {0, 1, 3, 1000, 4099, 1L << 18};
  const int count_n = args.big ? 6 : 5;
  const long max_count = args.big ? (1L << 18) : 4099;
  int* send = mt_malloc((size_t)(max_count + size) * sizeof(int));
  // gatherv: rank r at most max_count + r, plus one-int gaps.
  const size_t recv_ints = (size_t)size * (size_t)(max_count + size + 1);
  int* recv = mt_malloc(recv_ints * sizeof(int));
  int* rcounts = mt_malloc((size_t)size * sizeof(int));
  int* displs = mt_malloc((size_t)size * sizeof(int));
  int tag = 0;
  for (int c = 0; c < count_n; ++c) {
    const long count = counts[c];
    for (int root = 0; root < size; ++root) {
      if (!mt_coll_root_used(root, size)) {
        continue;
      }
      if (count > 4099 && root != size - 1) {
        continue;
      }
      // ---- gather ----
      ++tag;
      const int in_place = rank == root && (tag % 2 == 0);
      mt_coll_fill(send, count, rank, root, tag);
      if (rank == root) {
        memset(recv, 0xEE, (size_t)size * (size_t)count * sizeof(int));
        if (in_place) {
          mt_coll_fill(recv + (size_t)rank * (size_t)count, count, rank, root,
                       tag);
        }
      }
      MPI_Request req = MPI_REQUEST_NULL;
      const void* sb = in_place ? MPI_IN_PLACE : send;
      void* rb = rank == root ? recv : NULL;
      if (args.nonblocking) {
        MT_CHECK_MPI(MPI_Igather(sb, (int)count, MPI_INT, rb, (int)count,
                                 MPI_INT, root, comm, &req));
      } else {
        MT_CHECK_MPI(MPI_Gather(sb, (int)count, MPI_INT, rb, (int)count,
                                MPI_INT, root, comm));
      }
      mt_coll_wait(&req);
      if (rank == root) {
        for (int r = 0; r < size; ++r) {
          MT_COLL_CHECK(recv + (size_t)r * (size_t)count, count, r, root, tag,
                        in_place ? "gather in place" : "gather");
        }
      }
      // ---- gatherv: rank r sends count + r ints (none when r % 3 == 1),
      // placed in reverse rank order with a one-int gap after each ----
      ++tag;
      const int v_in_place = rank == root && (tag % 4 == 1);
      int offset = 0;
      for (int r = size - 1; r >= 0; --r) {
        rcounts[r] = r % 3 == 1 ? 0 : (int)count + r;
        displs[r] = offset;
        offset += rcounts[r] + 1;
      }
      const int mine = rcounts[rank];
      mt_coll_fill(send, mine, rank, root, tag);
      if (rank == root) {
        memset(recv, 0xEE, (size_t)offset * sizeof(int));
        if (v_in_place) {
          mt_coll_fill(recv + displs[rank], mine, rank, root, tag);
        }
      }
      sb = v_in_place ? MPI_IN_PLACE : send;
      if (args.nonblocking) {
        MT_CHECK_MPI(MPI_Igatherv(
            sb, mine, MPI_INT, rb, rank == root ? rcounts : NULL,
            rank == root ? displs : NULL, MPI_INT, root, comm, &req));
      } else {
        MT_CHECK_MPI(
            MPI_Gatherv(sb, mine, MPI_INT, rb, rank == root ? rcounts : NULL,
                        rank == root ? displs : NULL, MPI_INT, root, comm));
      }
      mt_coll_wait(&req);
      if (rank == root) {
        for (int r = 0; r < size; ++r) {
          MT_COLL_CHECK(recv + displs[r], rcounts[r], r, root, tag,
                        v_in_place ? "gatherv in place" : "gatherv");
          const unsigned char* gap =
              (const unsigned char*)(recv + displs[r] + rcounts[r]);
          for (size_t b = 0; b < sizeof(int); ++b) {
            MT_CHECK(gap[b] == 0xEE, "gatherv wrote into the gap after rank %d",
                     r);
          }
        }
      }
    }
  }
  free(displs);
  free(rcounts);
  free(recv);
  free(send);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
