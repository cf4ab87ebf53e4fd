// SPDX-License-Identifier: MIT
// MPI 4.0 §9.3: "the error handler [...] of the communicator" an operation
// is on is invoked when it fails; for the calls that complete several
// requests (MPI_Waitall, MPI_Testall, MPI_Waitsome, MPI_Testsome) the error
// MPI_ERR_IN_STATUS belongs to the requests that failed, so it is raised on
// the communicator of such a request: not on that of the first request, nor
// on MPI_COMM_WORLD's or MPI_COMM_SELF's handler. (Which one when failed
// requests span communicators is not specified -- shmpi takes the first in
// array order -- so every call here has its failures on one communicator.)
//
// Rank 0 sends 4-int messages on two duplicates of MPI_COMM_WORLD, `a` and
// `b`, each with its own user handler; rank 1 receives some of them into
// 2-int buffers (MPI_ERR_TRUNCATE). MPI_COMM_WORLD and MPI_COMM_SELF keep
// MPI_ERRORS_ARE_FATAL, so an error raised there ends the job.
//
// MPICH 4.0.2 raises the truncation on MPI_COMM_WORLD (the job aborts).
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

static void expect_class(int rc, int expected, const char* what) {
  int error_class = -1;
  MT_CHECK_MPI(MPI_Error_class(rc, &error_class));
  MT_CHECK(error_class == expected, "%s: class %s, expected %s (%s)", what,
           mt_class_name(error_class), mt_class_name(expected),
           mt_error_string(rc));
}

// After one completion call (or a run of them) that failed: the handler of
// `on` (the communicator of the first failed request) ran once, the other
// one never, and the call returned MPI_ERR_IN_STATUS, the handler's code.
static void expect_raised_on(MPI_Comm on, int rc, const char* what) {
  const int on_calls = on == comm_a ? calls_a : calls_b;
  const int off_calls = on == comm_a ? calls_b : calls_a;
  MT_CHECK(on_calls == 1 && off_calls == 0,
           "%s: the failed request's handler ran %d times, the other's %d",
           what, on_calls, off_calls);
  MT_CHECK(rc == last_code, "%s returned %s, the handler saw code %d", what,
           mt_error_string(rc), last_code);
  expect_class(rc, MPI_ERR_IN_STATUS, what);
  calls_a = calls_b = 0;
  last_code = MPI_SUCCESS;
}

static void expect_status(const MPI_Status* status, int error_class,
                          const char* what) {
  expect_class(status->MPI_ERROR, error_class, what);
}

// A request that fits after a failed one in MPI_Waitall or MPI_Testall: it
// completed (MPI_SUCCESS) or the call stopped before it (MPI_ERR_PENDING,
// §3.7.5; MPICH does), and then it is still active and completes here.
static void expect_done_or_pending(MPI_Request* req, const MPI_Status* status,
                                   const char* what) {
  if (status->MPI_ERROR == MPI_ERR_PENDING) {
    MT_CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
    return;
  }
  expect_status(status, MPI_SUCCESS, what);
}

// Rank 0's side: the messages rank 1 receives in case `tag`.
static void send_case(int tag, MPI_Comm first, MPI_Comm second,
                      MPI_Comm third) {
  int data[kLong] = {1, 2, 3, 4};
  MT_CHECK_MPI(MPI_Send(data, kLong, MPI_INT, 1, tag, first));
  MT_CHECK_MPI(MPI_Send(data, kLong, MPI_INT, 1, tag, second));
  if (third != MPI_COMM_NULL) {
    MT_CHECK_MPI(MPI_Send(data, kLong, MPI_INT, 1, tag, third));
  }
}

// MPI_Waitall on [fits on a, truncated on b, fits on a]: raised on b, not
// on the communicator of the first request.
static void waitall_case(void) {
  int buf[3][kLong];
  MPI_Request reqs[3];
  MPI_Status statuses[3];
  MT_CHECK_MPI(MPI_Irecv(buf[0], kLong, MPI_INT, 0, 1, comm_a, &reqs[0]));
  MT_CHECK_MPI(MPI_Irecv(buf[1], kShort, MPI_INT, 0, 1, comm_b, &reqs[1]));
  MT_CHECK_MPI(MPI_Irecv(buf[2], kLong, MPI_INT, 0, 1, comm_a, &reqs[2]));
  const int rc = MPI_Waitall(3, reqs, statuses);
  expect_raised_on(comm_b, rc, "MPI_Waitall");
  expect_status(&statuses[0], MPI_SUCCESS, "MPI_Waitall, status 0");
  expect_status(&statuses[1], MPI_ERR_TRUNCATE, "MPI_Waitall, status 1");
  expect_done_or_pending(&reqs[2], &statuses[2], "MPI_Waitall, status 2");
}

// MPI_Testall on persistent receives [fits on b, truncated on a, fits on
// b]: raised on a.
static void testall_case(void) {
  int buf[3][kLong];
  MPI_Request reqs[3];
  MPI_Status statuses[3];
  MT_CHECK_MPI(MPI_Recv_init(buf[0], kLong, MPI_INT, 0, 2, comm_b, &reqs[0]));
  MT_CHECK_MPI(MPI_Recv_init(buf[1], kShort, MPI_INT, 0, 2, comm_a, &reqs[1]));
  MT_CHECK_MPI(MPI_Recv_init(buf[2], kLong, MPI_INT, 0, 2, comm_b, &reqs[2]));
  MT_CHECK_MPI(MPI_Startall(3, reqs));
  int flag = 0;
  int rc = MPI_SUCCESS;
  while (!flag && rc == MPI_SUCCESS) {
    rc = MPI_Testall(3, reqs, &flag, statuses);
  }
  expect_raised_on(comm_a, rc, "MPI_Testall");
  expect_status(&statuses[0], MPI_SUCCESS, "MPI_Testall, status 0");
  expect_status(&statuses[1], MPI_ERR_TRUNCATE, "MPI_Testall, status 1");
  expect_done_or_pending(&reqs[2], &statuses[2], "MPI_Testall, status 2");
  for (int i = 0; i < 3; ++i) {
    MT_CHECK_MPI(MPI_Request_free(&reqs[i]));
  }
}

// MPI_Waitsome or MPI_Testsome on [fits on `fits`, truncated on `cut`],
// called until both completed (in one call or two): raised on `cut` only.
static void some_case(int tag, int use_wait, MPI_Comm fits, MPI_Comm cut) {
  const char* what = use_wait ? "MPI_Waitsome" : "MPI_Testsome";
  int buf[2][kLong];
  MPI_Request reqs[2];
  MT_CHECK_MPI(MPI_Irecv(buf[0], kLong, MPI_INT, 0, tag, fits, &reqs[0]));
  MT_CHECK_MPI(MPI_Irecv(buf[1], kShort, MPI_INT, 0, tag, cut, &reqs[1]));
  int completed = 0;
  int failed_rc = MPI_SUCCESS;
  while (completed < 2) {
    int outcount = 0;
    int indices[2];
    MPI_Status statuses[2];
    const int rc = use_wait
                       ? MPI_Waitsome(2, reqs, &outcount, indices, statuses)
                       : MPI_Testsome(2, reqs, &outcount, indices, statuses);
    MT_CHECK(outcount != MPI_UNDEFINED, "%s: no active request left", what);
    if (rc != MPI_SUCCESS) {
      failed_rc = rc;
      for (int k = 0; k < outcount; ++k) {
        expect_status(&statuses[k],
                      indices[k] == 1 ? MPI_ERR_TRUNCATE : MPI_SUCCESS, what);
      }
    }
    completed += outcount;
  }
  expect_raised_on(cut, failed_rc, what);
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
    send_case(1, comm_a, comm_b, comm_a);
    send_case(2, comm_b, comm_a, comm_b);
    send_case(3, comm_b, comm_a, MPI_COMM_NULL);
    send_case(4, comm_a, comm_b, MPI_COMM_NULL);
  } else if (rank == 1) {
    waitall_case();
    testall_case();
    some_case(3, 1, comm_b, comm_a);
    some_case(4, 0, comm_a, comm_b);
  }
  MT_CHECK_MPI(MPI_Comm_free(&comm_a));
  MT_CHECK_MPI(MPI_Comm_free(&comm_b));
  MPI_Finalize();
  return 0;
}
