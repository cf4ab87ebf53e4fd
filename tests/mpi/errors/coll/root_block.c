// SPDX-License-Identifier: MIT
// The root's own block of a gather or scatter, fixed-size and v forms,
// blocking and nonblocking: when its receive side holds less than its send
// side, the call fails with MPI_ERR_TRUNCATE (a nonblocking call may
// report it at the call or at its completion). On MPI_COMM_SELF, so that
// the root is the only member and nobody waits for it. Matching sizes
// still work afterwards, in place and not. With args=fatal the default
// handler must end the job.
#include "mpitest.h"

// The error class of a nonblocking call: from the call, else from its wait.
static int nonblocking_class(int rc, MPI_Request* req) {
  if (rc == MPI_SUCCESS) {
    rc = MPI_Wait(req, MPI_STATUS_IGNORE);
  }
  return rc;
}

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int a[4] = {1, 2, 3, 4};
  int b[4] = {0};
  const int counts[1] = {1};
  const int bigger[1] = {2};
  const int displs[1] = {0};
  MPI_Request req = MPI_REQUEST_NULL;
  const MPI_Comm self = MPI_COMM_SELF;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Gather(a, 2, MPI_INT, b, 1, MPI_INT, 0, self),
                    MPI_ERR_TRUNCATE, "MPI_Gather(sendcount 2, recvcount 1)");
    MT_EXPECT_CLASS(fatal, MPI_Scatter(a, 2, MPI_INT, b, 1, MPI_INT, 0, self),
                    MPI_ERR_TRUNCATE, "MPI_Scatter(sendcount 2, recvcount 1)");
    MT_EXPECT_CLASS(
        fatal, MPI_Gatherv(a, 2, MPI_INT, b, counts, displs, MPI_INT, 0, self),
        MPI_ERR_TRUNCATE, "MPI_Gatherv(sendcount 2, recvcounts {1})");
    MT_EXPECT_CLASS(
        fatal, MPI_Scatterv(a, bigger, displs, MPI_INT, b, 1, MPI_INT, 0, self),
        MPI_ERR_TRUNCATE, "MPI_Scatterv(sendcounts {2}, recvcount 1)");
    MT_EXPECT_CLASS(
        fatal,
        nonblocking_class(
            MPI_Igather(a, 2, MPI_INT, b, 1, MPI_INT, 0, self, &req), &req),
        MPI_ERR_TRUNCATE, "MPI_Igather(sendcount 2, recvcount 1)");
    MT_EXPECT_CLASS(
        fatal,
        nonblocking_class(
            MPI_Iscatter(a, 2, MPI_INT, b, 1, MPI_INT, 0, self, &req), &req),
        MPI_ERR_TRUNCATE, "MPI_Iscatter(sendcount 2, recvcount 1)");
    // Matching sizes after the refused calls.
    MT_CHECK_MPI(MPI_Gather(a, 2, MPI_INT, b, 2, MPI_INT, 0, self));
    MT_CHECK(b[0] == 1 && b[1] == 2, "gather gave %d %d", b[0], b[1]);
    MT_CHECK_MPI(MPI_Scatter(a + 2, 2, MPI_INT, b, 2, MPI_INT, 0, self));
    MT_CHECK(b[0] == 3 && b[1] == 4, "scatter gave %d %d", b[0], b[1]);
    MT_CHECK_MPI(
        MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, 2, MPI_INT, 0, self));
    MT_CHECK_MPI(MPI_Scatter(b, 2, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL,
                             0, self));
    MT_CHECK(b[0] == 3 && b[1] == 4, "in place gave %d %d", b[0], b[1]);
    MT_CHECK_MPI(MPI_Igather(a, 1, MPI_INT, b, 1, MPI_INT, 0, self, &req));
    MT_CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MT_CHECK(b[0] == 1, "igather gave %d", b[0]);
  }
  return mt_errors_finish(fatal);
}
