// SPDX-License-Identifier: MIT
// MPI 4.0 §6.8 MPI_ALLTOALL / ALLTOALLV / ALLTOALLW and §6.12.6 their
// nonblocking forms: "the jth block sent from process i is received by
// process j and is placed in the ith block of recvbuf"; V and W take
// per-peer counts and displacements (W: byte displacements and per-peer
// datatypes). In place: "the data to be sent is taken from the recvbuf and
// replaced by the received data".
//
// args: world|split|rev  b|nb  [big]. Counts 0..5462 ints per pair (big:
// 64 Ki per pair too); alltoallv with counts depending on both ranks (some
// zero) at displacements in reverse order with gaps; alltoallw with the
// same layout in byte displacements (MPI_INT for every peer); in place on
// every other case.
#include "mt_coll.h"

// Ints rank `from` sends to rank `to`. In place, the counts must be
// symmetric: each pair exchanges equal amounts (the send layout is the
// receive layout).
static int pair_count(long count, int from, int to, int in_place) {
  if (in_place) {
    return (from + to) % 4 == 3 ? 0 : (int)count + from + to;
  }
  return (from + 2 * to) % 4 == 3 ? 0 : (int)count + from + 2 * to;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const MtCollArgs args = mt_coll_args(argc, argv);
  MPI_Comm comm = mt_coll_comm(args.comm_kind);
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // 5461 and 5462 ints straddle one round's piece at 4 ranks (64 KiB / 3:
  // 21845 bytes), so the blocking MPI_Alltoall takes its one-round path
  // for the first and the rounds of alltoallv for the second.
  const long counts[] = {0, 1, 3, 1000, 5461, 5462, 1L << 16};
  const int count_n = args.big ? 7 : 6;
  const long max_count = args.big ? (1L << 16) : 5462;
  const size_t ints = (size_t)size * (size_t)(max_count + 3 * size + 1);
  int* send = mt_malloc(ints * sizeof(int));
  int* recv = mt_malloc(ints * sizeof(int) + MT_GUARD_LEN);
  int* scounts = mt_malloc((size_t)size * sizeof(int));
  int* sdispls = mt_malloc((size_t)size * sizeof(int));
  int* rcounts = mt_malloc((size_t)size * sizeof(int));
  int* rdispls = mt_malloc((size_t)size * sizeof(int));
  MPI_Datatype* types = mt_malloc((size_t)size * sizeof(MPI_Datatype));
  for (int r = 0; r < size; ++r) {
    types[r] = MPI_INT;
  }
  int tag = 0;
  for (int c = 0; c < count_n; ++c) {
    const long count = counts[c];
    for (int in_place = 0; in_place < 2; ++in_place) {
      // ---- alltoall ----
      ++tag;
      const size_t total = (size_t)size * (size_t)count;
      mt_fill_guard(recv, total * sizeof(int));
      int* src = in_place ? recv : send;
      for (int r = 0; r < size; ++r) {
        mt_coll_fill(src + (size_t)r * (size_t)count, count, rank, r, tag);
      }
      MPI_Request req = MPI_REQUEST_NULL;
      const void* sb = in_place ? MPI_IN_PLACE : send;
      if (args.nonblocking) {
        MT_CHECK_MPI(MPI_Ialltoall(sb, (int)count, MPI_INT, recv, (int)count,
                                   MPI_INT, comm, &req));
      } else {
        MT_CHECK_MPI(MPI_Alltoall(sb, (int)count, MPI_INT, recv, (int)count,
                                  MPI_INT, comm));
      }
      mt_coll_wait(&req);
      for (int r = 0; r < size; ++r) {
        MT_COLL_CHECK(recv + (size_t)r * (size_t)count, count, r, rank, tag,
                      in_place ? "alltoall in place" : "alltoall");
      }
      MT_CHECK_GUARD(recv, total * sizeof(int), "alltoall");
      // ---- alltoallv and alltoallw: same layout, W in bytes ----
      for (int w = 0; w < 2; ++w) {
        ++tag;
        int soff = 0;
        int roff = 0;
        for (int r = size - 1; r >= 0; --r) {
          scounts[r] = pair_count(count, rank, r, in_place);
          rcounts[r] = pair_count(count, r, rank, in_place);
          sdispls[r] = soff;
          rdispls[r] = roff;
          soff += scounts[r] + 1;
          roff += rcounts[r] + 1;
        }
        if (in_place) {
          // In place, the send layout is the receive layout (MPI 4.0:
          // "sendcounts, sdispls and sendtype are ignored").
          memcpy(scounts, rcounts, (size_t)size * sizeof(int));
          memcpy(sdispls, rdispls, (size_t)size * sizeof(int));
        }
        memset(recv, 0xEE, (size_t)roff * sizeof(int));
        src = in_place ? recv : send;
        for (int r = 0; r < size; ++r) {
          mt_coll_fill(src + sdispls[r], scounts[r], rank, r, tag);
        }
        if (w == 0) {
          if (args.nonblocking) {
            MT_CHECK_MPI(MPI_Ialltoallv(sb, scounts, sdispls, MPI_INT, recv,
                                        rcounts, rdispls, MPI_INT, comm, &req));
          } else {
            MT_CHECK_MPI(MPI_Alltoallv(sb, scounts, sdispls, MPI_INT, recv,
                                       rcounts, rdispls, MPI_INT, comm));
          }
        } else {
          int* sbytes = mt_malloc((size_t)size * sizeof(int));
          int* rbytes = mt_malloc((size_t)size * sizeof(int));
          for (int r = 0; r < size; ++r) {
            sbytes[r] = sdispls[r] * (int)sizeof(int);
            rbytes[r] = rdispls[r] * (int)sizeof(int);
          }
          if (args.nonblocking) {
            MT_CHECK_MPI(MPI_Ialltoallw(sb, scounts, sbytes, types, recv,
                                        rcounts, rbytes, types, comm, &req));
          } else {
            MT_CHECK_MPI(MPI_Alltoallw(sb, scounts, sbytes, types, recv,
                                       rcounts, rbytes, types, comm));
          }
          mt_coll_wait(&req);
          free(rbytes);
          free(sbytes);
        }
        mt_coll_wait(&req);
        const char* what =
            w == 0 ? (in_place ? "alltoallv in place" : "alltoallv")
                   : (in_place ? "alltoallw in place" : "alltoallw");
        for (int r = 0; r < size; ++r) {
          MT_COLL_CHECK(recv + rdispls[r], rcounts[r], r, rank, tag, what);
          const unsigned char* gap =
              (const unsigned char*)(recv + rdispls[r] + rcounts[r]);
          for (size_t b = 0; b < sizeof(int); ++b) {
            MT_CHECK(gap[b] == 0xEE, "%s wrote into the gap after %d", what, r);
          }
        }
      }
    }
  }
  // Zero counts may come with null buffers (the blocking one-round path
  // must not hand them to memcpy: UBSan checks it in the sanitizer run).
  MT_CHECK_MPI(MPI_Alltoall(NULL, 0, MPI_INT, NULL, 0, MPI_INT, comm));
  MT_CHECK_MPI(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INT, NULL, 0, MPI_INT, comm));
  free(types);
  free(rdispls);
  free(rcounts);
  free(sdispls);
  free(scounts);
  free(recv);
  free(send);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
