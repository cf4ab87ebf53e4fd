// SPDX-License-Identifier: MIT
// MPI_Comm_idup on an intercommunicator is a nonblocking collective: its
// call must not wait for the remote group. Here one group starts the idup
// before a barrier on MPI_COMM_WORLD and the other after it, which MPI
// allows (collectives are ordered per communicator only; design.md,
// "Rounds in flight at once"). shmpi used to exchange the leaders' context
// IDs inside the call, so the first group waited there for the second,
// which waited in the barrier: a deadlock.
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  if (mt_size() < 2) {
    MPI_Finalize();
    return MT_SKIP_CODE;
  }
  const int color = rank % 2;
  MPI_Comm local = MPI_COMM_NULL;
  MPI_Comm inter = MPI_COMM_NULL;
  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Request request = MPI_REQUEST_NULL;
  MT_CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, rank, &local));
  MT_CHECK_MPI(
      MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color ? 0 : 1, 5, &inter));
  if (color == 0) {
    MT_CHECK_MPI(MPI_Comm_idup(inter, &dup, &request));
    MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  } else {
    MT_CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MT_CHECK_MPI(MPI_Comm_idup(inter, &dup, &request));
  }
  MT_CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
  int remote_size = 0;
  int expected = 0;
  MT_CHECK_MPI(MPI_Comm_remote_size(dup, &remote_size));
  MT_CHECK_MPI(MPI_Comm_remote_size(inter, &expected));
  MT_CHECK(remote_size == expected, "remote size %d, expected %d", remote_size,
           expected);
  MT_CHECK_MPI(MPI_Barrier(dup));
  MT_CHECK_MPI(MPI_Comm_free(&dup));
  MT_CHECK_MPI(MPI_Comm_free(&inter));
  MT_CHECK_MPI(MPI_Comm_free(&local));
  MPI_Finalize();
  return 0;
}
