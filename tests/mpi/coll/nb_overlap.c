// SPDX-License-Identifier: MIT
// MPI 4.0 §6.12: several nonblocking collectives may be outstanding on one
// communicator ("all processes must call collective operations in the same
// order"), they complete in any order the program waits for them, and
// point-to-point traffic on the same communicator does not interfere.
//
// Each round starts an ibarrier, an ibcast, an iallreduce, an iallgather, an
// ialltoall, an iscan and an isend/irecv ring on one communicator, then
// completes them with MPI_Waitall in a rank-dependent order (reversed on
// odd ranks), and checks every result.
#include "mt_coll.h"

enum { kCount = 300, kRounds = 4, kMaxRanks = 16 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const MtCollArgs args = mt_coll_args(argc, argv);
  MPI_Comm comm = mt_coll_comm(args.comm_kind);
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MT_CHECK(size <= kMaxRanks, "too many ranks");
  static int bc[kCount], ar_in[kCount], ar_out[kCount];
  static int ag_in[kCount], ag_out[kCount * kMaxRanks];
  static int aa_in[kCount * kMaxRanks], aa_out[kCount * kMaxRanks];
  static int p_in[kCount], p_out[kCount];
  long long sc_in, sc_out;
  for (int round = 0; round < kRounds; ++round) {
    const int root = round % size;
    MPI_Request req[8];
    int n = 0;
    MT_CHECK_MPI(MPI_Ibarrier(comm, &req[n++]));
    if (rank == root) {
      mt_coll_fill(bc, kCount, root, -1, round);
    }
    MT_CHECK_MPI(MPI_Ibcast(bc, kCount, MPI_INT, root, comm, &req[n++]));
    for (int i = 0; i < kCount; ++i) {
      ar_in[i] = rank * 1000 + i + round;
    }
    MT_CHECK_MPI(MPI_Iallreduce(ar_in, ar_out, kCount, MPI_INT, MPI_SUM, comm,
                                &req[n++]));
    mt_coll_fill(ag_in, kCount, rank, -1, 100 + round);
    MT_CHECK_MPI(MPI_Iallgather(ag_in, kCount, MPI_INT, ag_out, kCount, MPI_INT,
                                comm, &req[n++]));
    for (int r = 0; r < size; ++r) {
      mt_coll_fill(aa_in + r * kCount, kCount, rank, r, 200 + round);
    }
    MT_CHECK_MPI(MPI_Ialltoall(aa_in, kCount, MPI_INT, aa_out, kCount, MPI_INT,
                               comm, &req[n++]));
    sc_in = rank + 1;
    MT_CHECK_MPI(
        MPI_Iscan(&sc_in, &sc_out, 1, MPI_LONG_LONG, MPI_SUM, comm, &req[n++]));
    // Point-to-point on the same communicator, the same tag every round.
    mt_coll_fill(p_in, kCount, rank, (rank + 1) % size, 300 + round);
    MT_CHECK_MPI(MPI_Irecv(p_out, kCount, MPI_INT, (rank + size - 1) % size, 0,
                           comm, &req[n++]));
    MT_CHECK_MPI(MPI_Isend(p_in, kCount, MPI_INT, (rank + 1) % size, 0, comm,
                           &req[n++]));
    if (rank % 2 == 1) {  // complete in another order on odd ranks
      for (int i = 0; i < n / 2; ++i) {
        MPI_Request t = req[i];
        req[i] = req[n - 1 - i];
        req[n - 1 - i] = t;
      }
    }
    if (round % 2 == 0) {
      MT_CHECK_MPI(MPI_Waitall(n, req, MPI_STATUSES_IGNORE));
    } else {
      for (int i = n - 1; i >= 0; --i) {  // one by one, last first
        MT_CHECK_MPI(MPI_Wait(&req[i], MPI_STATUS_IGNORE));
      }
    }
    MT_COLL_CHECK(bc, kCount, root, -1, round, "ibcast");
    for (int i = 0; i < kCount; ++i) {
      const int want = 1000 * size * (size - 1) / 2 + size * (i + round);
      MT_CHECK(ar_out[i] == want, "iallreduce element %d is %d, want %d", i,
               ar_out[i], want);
    }
    for (int r = 0; r < size; ++r) {
      MT_COLL_CHECK(ag_out + r * kCount, kCount, r, -1, 100 + round,
                    "iallgather");
      MT_COLL_CHECK(aa_out + r * kCount, kCount, r, rank, 200 + round,
                    "ialltoall");
    }
    MT_CHECK(sc_out == (long long)(rank + 1) * (rank + 2) / 2, "iscan %lld",
             sc_out);
    MT_COLL_CHECK(p_out, kCount, (rank + size - 1) % size, rank, 300 + round,
                  "p2p between nonblocking collectives");
  }
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
