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
#include "mpitest.h"

enum { kLong = 4, kShort = 2 };

static MPI_Comm comm_a = MPI_COMM_NULL;
static MPI_Comm comm_b = MPI_COMM_NULL;
static int calls_a = 0;
static int calls_b = 0;
static int last_code = MPI_SUCCESS;

static void on_error(MPI_Comm* comm, int* code, ...) {
  if (*comm == comm_a) {
    calls_a++;
  } else if (*comm == comm_b) {
    calls_b++;
  } else {
    MT_FAIL("the handler got neither duplicate");
  }
  last_code = *code;
}

// The handler of `on` ran once since the last check, the other's never,
// and `rc`, the code it saw, is of class `expected`.
static void expect_raised_on(MPI_Comm on, int rc, int expected,
                             const char* what) {
  const int on_calls = on == comm_a ? calls_a : calls_b;
  const int off_calls = on == comm_a ? calls_b : calls_a;
  MT_CHECK(on_calls == 1 && off_calls == 0,
           "%s: the request's handler ran %d times, the other's %d", what,
           on_calls, off_calls);
  MT_CHECK(rc == last_code, "%s returned %s, the handler saw code %d", what,
           mt_error_string(rc), last_code);
  int error_class = -1;
  MT_CHECK_MPI(MPI_Error_class(rc, &error_class));
  MT_CHECK(error_class == expected, "%s: class %s, expected %s (%s)", what,
           mt_class_name(error_class), mt_class_name(expected),
           mt_error_string(rc));
  calls_a = calls_b = 0;
  last_code = MPI_SUCCESS;
}

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
  expect_raised_on(comm, rc, MPI_ERR_TRUNCATE, "MPI_Request_get_status");
  MT_CHECK(status.MPI_SOURCE == 0 && status.MPI_TAG == 1,
           "MPI_Request_get_status: source %d tag %d", status.MPI_SOURCE,
           status.MPI_TAG);
  MT_CHECK(req != MPI_REQUEST_NULL, "MPI_Request_get_status freed it");
  rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
  expect_raised_on(comm, rc, MPI_ERR_TRUNCATE, "MPI_Wait after it");
  MT_CHECK(req == MPI_REQUEST_NULL, "MPI_Wait did not free the request");
}

static void start_case(void) {
  int buf[kLong];
  int other[kLong];
  MPI_Request recv;
  MPI_Request persistent;
  MT_CHECK_MPI(MPI_Irecv(buf, kLong, MPI_INT, 0, 2, comm_a, &recv));
  MT_CHECK_MPI(MPI_Recv_init(other, kLong, MPI_INT, 0, 3, comm_b, &persistent));

  expect_raised_on(comm_a, MPI_Start(&recv), MPI_ERR_REQUEST,
                   "MPI_Start on a nonblocking receive");
  MPI_Request both[2] = {persistent, recv};
  expect_raised_on(comm_a, MPI_Startall(2, both), MPI_ERR_REQUEST,
                   "MPI_Startall on [persistent on b, nonblocking on a]");

  MT_CHECK_MPI(MPI_Start(&persistent));
  both[0] = persistent;
  expect_raised_on(comm_b, MPI_Start(&persistent), MPI_ERR_REQUEST,
                   "MPI_Start on an active persistent request");
  expect_raised_on(comm_b, MPI_Startall(1, both), MPI_ERR_REQUEST,
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
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm_a));
  MT_CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm_b));
  MPI_Errhandler handler;
  MT_CHECK_MPI(MPI_Comm_create_errhandler(on_error, &handler));
  MT_CHECK_MPI(MPI_Comm_set_errhandler(comm_a, handler));
  MT_CHECK_MPI(MPI_Comm_set_errhandler(comm_b, handler));
  MT_CHECK_MPI(MPI_Errhandler_free(&handler));

  const int rank = mt_rank();
  if (rank == 0) {
    const int data[kLong] = {1, 2, 3, 4};
    const int tens[kLong] = {10, 20, 30, 40};
    MT_CHECK_MPI(MPI_Send(data, kLong, MPI_INT, 1, 1, comm_a));
    MT_CHECK_MPI(MPI_Send(data, kLong, MPI_INT, 1, 1, comm_b));
    // Only once rank 1's MPI_Start calls are done.
    MT_CHECK_MPI(
        MPI_Recv(NULL, 0, MPI_INT, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MT_CHECK_MPI(MPI_Send(data, kLong, MPI_INT, 1, 2, comm_a));
    MT_CHECK_MPI(MPI_Send(tens, kLong, MPI_INT, 1, 3, comm_b));
  } else if (rank == 1) {
    get_status_case(comm_a);
    get_status_case(comm_b);
    start_case();
  }
  MT_CHECK_MPI(MPI_Comm_free(&comm_a));
  MT_CHECK_MPI(MPI_Comm_free(&comm_b));
  MPI_Finalize();
  return 0;
}
