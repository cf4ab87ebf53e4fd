// SPDX-License-Identifier: MIT
// MPI 4.0 §6.6 MPI_SCATTER / MPI_SCATTERV and §6.12.4 their nonblocking
// forms: "the root sends a message with MPI_Send(sendbuf+i*sendcount*
// extent(sendtype), ...) to rank i"; SCATTERV with per-rank counts and
// displacements. "MPI_IN_PLACE as the value of recvbuf at the root ... root
// does not send data to itself".
//
// args: world|split|rev  b|nb  [big]. Every root, 0..4099 ints per rank
// (big: 256 Ki from the last root); scatterv with per-rank counts (some
// zero) taken from displacements in reverse rank order; in place at the
// root on some cases. Non-root ranks pass NULL send arguments.
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
  const size_t send_ints = (size_t)size * (size_t)(max_count + size + 1);
  int* send = mt_malloc(send_ints * sizeof(int));
  int* recv =
      mt_malloc((size_t)(max_count + size) * sizeof(int) + MT_GUARD_LEN);
  int* scounts = mt_malloc((size_t)size * sizeof(int));
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
      // ---- scatter ----
      ++tag;
      const int in_place = rank == root && tag % 2 == 0;
      if (rank == root) {
        for (int r = 0; r < size; ++r) {
          mt_coll_fill(send + (size_t)r * (size_t)count, count, root, r, tag);
        }
      }
      mt_fill_guard(recv, (size_t)count * sizeof(int));
      MPI_Request req = MPI_REQUEST_NULL;
      const void* sb = rank == root ? send : NULL;
      void* rb = in_place ? MPI_IN_PLACE : recv;
      if (args.nonblocking) {
        MT_CHECK_MPI(MPI_Iscatter(sb, (int)count, MPI_INT, rb, (int)count,
                                  MPI_INT, root, comm, &req));
      } else {
        MT_CHECK_MPI(MPI_Scatter(sb, (int)count, MPI_INT, rb, (int)count,
                                 MPI_INT, root, comm));
      }
      mt_coll_wait(&req);
      if (in_place) {
        // The root's own block stays where it was, untouched.
        for (int r = 0; r < size; ++r) {
          MT_COLL_CHECK(send + (size_t)r * (size_t)count, count, root, r, tag,
                        "scatter in place: root's send buffer");
        }
      } else {
        MT_COLL_CHECK(recv, count, root, rank, tag, "scatter");
        MT_CHECK_GUARD(recv, (size_t)count * sizeof(int), "scatter");
      }
      // ---- scatterv ----
      ++tag;
      const int v_in_place = rank == root && tag % 4 == 1;
      int offset = 0;
      for (int r = size - 1; r >= 0; --r) {
        scounts[r] = r % 3 == 1 ? 0 : (int)count + r;
        displs[r] = offset;
        offset += scounts[r] + 1;
      }
      if (rank == root) {
        for (int r = 0; r < size; ++r) {
          mt_coll_fill(send + displs[r], scounts[r], root, r, tag);
        }
      }
      const int mine = scounts[rank];
      mt_fill_guard(recv, (size_t)mine * sizeof(int));
      rb = v_in_place ? MPI_IN_PLACE : recv;
      const int* sc = rank == root ? scounts : NULL;
      const int* sd = rank == root ? displs : NULL;
      if (args.nonblocking) {
        MT_CHECK_MPI(MPI_Iscatterv(sb, sc, sd, MPI_INT, rb, mine, MPI_INT, root,
                                   comm, &req));
      } else {
        MT_CHECK_MPI(
            MPI_Scatterv(sb, sc, sd, MPI_INT, rb, mine, MPI_INT, root, comm));
      }
      mt_coll_wait(&req);
      if (!v_in_place) {
        MT_COLL_CHECK(recv, mine, root, rank, tag, "scatterv");
        MT_CHECK_GUARD(recv, (size_t)mine * sizeof(int), "scatterv");
      }
    }
  }
  free(displs);
  free(scounts);
  free(recv);
  free(send);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
