// SPDX-License-Identifier: MIT
// Several connects on one port (MPI 4.0 §11.4.2): world rank 0 opens a
// port and accepts on MPI_COMM_SELF once per client group; the other ranks
// form two client groups (odd and even world ranks) that connect at once,
// so one connect waits in the port's queue until the second accept. Each
// accept learns which group it got from the group's first message.
#include <mpi.h>

#include "../../support/mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int size = mt_size();
  const int rank = mt_rank();
  MT_CHECK(size >= 3, "needs three processes");
  const int color = rank == 0 ? 0 : 1 + rank % 2;
  MPI_Comm group;
  MT_CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, rank, &group));
  char port[MPI_MAX_PORT_NAME];
  memset(port, 0, sizeof port);
  if (rank == 0) {
    MT_CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
  }
  MT_CHECK_MPI(MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD));
  if (rank == 0) {
    int seen[3] = {0, 0, 0};
    for (int i = 0; i < 2; ++i) {
      MPI_Comm inter;
      MT_CHECK_MPI(
          MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter));
      int which = -1;
      MT_CHECK_MPI(
          MPI_Recv(&which, 1, MPI_INT, 0, 1, inter, MPI_STATUS_IGNORE));
      MT_CHECK(which == 1 || which == 2, "client group %d", which);
      MT_CHECK(!seen[which], "client group %d accepted twice", which);
      seen[which] = 1;
      int remote_size = 0;
      MT_CHECK_MPI(MPI_Comm_remote_size(inter, &remote_size));
      // Group 2 holds the odd ranks, group 1 the even ones but rank 0.
      const int expected = which == 2 ? size / 2 : (size - 1) / 2;
      MT_CHECK(remote_size == expected, "group %d has %d members, expected %d",
               which, remote_size, expected);
      MT_CHECK_MPI(MPI_Bcast(&which, 1, MPI_INT, MPI_ROOT, inter));
      MT_CHECK_MPI(MPI_Barrier(inter));
      MT_CHECK_MPI(MPI_Comm_free(&inter));
    }
    MT_CHECK_MPI(MPI_Close_port(port));
  } else {
    MPI_Comm inter;
    MT_CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, group, &inter));
    int local_rank = 0;
    MT_CHECK_MPI(MPI_Comm_rank(group, &local_rank));
    if (local_rank == 0) {
      MT_CHECK_MPI(MPI_Send(&color, 1, MPI_INT, 0, 1, inter));
    }
    int which = -1;
    MT_CHECK_MPI(MPI_Bcast(&which, 1, MPI_INT, 0, inter));
    MT_CHECK(which == color, "the server says group %d, we are %d", which,
             color);
    MT_CHECK_MPI(MPI_Barrier(inter));
    MT_CHECK_MPI(MPI_Comm_free(&inter));
  }
  MT_CHECK_MPI(MPI_Comm_free(&group));
  MPI_Finalize();
  return 0;
}
