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
#include "mt_counted_handlers.h"

enum { kLong = 4, kShort = 2 };

// After one completion call (or a run of them) that failed: the handler of
// `on` (the communicator of the first failed request) ran once, the other
// one never, and the call returned MPI_ERR_IN_STATUS, the handler's code.
static void expect_raised_on(MPI_Comm on, int rc, const char* what) {
  mt_expect_raised_on(on, rc, MPI_ERR_IN_STATUS, what);
}

static void expect_status(const MPI_Status* status, int error_class,
                          const char* what) {
  mt_expect_class(status->MPI_ERROR, error_class, what);
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
  MT_CHECK_MPI(MPI_Irecv(buf[0], kLong, MPI_INT, 0, 1, mt_comm_a, &reqs[0]));
  MT_CHECK_MPI(MPI_Irecv(buf[1], kShort, MPI_INT, 0, 1, mt_comm_b, &reqs[1]));
  MT_CHECK_MPI(MPI_Irecv(buf[2], kLong, MPI_INT, 0, 1, mt_comm_a, &reqs[2]));
  const int rc = MPI_Waitall(3, reqs, statuses);
  expect_raised_on(mt_comm_b, rc, "MPI_Waitall");
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
  MT_CHECK_MPI(
      MPI_Recv_init(buf[0], kLong, MPI_INT, 0, 2, mt_comm_b, &reqs[0]));
  MT_CHECK_MPI(
      MPI_Recv_init(buf[1], kShort, MPI_INT, 0, 2, mt_comm_a, &reqs[1]));
  MT_CHECK_MPI(
      MPI_Recv_init(buf[2], kLong, MPI_INT, 0, 2, mt_comm_b, &reqs[2]));
  MT_CHECK_MPI(MPI_Startall(3, reqs));
  int flag = 0;
  int rc = MPI_SUCCESS;
  while (!flag && rc == MPI_SUCCESS) {
    rc = MPI_Testall(3, reqs, &flag, statuses);
  }
  expect_raised_on(mt_comm_a, rc, "MPI_Testall");
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
  mt_counted_comms_create();

  const int rank = mt_rank();
  if (rank == 0) {
    send_case(1, mt_comm_a, mt_comm_b, mt_comm_a);
    send_case(2, mt_comm_b, mt_comm_a, mt_comm_b);
    send_case(3, mt_comm_b, mt_comm_a, MPI_COMM_NULL);
    send_case(4, mt_comm_a, mt_comm_b, MPI_COMM_NULL);
  } else if (rank == 1) {
    waitall_case();
    testall_case();
    some_case(3, 1, mt_comm_b, mt_comm_a);
    some_case(4, 0, mt_comm_a, mt_comm_b);
  }
  mt_counted_comms_free();
  MPI_Finalize();
  return 0;
}
