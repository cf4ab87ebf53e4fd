// SPDX-License-Identifier: MIT
// Communicator life cycle in one program: 5000 dup/free cycles with traffic,
// split (keys reversed, MPI_UNDEFINED), intercommunicator create, traffic,
// allreduce, barrier, merge, dup and split, idup, then 2000+ live
// communicators up to exhaustion (a clean MPI_ERR_OTHER) and reuse.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpitest.h"
int main(int argc, char** argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm d;
  for (int i = 0; i < 5000; ++i) {
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    if (i % 100 == 0) {
      int v = rank, s = 0;
      MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, d);
      MT_ASSERT(s == size * (size - 1) / 2);
      MPI_Barrier(d);
    }
    MPI_Comm_free(&d);
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &d);
  int x = rank, y = -1;
  MPI_Sendrecv(&x, 1, MPI_INT, (rank + 1) % size, 7, &y, 1, MPI_INT,
               (rank + size - 1) % size, 7, d, MPI_STATUS_IGNORE);
  MT_ASSERT(y == (rank + size - 1) % size);
  MPI_Comm sp;
  MPI_Comm_split(d, rank % 2, -rank, &sp);
  int sr, ss;
  MPI_Comm_rank(sp, &sr);
  MPI_Comm_size(sp, &ss);
  MT_ASSERT(ss == (size + 1 - rank % 2) / 2);
  int all[64];
  MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, sp);
  for (int i = 0; i < ss; ++i) MT_ASSERT(all[i] % 2 == rank % 2);
  for (int i = 1; i < ss; ++i) MT_ASSERT(all[i] < all[i - 1]);
  MPI_Comm und;
  MPI_Comm_split(d, rank == 0 ? MPI_UNDEFINED : 1, 0, &und);
  MT_ASSERT((rank == 0) == (und == MPI_COMM_NULL));
  if (und != MPI_COMM_NULL)
    MPI_Comm_free(&und);
  if (size >= 2) {
    MPI_Comm inter;
    int top_even = (size - 1) / 2 * 2, top_odd = size % 2 ? size - 2 : size - 1;
    MPI_Intercomm_create(sp, 0, MPI_COMM_WORLD,
                         rank % 2 == 0 ? top_odd : top_even, 42, &inter);
    int flag, rs;
    MPI_Comm_test_inter(inter, &flag);
    MT_ASSERT(flag);
    MPI_Comm_remote_size(inter, &rs);
    MT_ASSERT(rs == size / 2 + (rank % 2 == 1 ? size % 2 : 0));
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, inter);
    int expect = 0;
    for (int r = 0; r < size; ++r)
      if (r % 2 != rank % 2)
        expect += r;
    MT_ASSERT(sum == expect);
    MPI_Barrier(inter);
    if (sr == 0) {
      int v = rank, w;
      MPI_Status st;
      MPI_Sendrecv(&v, 1, MPI_INT, 0, 3, &w, 1, MPI_INT, MPI_ANY_SOURCE, 3,
                   inter, &st);
      MT_ASSERT(st.MPI_SOURCE == 0);
    }
    MPI_Comm merged;
    MPI_Intercomm_merge(inter, rank % 2, &merged);
    int mr, ms;
    MPI_Comm_rank(merged, &mr);
    MPI_Comm_size(merged, &ms);
    MT_ASSERT(ms == size);
    int t = 0;
    MPI_Allreduce(&mr, &t, 1, MPI_INT, MPI_SUM, merged);
    MT_ASSERT(t == size * (size - 1) / 2);
    if (rank % 2 == 0)
      MT_ASSERT(mr < (size + 1) / 2);
    MPI_Comm d2;
    MPI_Comm_dup(inter, &d2);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, d2);
    MT_ASSERT(sum == expect);
    MPI_Comm s2;
    MPI_Comm_split(inter, sr % 2, 0, &s2);
    if (s2 != MPI_COMM_NULL) {
      MPI_Barrier(s2);
      MPI_Comm_free(&s2);
    }
    MPI_Comm_free(&d2);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter);
  }
  MPI_Request req;
  MPI_Comm id;
  MPI_Comm_idup(sp, &id, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Barrier(id);
  MPI_Comm_free(&id);
  MPI_Comm_free(&sp);
  MPI_Comm_free(&d);
  int n = 0, dup_error_class = MPI_SUCCESS;
  MPI_Comm many[2100];
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  for (; n < 2100; ++n) {
    int rc = MPI_Comm_dup(MPI_COMM_WORLD, &many[n]);
    if (rc != MPI_SUCCESS) {
      MPI_Error_class(rc, &dup_error_class);
      break;
    }
  }
  MT_ASSERT(n >= 2000 && n <= 2045);
  MT_ASSERT(dup_error_class == MPI_ERR_OTHER);
  for (int i = 0; i < n; ++i) MPI_Comm_free(&many[i]);
  MPI_Comm_dup(MPI_COMM_WORLD, &d);
  MPI_Comm_free(&d);
  MPI_Finalize();
  return 0;
}
