// SPDX-License-Identifier: MIT
// MPI 4.0 §9.3: an error of an operation on a valid request is raised on
// the handler of that request's communicator, also where the call takes
// only the request:
// - MPI_Request_get_status on a receive that completed truncated returns
//   MPI_ERR_TRUNCATE (as MPI_Test would) and leaves the request, whose
//   MPI_Wait then raises the error again;
// - MPI_Start on a request that is not persistent, and MPI_Startall on an
//   array holding one, or an active persistent request, raise
//   MPI_ERR_REQUEST on that request's communicator.
// Rank 1 works on two duplicates of MPI_COMM_WORLD, `a` and `b`, with a
// user handler each; MPI_COMM_WORLD and MPI_COMM_SELF keep
// MPI_ERRORS_ARE_FATAL, so an error raised there ends the job.
//
// MPICH 4.0.2 raises both calls' errors on MPI_COMM_WORLD.
#include "mt_counted_handlers.h"

enum { kLong = 4, kShort = 2 };

// A 4-int message from rank 0 received into 2 ints on `comm`.
static void get_status_case(MPI_Comm comm) {
  int buf[kLong];
  MPI_Request req;
  MT_CHECK_MPI(MPI_Irecv(buf, kShort, MPI_INT, 0, 1, comm, &req));
  int flag = 0;
  int rc = MPI_SUCCESS;
  MPI_Status status;
  while (!flag) {
    rc = MPI_Request_get_status(req, &flag, &status);
    MT_CHECK(flag || rc == MPI_SUCCESS,
             "MPI_Request_get_status failed before completion: %s",
             mt_error_string(rc));
  }
  mt_expect_raised_on(comm, rc, MPI_ERR_TRUNCATE, "MPI_Request_get_status");
  MT_CHECK(status.MPI_SOURCE == 0 && status.MPI_TAG == 1,
           "MPI_Request_get_status: source %d tag %d", status.MPI_SOURCE,
           status.MPI_TAG);
  MT_CHECK(req != MPI_REQUEST_NULL, "MPI_Request_get_status freed it");
  rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
  mt_expect_raised_on(comm, rc, MPI_ERR_TRUNCATE, "MPI_Wait after it");
  MT_CHECK(req == MPI_REQUEST_NULL, "MPI_Wait did not free the request");
}

static void start_case(void) {
  int buf[kLong];
  int other[kLong];
  MPI_Request recv;
  MPI_Request persistent;
  MT_CHECK_MPI(MPI_Irecv(buf, kLong, MPI_INT, 0, 2, mt_comm_a, &recv));
  MT_CHECK_MPI(
      MPI_Recv_init(other, kLong, MPI_INT, 0, 3, mt_comm_b, &persistent));

  mt_expect_raised_on(mt_comm_a, MPI_Start(&recv), MPI_ERR_REQUEST,
                      "MPI_Start on a nonblocking receive");
  MPI_Request both[2] = {persistent, recv};
  mt_expect_raised_on(mt_comm_a, MPI_Startall(2, both), MPI_ERR_REQUEST,
                      "MPI_Startall on [persistent on b, nonblocking on a]");

  MT_CHECK_MPI(MPI_Start(&persistent));
  both[0] = persistent;
  mt_expect_raised_on(mt_comm_b, MPI_Start(&persistent), MPI_ERR_REQUEST,
                      "MPI_Start on an active persistent request");
  mt_expect_raised_on(mt_comm_b, MPI_Startall(1, both), MPI_ERR_REQUEST,
                      "MPI_Startall on an active persistent request");

  // Neither failed call changed anything: both receives still match.
  MT_CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, 0, 4, MPI_COMM_WORLD));
  MT_CHECK_MPI(MPI_Wait(&recv, MPI_STATUS_IGNORE));
  MT_CHECK_MPI(MPI_Wait(&persistent, MPI_STATUS_IGNORE));
  MT_CHECK(buf[3] == 4 && other[3] == 40, "wrong data: %d %d", buf[3],
           other[3]);
  MT_CHECK_MPI(MPI_Request_free(&persistent));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MT_CHECK(mt_size() >= 2, "needs at least 2 ranks");
  mt_counted_comms_create();

  const int rank = mt_rank();
  if (rank == 0) {
    const int data[kLong] = {1, 2, 3, 4};
    const int tens[kLong] = {10, 20, 30, 40};
    MT_CHECK_MPI(MPI_Send(data, kLong, MPI_INT, 1, 1, mt_comm_a));
    MT_CHECK_MPI(MPI_Send(data, kLong, MPI_INT, 1, 1, mt_comm_b));
    // Only once rank 1's MPI_Start calls are done.
    MT_CHECK_MPI(
        MPI_Recv(NULL, 0, MPI_INT, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MT_CHECK_MPI(MPI_Send(data, kLong, MPI_INT, 1, 2, mt_comm_a));
    MT_CHECK_MPI(MPI_Send(tens, kLong, MPI_INT, 1, 3, mt_comm_b));
  } else if (rank == 1) {
    get_status_case(mt_comm_a);
    get_status_case(mt_comm_b);
    start_case();
  }
  mt_counted_comms_free();
  MPI_Finalize();
  return 0;
}
