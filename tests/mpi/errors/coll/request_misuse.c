// SPDX-License-Identifier: MIT
// MPI 4.0 §6.12: "It is erroneous to call MPI_REQUEST_FREE or MPI_CANCEL
// for a request associated with a nonblocking collective operation";
// §6.13 says the same of persistent collectives, whose requests are freed
// when inactive, and §3.9 makes MPI_START of an active request erroneous.
// shmpi refuses each with MPI_ERR_REQUEST and the request stays usable:
// freeing it once the operation has completed is fine. Rank 0 joins each
// barrier only after the others tried, so theirs cannot have completed.
#include "mpitest.h"

// The ranks but 0 say they have tried their misuse; rank 0 hears all of
// them and returns true: its turn to join the operation.
static int others_tried(void) {
  if (mt_size() == 1) {
    return 0;
  }
  if (mt_rank() != 0) {
    MT_CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, 0, 0, MPI_COMM_WORLD));
    return 0;
  }
  for (int from = 1; from < mt_size(); ++from) {
    MT_CHECK_MPI(
        MPI_Recv(NULL, 0, MPI_INT, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  }
  return 1;
}

// An MPI_Ibarrier, or a start of the persistent barrier *req.
static void begin(int persistent, MPI_Request* req) {
  if (persistent) {
    MT_CHECK_MPI(MPI_Start(req));
  } else {
    MT_CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, req));
  }
}

static void misuse(int persistent) {
  const int rank = mt_rank();
  const int size = mt_size();
  const char* kind = persistent ? "persistent" : "nonblocking";
  MPI_Request req = MPI_REQUEST_NULL;
  if (persistent) {
    MT_CHECK_MPI(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    MT_EXPECT_CLASS(0, MPI_Cancel(&req), MPI_ERR_REQUEST,
                    "MPI_Cancel(inactive persistent barrier)");
  }
  if (rank != 0 || size == 1) {
    begin(persistent, &req);
    if (persistent) {
      MT_EXPECT_CLASS(0, MPI_Start(&req), MPI_ERR_REQUEST,
                      "MPI_Start(active persistent barrier)");
    }
    if (size > 1) {
      MT_EXPECT_CLASS(0, MPI_Request_free(&req), MPI_ERR_REQUEST,
                      "MPI_Request_free(running barrier)");
      MT_CHECK(req != MPI_REQUEST_NULL, "the refused free cleared the handle");
    }
    MT_EXPECT_CLASS(0, MPI_Cancel(&req), MPI_ERR_REQUEST,
                    "MPI_Cancel(running barrier)");
  }
  if (others_tried()) {
    begin(persistent, &req);
  }
  // Complete (at 1 rank, at once): the free is legal now.
  int done = 0;
  while (!done) {
    MT_CHECK_MPI(MPI_Request_get_status(req, &done, MPI_STATUS_IGNORE));
  }
  MT_CHECK_MPI(MPI_Request_free(&req));
  MT_CHECK(req == MPI_REQUEST_NULL, "MPI_Request_free left the %s handle",
           kind);
}

// MPI_Comm_idup is a nonblocking collective too. Rank 0 joins only after
// the others tried, so an idup that needs an agreement round is still
// running when they try to free it (one served from IDs in reserve may
// have completed at once: then the free is legal).
static void misuse_idup(void) {
  const int rank = mt_rank();
  const int size = mt_size();
  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Request req = MPI_REQUEST_NULL;
  if (rank != 0 || size == 1) {
    MT_CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req));
    MT_EXPECT_CLASS(0, MPI_Cancel(&req), MPI_ERR_REQUEST, "MPI_Cancel(idup)");
    int done = 0;
    MT_CHECK_MPI(MPI_Request_get_status(req, &done, MPI_STATUS_IGNORE));
    if (!done) {
      MT_EXPECT_CLASS(0, MPI_Request_free(&req), MPI_ERR_REQUEST,
                      "MPI_Request_free(running idup)");
      MT_CHECK(req != MPI_REQUEST_NULL, "the refused free cleared the handle");
    }
  }
  if (others_tried()) {
    MT_CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req));
  }
  MT_CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  MT_CHECK_MPI(MPI_Barrier(dup));
  MT_CHECK_MPI(MPI_Comm_free(&dup));
}

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  if (fatal) {
    // Only rank 0 makes the bad call; the others wait in MPI_Barrier.
    if (mt_rank() == 0) {
      int value = 0;
      MPI_Request req = MPI_REQUEST_NULL;
      MT_CHECK_MPI(MPI_Ibcast(&value, 1, MPI_INT, 0, MPI_COMM_SELF, &req));
      MT_EXPECT_CLASS(fatal, MPI_Cancel(&req), MPI_ERR_REQUEST,
                      "MPI_Cancel(nonblocking bcast)");
    }
    return mt_errors_finish(fatal);
  }
  misuse(0);
  misuse(1);
  misuse_idup();
  return mt_errors_finish(fatal);
}
