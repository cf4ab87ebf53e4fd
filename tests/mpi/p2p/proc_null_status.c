// SPDX-License-Identifier: MIT
// MPI 4.0 §3.11: "A receive from MPI_PROC_NULL succeeds and returns as soon
// as possible ... the status object returns source = MPI_PROC_NULL, tag =
// MPI_ANY_TAG and count = 0" — for nonblocking, matched and persistent
// receives too, whichever completion call reports the status.
//
// MPICH before 4.2 returns source 0 and tag 0 for MPI_Irecv from
// MPI_PROC_NULL (github.com/pmodels/mpich/issues/6805), so this test is
// expected to fail there.
#include "mpitest.h"

static void check_null_status(const MPI_Status* status, const char* what) {
  int count = -1;
  MPI_Get_count(status, MPI_INT, &count);
  MT_CHECK(status->MPI_SOURCE == MPI_PROC_NULL &&
               status->MPI_TAG == MPI_ANY_TAG && count == 0,
           "%s: status source %d tag %d count %d, expected MPI_PROC_NULL "
           "(%d), MPI_ANY_TAG (%d), 0",
           what, status->MPI_SOURCE, status->MPI_TAG, count, MPI_PROC_NULL,
           MPI_ANY_TAG);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int buf[4];
  MPI_Status status;
  MPI_Request req;
  MPI_Comm comm = MPI_COMM_WORLD;

  MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, comm, &req);
  MPI_Wait(&req, &status);
  check_null_status(&status, "MPI_Irecv + MPI_Wait");

  MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 5, comm, &req);
  int flag = 0;
  MPI_Test(&req, &flag, &status);
  MT_CHECK(flag, "MPI_Test on a receive from MPI_PROC_NULL: not complete");
  check_null_status(&status, "MPI_Irecv + MPI_Test");

  MPI_Request reqs[2];
  MPI_Status statuses[2];
  MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 5, comm, &reqs[0]);
  MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 6, comm, &reqs[1]);
  MPI_Waitall(2, reqs, statuses);
  check_null_status(&statuses[0], "MPI_Irecv + MPI_Waitall");
  check_null_status(&statuses[1], "MPI_Irecv + MPI_Waitall");

  MPI_Message message = MPI_MESSAGE_NULL;
  MPI_Mprobe(MPI_PROC_NULL, 0, comm, &message, &status);
  MPI_Imrecv(buf, 4, MPI_INT, &message, &req);
  MPI_Wait(&req, &status);
  check_null_status(&status, "MPI_Imrecv");

  MPI_Request persistent;
  MPI_Recv_init(buf, 4, MPI_INT, MPI_PROC_NULL, 0, comm, &persistent);
  MPI_Start(&persistent);
  MPI_Wait(&persistent, &status);
  check_null_status(&status, "persistent receive");
  MPI_Request_free(&persistent);

  MPI_Finalize();
  return 0;
}
