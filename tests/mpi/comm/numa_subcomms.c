// SPDX-License-Identifier: MIT
// shmpi_comm_numa_subcomms: the intranode and internode sub-communicators
// derived from a communicator's context ID (YY field) without agreement.
// Every rank of a node is in its intranode communicator; only each node's
// lowest rank is in the internode one. Traffic on them stays apart from
// the parent's, they hold no context ID of their own, and they go away
// with the parent. shmpi-only: an extension.
#include <mpi.h>
#include <shmpi.h>
#include <stdio.h>

#include "mpitest.h"

int main(int argc, char** argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  int free_before = 0, reserved_before = 0;
  shmpi_context_ids_free(&free_before, &reserved_before);
  for (int pass = 0; pass < 2; ++pass) {
    MPI_Comm parent = pass == 0 ? MPI_COMM_WORLD : dup;
    MPI_Comm intra, inter;
    MT_ASSERT(shmpi_comm_numa_subcomms(parent, &intra, &inter) == MPI_SUCCESS);
    // Asking again gives the same communicators.
    MPI_Comm intra2, inter2;
    shmpi_comm_numa_subcomms(parent, &intra2, &inter2);
    MT_ASSERT(intra == intra2 && inter == inter2);
    // The node's members, and node leaders: counted across the world.
    int node_size = 0, is_leader = inter != MPI_COMM_NULL;
    MPI_Comm_size(intra, &node_size);
    int intra_rank = -1;
    MPI_Comm_rank(intra, &intra_rank);
    MT_ASSERT(is_leader == (intra_rank == 0));
    int leaders = 0, members = 0;
    MPI_Allreduce(&is_leader, &leaders, 1, MPI_INT, MPI_SUM, parent);
    int mine = intra_rank == 0 ? node_size : 0;
    MPI_Allreduce(&mine, &members, 1, MPI_INT, MPI_SUM, parent);
    MT_ASSERT(members == size);
    if (is_leader) {
      int inter_size = 0;
      MPI_Comm_size(inter, &inter_size);
      MT_ASSERT(inter_size == leaders);
      MPI_Barrier(inter);
    }
    // Same tag on parent and intranode: each message stays on its own.
    if (node_size > 1) {
      int right = (intra_rank + 1) % node_size;
      int left = (intra_rank + node_size - 1) % node_size;
      int a = 1000 + rank, b = -1;
      MPI_Request req;
      MPI_Irecv(&b, 1, MPI_INT, MPI_ANY_SOURCE, 5, parent, &req);
      int x = rank, y = -1;
      MPI_Sendrecv(&x, 1, MPI_INT, right, 5, &y, 1, MPI_INT, left, 5, intra,
                   MPI_STATUS_IGNORE);
      MT_ASSERT(y >= 0 && y < 1000);  // the intranode message, not a parent one
      MPI_Send(&a, 1, MPI_INT, (rank + 1) % size, 5, parent);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      MT_ASSERT(b >= 1000);
    }
    MPI_Barrier(intra);
  }
  int free_after = 0, reserved_after = 0;
  shmpi_context_ids_free(&free_after, &reserved_after);
  MT_ASSERT(free_after == free_before && reserved_after == reserved_before);
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}
