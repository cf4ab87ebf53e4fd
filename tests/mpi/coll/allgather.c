// SPDX-License-Identifier: MIT
// MPI 4.0 §6.7 MPI_ALLGATHER / MPI_ALLGATHERV and §6.12.5 their
// nonblocking forms: "the block of data sent from the jth process is
// received by every process and placed in the jth block of the buffer
// recvbuf". In place: "sendcount and sendtype are ignored. Then the input
// data of each process is assumed to be in the area where that process
// would receive its own contribution".
//
// args: world|split|rev  b|nb  [big]. Counts 0..4099 ints per rank (big:
// 128 Ki per rank); allgatherv with per-rank counts (some zero) at
// displacements in reverse rank order, gaps untouched; in place on every
// other case.
#include "mt_coll.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const MtCollArgs args = mt_coll_args(argc, argv);
  MPI_Comm comm = mt_coll_comm(args.comm_kind);
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const long counts[] = {0, 1, 3, 1000, 4099, 1L << 17};
  const int count_n = args.big ? 6 : 5;
  const long max_count = args.big ? (1L << 17) : 4099;
  int* send = mt_malloc((size_t)(max_count + size) * sizeof(int));
  const size_t recv_ints = (size_t)size * (size_t)(max_count + size + 1);
  int* recv = mt_malloc(recv_ints * sizeof(int) + MT_GUARD_LEN);
  int* rcounts = mt_malloc((size_t)size * sizeof(int));
  int* displs = mt_malloc((size_t)size * sizeof(int));
  int tag = 0;
  for (int c = 0; c < count_n; ++c) {
    const long count = counts[c];
    for (int in_place = 0; in_place < 2; ++in_place) {
      // ---- allgather ----
      ++tag;
      const size_t total = (size_t)size * (size_t)count;
      mt_fill_guard(recv, total * sizeof(int));
      mt_coll_fill(in_place ? recv + (size_t)rank * (size_t)count : send, count,
                   rank, -1, tag);
      MPI_Request req = MPI_REQUEST_NULL;
      const void* sb = in_place ? MPI_IN_PLACE : send;
      if (args.nonblocking) {
        MT_CHECK_MPI(MPI_Iallgather(sb, (int)count, MPI_INT, recv, (int)count,
                                    MPI_INT, comm, &req));
      } else {
        MT_CHECK_MPI(MPI_Allgather(sb, (int)count, MPI_INT, recv, (int)count,
                                   MPI_INT, comm));
      }
      mt_coll_wait(&req);
      for (int r = 0; r < size; ++r) {
        MT_COLL_CHECK(recv + (size_t)r * (size_t)count, count, r, -1, tag,
                      in_place ? "allgather in place" : "allgather");
      }
      MT_CHECK_GUARD(recv, total * sizeof(int), "allgather");
      // ---- allgatherv ----
      ++tag;
      int offset = 0;
      for (int r = size - 1; r >= 0; --r) {
        rcounts[r] = r % 3 == 1 ? 0 : (int)count + r;
        displs[r] = offset;
        offset += rcounts[r] + 1;
      }
      memset(recv, 0xEE, (size_t)offset * sizeof(int));
      mt_coll_fill(in_place ? recv + displs[rank] : send, rcounts[rank], rank,
                   -1, tag);
      if (args.nonblocking) {
        MT_CHECK_MPI(MPI_Iallgatherv(sb, rcounts[rank], MPI_INT, recv, rcounts,
                                     displs, MPI_INT, comm, &req));
      } else {
        MT_CHECK_MPI(MPI_Allgatherv(sb, rcounts[rank], MPI_INT, recv, rcounts,
                                    displs, MPI_INT, comm));
      }
      mt_coll_wait(&req);
      for (int r = 0; r < size; ++r) {
        MT_COLL_CHECK(recv + displs[r], rcounts[r], r, -1, tag,
                      in_place ? "allgatherv in place" : "allgatherv");
        const unsigned char* gap =
            (const unsigned char*)(recv + displs[r] + rcounts[r]);
        for (size_t b = 0; b < sizeof(int); ++b) {
          MT_CHECK(gap[b] == 0xEE, "allgatherv wrote into the gap after %d", r);
        }
      }
    }
  }
  // Even ranks give MPI_INT, odd ranks a contiguous type of two ints (the
  // same type signature): in blocking calls the first take shmpi's
  // one-round path for predefined types and the others the general one,
  // which must meet in the same round (8 bytes: the small lane; 4000
  // bytes: a bulk buffer).
  MPI_Datatype pair;
  MT_CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
  MT_CHECK_MPI(MPI_Type_commit(&pair));
  const long mixed[] = {2, 1000};
  for (int c = 0; c < 2; ++c) {
    const long count = mixed[c];
    ++tag;
    const size_t total = (size_t)size * (size_t)count;
    mt_fill_guard(recv, total * sizeof(int));
    mt_coll_fill(send, count, rank, -1, tag);
    const int odd = rank % 2;
    const int n = odd ? (int)count / 2 : (int)count;
    const MPI_Datatype type = odd ? pair : MPI_INT;
    MPI_Request req = MPI_REQUEST_NULL;
    if (args.nonblocking) {
      MT_CHECK_MPI(MPI_Iallgather(send, n, type, recv, n, type, comm, &req));
    } else {
      MT_CHECK_MPI(MPI_Allgather(send, n, type, recv, n, type, comm));
    }
    mt_coll_wait(&req);
    for (int r = 0; r < size; ++r) {
      MT_COLL_CHECK(recv + (size_t)r * (size_t)count, count, r, -1, tag,
                    "allgather, types by rank parity");
    }
    MT_CHECK_GUARD(recv, total * sizeof(int), "allgather, types by parity");
  }
  MT_CHECK_MPI(MPI_Type_free(&pair));
  free(displs);
  free(rcounts);
  free(recv);
  free(send);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
