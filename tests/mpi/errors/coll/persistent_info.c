// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4 MPI_ERR_INFO, "invalid info argument": a persistent
// collective's init call given the handle of an info object that was
// freed. (shmpi-only: what another MPI does with a stale handle is not
// defined.) Every rank makes the call; with args=fatal the default handler
// must end the job.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  MPI_Info info;
  MT_CHECK_MPI(MPI_Info_create(&info));
  const MPI_Info stale = info;
  MT_CHECK_MPI(MPI_Info_free(&info));
  int a = 0;
  MPI_Request req = MPI_REQUEST_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(
        fatal, MPI_Bcast_init(&a, 1, MPI_INT, 0, MPI_COMM_WORLD, stale, &req),
        MPI_ERR_INFO, "MPI_Bcast_init(freed info)");
    MT_CHECK(req == MPI_REQUEST_NULL, "a refused init returned a request");
  }
  return mt_errors_finish(fatal);
}
