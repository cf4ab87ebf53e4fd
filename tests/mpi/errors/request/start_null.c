// SPDX-License-Identifier: MIT
// MPI 4.0 §3.9: the argument of MPI_START "must be a persistent request";
// MPI_REQUEST_NULL is not one, so the call raises MPI_ERR_REQUEST (§9.4:
// "invalid request (handle)"). Likewise for MPI_Startall and for freeing
// MPI_REQUEST_NULL.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  if (mt_errors_caller(fatal)) {
    MPI_Request req = MPI_REQUEST_NULL;
    MT_EXPECT_CLASS(fatal, MPI_Start(&req), MPI_ERR_REQUEST,
                    "MPI_Start(MPI_REQUEST_NULL)");
    MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MT_EXPECT_CLASS(fatal, MPI_Startall(2, reqs), MPI_ERR_REQUEST,
                    "MPI_Startall(MPI_REQUEST_NULL, ...)");
    req = MPI_REQUEST_NULL;
    MT_EXPECT_CLASS(fatal, MPI_Request_free(&req), MPI_ERR_REQUEST,
                    "MPI_Request_free(MPI_REQUEST_NULL)");
  }
  return mt_errors_finish(fatal);
}
