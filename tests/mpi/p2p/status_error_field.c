// SPDX-License-Identifier: MIT
// MPI 4.0 §3.2.5: "In general, message-passing calls do not modify the value
// of the error code field of status variables. This field may be updated
// only by the functions in Section 3.7.5 which return multiple statuses. The
// field is updated if and only if such function returns with an error code
// of MPI_ERR_IN_STATUS." (§3.7.5 then sets it in every status: MPI_SUCCESS,
// the operation's error, or MPI_ERR_PENDING.)
//
// Rank 1 puts a marker into MPI_ERROR before each call that returns a
// status and checks it is still there afterwards: receives that succeed,
// that are truncated (the error is returned, not stored) and from
// MPI_PROC_NULL, probes, MPI_Sendrecv, every completion call on success
// and the single-status ones on truncation. Then the multiple-status calls
// that return MPI_ERR_IN_STATUS must have set every status they returned.
//
// MPICH 4.0.2 sets MPI_ERROR in MPI_Probe, MPI_Iprobe and a successful
// MPI_Waitall.
#include "mpitest.h"

enum { kMarker = 12345, kLong = 4, kShort = 2 };

// Messages rank 1 receives (one tag each): receives() 3, probes() 1,
// single_completions() 5 twice, multiple_successes() 8 and
// multiple_failures() 4.
enum { kMessages = 3 + 1 + 2 * 5 + 8 + 4 };

static void mark(MPI_Status* status) { status->MPI_ERROR = kMarker; }

static void expect_untouched(const MPI_Status* status, const char* what) {
  MT_CHECK(status->MPI_ERROR == kMarker,
           "%s: MPI_ERROR changed to %d; only a multiple-completion call "
           "returning MPI_ERR_IN_STATUS may set it",
           what, status->MPI_ERROR);
}

static void expect_class(int code, int expected, const char* what) {
  int error_class = -1;
  MT_CHECK_MPI(MPI_Error_class(code, &error_class));
  MT_CHECK(error_class == expected, "%s: class %s, expected %s (%s)", what,
           mt_class_name(error_class), mt_class_name(expected),
           mt_error_string(code));
}

// Rank 0 sends every message of rank 1's checks, in tag order.
static int next_tag = 0;

static int take_tag(void) { return next_tag++; }

static void receives(void) {
  int buf[kLong];
  MPI_Status status;
  mark(&status);
  MT_CHECK_MPI(
      MPI_Recv(buf, kLong, MPI_INT, 0, take_tag(), MPI_COMM_WORLD, &status));
  expect_untouched(&status, "MPI_Recv");

  mark(&status);
  const int rc =
      MPI_Recv(buf, kShort, MPI_INT, 0, take_tag(), MPI_COMM_WORLD, &status);
  expect_class(rc, MPI_ERR_TRUNCATE, "truncated MPI_Recv");
  expect_untouched(&status, "truncated MPI_Recv");

  mark(&status);
  MT_CHECK_MPI(
      MPI_Recv(buf, kLong, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &status));
  expect_untouched(&status, "MPI_Recv from MPI_PROC_NULL");

  mark(&status);
  MT_CHECK_MPI(MPI_Sendrecv(buf, 1, MPI_INT, MPI_PROC_NULL, 0, buf, kLong,
                            MPI_INT, 0, take_tag(), MPI_COMM_WORLD, &status));
  expect_untouched(&status, "MPI_Sendrecv");
}

static void probes(void) {
  int buf[kLong];
  MPI_Status status;
  const int tag = take_tag();
  mark(&status);
  MT_CHECK_MPI(MPI_Probe(0, tag, MPI_COMM_WORLD, &status));
  expect_untouched(&status, "MPI_Probe");
  int flag = 0;
  mark(&status);
  MT_CHECK_MPI(MPI_Iprobe(0, tag, MPI_COMM_WORLD, &flag, &status));
  MT_CHECK(flag, "MPI_Iprobe missed the message MPI_Probe found");
  expect_untouched(&status, "MPI_Iprobe");
  MPI_Message message;
  mark(&status);
  MT_CHECK_MPI(MPI_Mprobe(0, tag, MPI_COMM_WORLD, &message, &status));
  expect_untouched(&status, "MPI_Mprobe");
  mark(&status);
  MT_CHECK_MPI(MPI_Mrecv(buf, kLong, MPI_INT, &message, &status));
  expect_untouched(&status, "MPI_Mrecv");
}

// The single-status completion calls, on a receive that fits and on one
// that is truncated (`len` kShort).
static void single_completions(int len) {
  const int truncated = len == kShort;
  const int expected = truncated ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
  int buf[kLong];
  MPI_Request req;
  MPI_Status status;
  char what[64];

  MT_CHECK_MPI(
      MPI_Irecv(buf, len, MPI_INT, 0, take_tag(), MPI_COMM_WORLD, &req));
  mark(&status);
  expect_class(MPI_Wait(&req, &status), expected, "MPI_Wait");
  snprintf(what, sizeof what, "MPI_Wait (%s)", truncated ? "truncated" : "ok");
  expect_untouched(&status, what);

  MT_CHECK_MPI(
      MPI_Irecv(buf, len, MPI_INT, 0, take_tag(), MPI_COMM_WORLD, &req));
  int flag = 0;
  int rc = MPI_SUCCESS;
  while (!flag) {
    mark(&status);
    rc = MPI_Test(&req, &flag, &status);
  }
  expect_class(rc, expected, "MPI_Test");
  snprintf(what, sizeof what, "MPI_Test (%s)", truncated ? "truncated" : "ok");
  expect_untouched(&status, what);

  MT_CHECK_MPI(
      MPI_Irecv(buf, len, MPI_INT, 0, take_tag(), MPI_COMM_WORLD, &req));
  int index = -1;
  mark(&status);
  expect_class(MPI_Waitany(1, &req, &index, &status), expected, "MPI_Waitany");
  snprintf(what, sizeof what, "MPI_Waitany (%s)",
           truncated ? "truncated" : "ok");
  expect_untouched(&status, what);

  MT_CHECK_MPI(
      MPI_Irecv(buf, len, MPI_INT, 0, take_tag(), MPI_COMM_WORLD, &req));
  flag = 0;
  while (!flag) {
    mark(&status);
    rc = MPI_Testany(1, &req, &index, &flag, &status);
  }
  expect_class(rc, expected, "MPI_Testany");
  snprintf(what, sizeof what, "MPI_Testany (%s)",
           truncated ? "truncated" : "ok");
  expect_untouched(&status, what);

  MT_CHECK_MPI(
      MPI_Irecv(buf, len, MPI_INT, 0, take_tag(), MPI_COMM_WORLD, &req));
  flag = 0;
  while (!flag) {
    mark(&status);
    rc = MPI_Request_get_status(req, &flag, &status);
    // Whether it reports the operation's error is not specified (shmpi
    // does not, MPICH does); the request's completion call does.
    MT_CHECK(rc == MPI_SUCCESS || (truncated && flag),
             "MPI_Request_get_status returned %s", mt_error_string(rc));
  }
  snprintf(what, sizeof what, "MPI_Request_get_status (%s)",
           truncated ? "truncated" : "ok");
  expect_untouched(&status, what);
  mark(&status);
  expect_class(MPI_Wait(&req, &status), expected, "MPI_Wait");
  expect_untouched(&status, what);
}

// The multiple-status completion calls, all requests successful: the
// statuses keep their marker. Slot 1 holds MPI_REQUEST_NULL for Waitall and
// Testall, which return an empty status there; §3.7.3 defines it with
// "error = MPI_SUCCESS" (shmpi sets it, MPICH 4.0.2 leaves the field alone
// under §3.2.5's general rule), so only its source and tag are checked.
static void multiple_successes(void) {
  int buf[2][kLong];
  MPI_Request reqs[3];
  MPI_Status statuses[3];

  MT_CHECK_MPI(MPI_Irecv(buf[0], kLong, MPI_INT, 0, take_tag(), MPI_COMM_WORLD,
                         &reqs[0]));
  reqs[1] = MPI_REQUEST_NULL;
  MT_CHECK_MPI(MPI_Irecv(buf[1], kLong, MPI_INT, 0, take_tag(), MPI_COMM_WORLD,
                         &reqs[2]));
  for (int i = 0; i < 3; ++i) {
    mark(&statuses[i]);
  }
  MT_CHECK_MPI(MPI_Waitall(3, reqs, statuses));
  expect_untouched(&statuses[0], "MPI_Waitall, status 0");
  MT_CHECK(statuses[1].MPI_SOURCE == MPI_ANY_SOURCE &&
               statuses[1].MPI_TAG == MPI_ANY_TAG,
           "MPI_Waitall: MPI_REQUEST_NULL's status is not empty");
  expect_untouched(&statuses[2], "MPI_Waitall, status 2");

  MT_CHECK_MPI(MPI_Irecv(buf[0], kLong, MPI_INT, 0, take_tag(), MPI_COMM_WORLD,
                         &reqs[0]));
  MT_CHECK_MPI(MPI_Irecv(buf[1], kLong, MPI_INT, 0, take_tag(), MPI_COMM_WORLD,
                         &reqs[2]));
  int flag = 0;
  while (!flag) {
    for (int i = 0; i < 3; ++i) {
      mark(&statuses[i]);
    }
    MT_CHECK_MPI(MPI_Testall(3, reqs, &flag, statuses));
  }
  expect_untouched(&statuses[0], "MPI_Testall, status 0");
  expect_untouched(&statuses[2], "MPI_Testall, status 2");

  for (int use_wait = 1; use_wait >= 0; --use_wait) {
    const char* what = use_wait ? "MPI_Waitsome" : "MPI_Testsome";
    MT_CHECK_MPI(MPI_Irecv(buf[0], kLong, MPI_INT, 0, take_tag(),
                           MPI_COMM_WORLD, &reqs[0]));
    MT_CHECK_MPI(MPI_Irecv(buf[1], kLong, MPI_INT, 0, take_tag(),
                           MPI_COMM_WORLD, &reqs[1]));
    int completed = 0;
    while (completed < 2) {
      int outcount = 0;
      int indices[2];
      mark(&statuses[0]);
      mark(&statuses[1]);
      MT_CHECK_MPI(use_wait
                       ? MPI_Waitsome(2, reqs, &outcount, indices, statuses)
                       : MPI_Testsome(2, reqs, &outcount, indices, statuses));
      for (int k = 0; k < outcount; ++k) {
        expect_untouched(&statuses[k], what);
      }
      completed += outcount;
    }
  }
}

// MPI_Waitall and MPI_Waitsome on [fits, truncated]: MPI_ERR_IN_STATUS, and
// every returned status carries its own error.
static void multiple_failures(void) {
  int buf[2][kLong];
  MPI_Request reqs[2];
  MPI_Status statuses[2];

  MT_CHECK_MPI(MPI_Irecv(buf[0], kLong, MPI_INT, 0, take_tag(), MPI_COMM_WORLD,
                         &reqs[0]));
  MT_CHECK_MPI(MPI_Irecv(buf[1], kShort, MPI_INT, 0, take_tag(), MPI_COMM_WORLD,
                         &reqs[1]));
  mark(&statuses[0]);
  mark(&statuses[1]);
  expect_class(MPI_Waitall(2, reqs, statuses), MPI_ERR_IN_STATUS,
               "MPI_Waitall");
  expect_class(statuses[0].MPI_ERROR, MPI_SUCCESS, "MPI_Waitall, status 0");
  expect_class(statuses[1].MPI_ERROR, MPI_ERR_TRUNCATE,
               "MPI_Waitall, status 1");

  MT_CHECK_MPI(MPI_Irecv(buf[0], kLong, MPI_INT, 0, take_tag(), MPI_COMM_WORLD,
                         &reqs[0]));
  MT_CHECK_MPI(MPI_Irecv(buf[1], kShort, MPI_INT, 0, take_tag(), MPI_COMM_WORLD,
                         &reqs[1]));
  int completed = 0;
  int failures = 0;
  while (completed < 2) {
    int outcount = 0;
    int indices[2];
    mark(&statuses[0]);
    mark(&statuses[1]);
    const int rc = MPI_Waitsome(2, reqs, &outcount, indices, statuses);
    if (rc == MPI_SUCCESS) {
      for (int k = 0; k < outcount; ++k) {
        expect_untouched(&statuses[k], "successful MPI_Waitsome");
      }
    } else {
      expect_class(rc, MPI_ERR_IN_STATUS, "MPI_Waitsome");
      failures++;
      for (int k = 0; k < outcount; ++k) {
        expect_class(statuses[k].MPI_ERROR,
                     indices[k] == 1 ? MPI_ERR_TRUNCATE : MPI_SUCCESS,
                     "MPI_Waitsome after MPI_ERR_IN_STATUS");
      }
    }
    completed += outcount;
  }
  MT_CHECK(failures == 1, "MPI_Waitsome reported the truncation %d times",
           failures);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MT_CHECK(mt_size() >= 2, "needs at least 2 ranks");
  MT_CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  MT_CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  const int rank = mt_rank();
  if (rank == 0) {
    int data[kLong] = {1, 2, 3, 4};
    for (int tag = 0; tag < kMessages; ++tag) {
      MT_CHECK_MPI(MPI_Send(data, kLong, MPI_INT, 1, tag, MPI_COMM_WORLD));
    }
  } else if (rank == 1) {
    receives();
    probes();
    single_completions(kLong);
    single_completions(kShort);
    multiple_successes();
    multiple_failures();
    MT_CHECK(next_tag == kMessages, "took %d tags; rank 0 sends kMessages (%d)",
             next_tag, kMessages);
  }
  MPI_Finalize();
  return 0;
}
