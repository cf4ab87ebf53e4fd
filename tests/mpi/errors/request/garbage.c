// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4: MPI_ERR_REQUEST, "invalid request (handle)". A garbage
// handle is not valid MPI, but shmpi validates handles so that it reports
// MPI_ERR_REQUEST instead of crashing. shmpi only.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  static long not_a_request[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (mt_errors_caller(fatal)) {
    MPI_Request req = (MPI_Request)(intptr_t)0x12345678;
    MT_EXPECT_CLASS(fatal, MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_ERR_REQUEST,
                    "MPI_Wait(request = 0x12345678)");
    req = (MPI_Request)(intptr_t)&not_a_request[2];
    int flag = 0;
    MT_EXPECT_CLASS(fatal, MPI_Test(&req, &flag, MPI_STATUS_IGNORE),
                    MPI_ERR_REQUEST, "MPI_Test(request = &ordinary memory)");
    MPI_Request reqs[2] = {MPI_REQUEST_NULL, (MPI_Request)(intptr_t)0x12345678};
    MT_EXPECT_CLASS(fatal, MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE),
                    MPI_ERR_REQUEST, "MPI_Waitall(..., 0x12345678)");
    req = (MPI_Request)(intptr_t)0x12345678;
    MT_EXPECT_CLASS(fatal, MPI_Start(&req), MPI_ERR_REQUEST,
                    "MPI_Start(request = 0x12345678)");
  }
  return mt_errors_finish(fatal);
}
