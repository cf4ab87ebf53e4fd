// SPDX-License-Identifier: MIT
// MPI 4.0 §3.11: "A communication with process MPI_PROC_NULL has no effect.
// A send to MPI_PROC_NULL succeeds and returns as soon as possible. A receive
// from MPI_PROC_NULL succeeds and returns as soon as possible with no
// modifications to the receive buffer ... source = MPI_PROC_NULL, tag =
// MPI_ANY_TAG and count = 0."
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

static void check_untouched(const int* buf, const char* what) {
  for (int i = 0; i < 4; ++i) {
    MT_CHECK(buf[i] == -7, "%s modified the receive buffer", what);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int buf[4] = {-7, -7, -7, -7};
  const int data[4] = {1, 2, 3, 4};
  MPI_Status status;
  MPI_Request req;
  MPI_Comm comm = MPI_COMM_WORLD;

  // Sends in every mode.
  MPI_Send(data, 4, MPI_INT, MPI_PROC_NULL, 0, comm);
  MPI_Ssend(data, 4, MPI_INT, MPI_PROC_NULL, 0, comm);
  MPI_Rsend(data, 4, MPI_INT, MPI_PROC_NULL, 0, comm);
  MPI_Bsend(data, 4, MPI_INT, MPI_PROC_NULL, 0, comm);  // no buffer needed
  MPI_Request reqs[4];
  MPI_Isend(data, 4, MPI_INT, MPI_PROC_NULL, 0, comm, &reqs[0]);
  MPI_Issend(data, 4, MPI_INT, MPI_PROC_NULL, 0, comm, &reqs[1]);
  MPI_Irsend(data, 4, MPI_INT, MPI_PROC_NULL, 0, comm, &reqs[2]);
  MPI_Ibsend(data, 4, MPI_INT, MPI_PROC_NULL, 0, comm, &reqs[3]);
  MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);

  // Receives.
  MPI_Recv(buf, 4, MPI_INT, MPI_PROC_NULL, 5, comm, &status);
  check_null_status(&status, "MPI_Recv");
  check_untouched(buf, "MPI_Recv");
  MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 5, comm, &req);
  int flag = 0;
  MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
  MT_CHECK(flag, "MPI_Test on a receive from MPI_PROC_NULL: not complete");
  check_untouched(buf, "MPI_Irecv");
  // The status of a nonblocking receive from MPI_PROC_NULL is checked in
  // proc_null_status.c (an MPICH 4.0 bug keeps it apart).

  // Send-receive with MPI_PROC_NULL on either side.
  const int rank = mt_rank();
  MPI_Sendrecv(data, 4, MPI_INT, MPI_PROC_NULL, 1, buf, 4, MPI_INT,
               MPI_PROC_NULL, 1, comm, &status);
  check_null_status(&status, "MPI_Sendrecv");
  check_untouched(buf, "MPI_Sendrecv");
  int value = rank;
  MPI_Sendrecv_replace(&value, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_PROC_NULL, 1,
                       comm, &status);
  check_null_status(&status, "MPI_Sendrecv_replace");
  MT_CHECK(value == rank,
           "MPI_Sendrecv_replace with MPI_PROC_NULL changed "
           "the buffer");

  // Probes.
  MPI_Probe(MPI_PROC_NULL, 0, comm, &status);
  check_null_status(&status, "MPI_Probe");
  flag = 0;
  MPI_Iprobe(MPI_PROC_NULL, MPI_ANY_TAG, comm, &flag, &status);
  MT_CHECK(flag, "MPI_Iprobe(MPI_PROC_NULL) returned flag false");
  check_null_status(&status, "MPI_Iprobe");
  MPI_Message message = MPI_MESSAGE_NULL;
  MPI_Mprobe(MPI_PROC_NULL, 0, comm, &message, &status);
  MT_CHECK(message == MPI_MESSAGE_NO_PROC,
           "MPI_Mprobe(MPI_PROC_NULL) did not return MPI_MESSAGE_NO_PROC");
  check_null_status(&status, "MPI_Mprobe");
  MPI_Mrecv(buf, 4, MPI_INT, &message, &status);
  MT_CHECK(message == MPI_MESSAGE_NULL,
           "MPI_Mrecv(MPI_MESSAGE_NO_PROC) left the handle set");
  check_null_status(&status, "MPI_Mrecv");
  check_untouched(buf, "MPI_Mrecv");
  flag = 0;
  MPI_Improbe(MPI_PROC_NULL, 0, comm, &flag, &message, &status);
  MT_CHECK(flag && message == MPI_MESSAGE_NO_PROC,
           "MPI_Improbe(MPI_PROC_NULL): flag %d", flag);
  MPI_Imrecv(buf, 4, MPI_INT, &message, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  check_untouched(buf, "MPI_Imrecv");

  // Persistent requests.
  MPI_Request persistent[2];
  MPI_Send_init(data, 4, MPI_INT, MPI_PROC_NULL, 0, comm, &persistent[0]);
  MPI_Recv_init(buf, 4, MPI_INT, MPI_PROC_NULL, 0, comm, &persistent[1]);
  for (int i = 0; i < 3; ++i) {
    MPI_Startall(2, persistent);
    MPI_Waitall(2, persistent, MPI_STATUSES_IGNORE);
    check_untouched(buf, "persistent receive");
  }
  MPI_Request_free(&persistent[0]);
  MPI_Request_free(&persistent[1]);

  MPI_Finalize();
  return 0;
}
