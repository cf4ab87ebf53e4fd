// SPDX-License-Identifier: MIT
// MPI 4.0 §6.12: nonblocking collectives on one communicator match in the
// order they are started, whatever the order of completion; that holds
// for the neighbourhood collectives among the others (§8.7). On a
// distributed-graph ring with a self edge, several neighbourhood
// collectives are outstanding at once, interleaved with an Iallreduce, an
// Ibarrier and a started persistent neighbor_alltoall on the same
// communicator and an Iallgather on MPI_COMM_WORLD, and are completed in
// reverse order; every result is checked. Repeated with fresh values.
#include "mpitest.h"

enum { ROUNDS = 20, N = 3, OPS = 8 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  const int left = (rank + size - 1) % size;
  const int right = (rank + 1) % size;
  // Neighbours: left, right, self, in that order both ways.
  const int nb[N] = {left, right, rank};
  MPI_Comm g = MPI_COMM_NULL;
  MT_CHECK_MPI(
      MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, N, nb, MPI_UNWEIGHTED, N,
                                     nb, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
  // Receive block j comes from from[j]'s send block their[j]: repeated
  // edges (at 1 and 2 ranks) pair up in the order they are listed.
  int from[N], their[N];
  for (int j = 0; j < N; ++j) {
    from[j] = nb[j];
    int k = 0;  // earlier sources that are the same process
    for (int q = 0; q < j; ++q) {
      k += nb[q] == nb[j];
    }
    const int f = nb[j];
    const int its[N] = {(f + size - 1) % size, (f + 1) % size, f};
    their[j] = -1;
    for (int i = 0; i < N && their[j] < 0; ++i) {
      if (its[i] == rank && k-- == 0) {
        their[j] = i;
      }
    }
    MT_ASSERT(their[j] >= 0);
  }
  // alltoallv: each direction its own count (to left 2 ints, to right 1,
  // to self 0), receive blocks at rdispls with gaps.
  const int sc[N] = {2, 1, 0}, sd[N] = {0, 2, 3};
  int rc[N], rd[N];
  int roff = 0;
  for (int j = 0; j < N; ++j) {
    rc[j] = sc[their[j]];
    rd[j] = roff;
    roff += rc[j] + 1;
  }

  int a2a_send[N], a2a_recv[N];
  int ag_send, ag_recv[N];
  int v_send[2 * N], v_recv[4 * N];
  int p_send[N], p_recv[N];
  int sum_in, sum_out;
  int *world_in = mt_malloc(sizeof(int)),
      *world_out = mt_malloc((size_t)size * sizeof(int));
  MPI_Request persistent = MPI_REQUEST_NULL;
  MT_CHECK_MPI(MPI_Neighbor_alltoall_init(
      p_send, 1, MPI_INT, p_recv, 1, MPI_INT, g, MPI_INFO_NULL, &persistent));
  for (int t = 0; t < mt_scale(ROUNDS); ++t) {
    const int base = (t + 1) * 1000;
    for (int i = 0; i < N; ++i) {
      a2a_send[i] = base + rank * 10 + i;
      a2a_recv[i] = -1;
      ag_recv[i] = -1;
      p_send[i] = -(base + rank * 10 + i);
      p_recv[i] = 0;
    }
    for (int i = 0; i < 2 * N; ++i) {
      v_send[i] = base + 100 * rank + i;
    }
    for (int i = 0; i < 4 * N; ++i) {
      v_recv[i] = -1;
    }
    ag_send = base + rank;
    sum_in = rank + t;
    *world_in = base - rank;
    MPI_Request reqs[OPS];
    MT_CHECK_MPI(MPI_Ineighbor_alltoall(a2a_send, 1, MPI_INT, a2a_recv, 1,
                                        MPI_INT, g, &reqs[0]));
    MT_CHECK_MPI(
        MPI_Iallreduce(&sum_in, &sum_out, 1, MPI_INT, MPI_SUM, g, &reqs[1]));
    MT_CHECK_MPI(MPI_Ineighbor_allgather(&ag_send, 1, MPI_INT, ag_recv, 1,
                                         MPI_INT, g, &reqs[2]));
    MT_CHECK_MPI(MPI_Iallgather(world_in, 1, MPI_INT, world_out, 1, MPI_INT,
                                MPI_COMM_WORLD, &reqs[3]));
    MT_CHECK_MPI(MPI_Ibarrier(g, &reqs[4]));
    MT_CHECK_MPI(MPI_Ineighbor_alltoallv(v_send, sc, sd, MPI_INT, v_recv, rc,
                                         rd, MPI_INT, g, &reqs[5]));
    MT_CHECK_MPI(MPI_Start(&persistent));
    reqs[6] = persistent;
    MT_CHECK_MPI(MPI_Ineighbor_alltoall(a2a_send, 1, MPI_INT, a2a_recv, 1,
                                        MPI_INT, g, &reqs[7]));
    for (int i = OPS - 1; i >= 0; --i) {
      MT_CHECK_MPI(MPI_Wait(&reqs[i], MPI_STATUS_IGNORE));
    }
    for (int j = 0; j < N; ++j) {
      const int want = base + from[j] * 10 + their[j];
      MT_CHECK(a2a_recv[j] == want, "round %d: alltoall block %d: %d, want %d",
               t, j, a2a_recv[j], want);
      MT_CHECK(p_recv[j] == -want, "round %d: persistent block %d: %d", t, j,
               p_recv[j]);
      MT_CHECK(ag_recv[j] == base + from[j], "round %d: allgather block %d: %d",
               t, j, ag_recv[j]);
    }
    // alltoallv: block j holds from[j]'s rc[j] ints from sd[their[j]].
    int at = 0;
    for (int j = 0; j < N; ++j) {
      for (int e = 0; e < rc[j]; ++e) {
        const int want = base + 100 * from[j] + sd[their[j]] + e;
        MT_CHECK(v_recv[at + e] == want,
                 "round %d: alltoallv block %d: %d, "
                 "want %d",
                 t, j, v_recv[at + e], want);
      }
      at += rc[j];
      MT_CHECK(v_recv[at] == -1, "round %d: alltoallv wrote a gap", t);
      ++at;
    }
    const int want_sum = size * (size - 1) / 2 + size * t;
    MT_CHECK(sum_out == want_sum, "round %d: allreduce %d, want %d", t, sum_out,
             want_sum);
    for (int r = 0; r < size; ++r) {
      MT_CHECK(world_out[r] == base - r, "round %d: allgather of %d: %d", t, r,
               world_out[r]);
    }
  }
  MT_CHECK_MPI(MPI_Request_free(&persistent));
  free(world_in);
  free(world_out);
  MPI_Comm_free(&g);
  MPI_Finalize();
  return 0;
}
