// SPDX-License-Identifier: MIT
// MPI 4.0 §3.8.4: "If a communication is marked for cancellation, then a
// MPI_WAIT call for that communication is guaranteed to return ... either
// the cancellation succeeds, or the communication succeeds, but not both";
// a cancelled receive does not consume a message.
//
// Rank 0 posts receives (specific source, MPI_ANY_SOURCE, MPI_ANY_TAG, small
// and large buffers) that no message can have matched yet, cancels them and
// waits: MPI_Test_cancelled must say true. Only then does rank 1 send; the
// messages must go to the receives rank 0 posts next.
#include "mpitest.h"

enum { kGoTag = 9, kCases = 4 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  MT_CHECK(mt_size() >= 2, "needs at least 2 ranks");
  const size_t kLens[kCases] = {8, 0, 100000, 4096};
  const size_t kMax = 100000;
  char* buf = mt_malloc(kMax + MT_GUARD_LEN);
  const long iterations = mt_scale(20);

  for (long iter = 0; iter < iterations; ++iter) {
    if (rank == 0) {
      const int sources[kCases] = {1, MPI_ANY_SOURCE, 1, MPI_ANY_SOURCE};
      const int tags[kCases] = {0, 1, MPI_ANY_TAG, MPI_ANY_TAG};
      MPI_Request reqs[kCases];
      for (int c = 0; c < kCases; ++c) {
        MPI_Irecv(buf, (int)kMax, MPI_BYTE, sources[c], tags[c], MPI_COMM_WORLD,
                  &reqs[c]);
      }
      for (int c = 0; c < kCases; ++c) {
        MPI_Cancel(&reqs[c]);
        MPI_Status status;
        MPI_Wait(&reqs[c], &status);
        MT_CHECK(reqs[c] == MPI_REQUEST_NULL,
                 "MPI_Wait did not free a cancelled request");
        int cancelled = 0;
        MPI_Test_cancelled(&status, &cancelled);
        MT_CHECK(cancelled, "receive %d (source %d, tag %d) was not cancelled",
                 c, sources[c], tags[c]);
      }
      MPI_Send(NULL, 0, MPI_BYTE, 1, kGoTag, MPI_COMM_WORLD);
      for (int c = 0; c < kCases; ++c) {
        mt_fill_guard(buf, kLens[c]);
        MPI_Status status;
        MPI_Recv(buf, (int)kMax, MPI_BYTE, 1, c, MPI_COMM_WORLD, &status);
        int count = -1;
        MPI_Get_count(&status, MPI_BYTE, &count);
        MT_CHECK(count == (int)kLens[c],
                 "after the cancel, message %d has %d bytes, expected %zu", c,
                 count, kLens[c]);
        int cancelled = 1;
        MPI_Test_cancelled(&status, &cancelled);
        MT_CHECK(!cancelled, "a received message's status says cancelled");
        MT_CHECK_PATTERN(buf, kLens[c],
                         mt_seed((uint32_t)iter, (uint32_t)c, 3, 3),
                         "message sent after a cancelled receive");
        MT_CHECK_GUARD(buf, kLens[c], "message sent after a cancelled receive");
      }
    } else if (rank == 1) {
      MPI_Recv(NULL, 0, MPI_BYTE, 0, kGoTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int c = 0; c < kCases; ++c) {
        mt_fill(buf, kLens[c], mt_seed((uint32_t)iter, (uint32_t)c, 3, 3));
        MPI_Send(buf, (int)kLens[c], MPI_BYTE, 0, c, MPI_COMM_WORLD);
      }
    }
  }

  // Cancelling a receive whose message has already arrived: either the
  // receive got the message (the cancel failed), or the cancel succeeded and
  // the message is still there for the next receive; never both or neither.
  if (rank == 1) {
    const int value = 12345;
    MPI_Send(&value, 1, MPI_INT, 0, 20, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Status status;
    MPI_Probe(1, 20, MPI_COMM_WORLD, &status);  // it has arrived
    int value = 0;
    MPI_Request req;
    MPI_Irecv(&value, 1, MPI_INT, 1, 20, MPI_COMM_WORLD, &req);
    MPI_Cancel(&req);
    MPI_Wait(&req, &status);
    int cancelled = 0;
    MPI_Test_cancelled(&status, &cancelled);
    if (cancelled) {
      // Allowed only if the message is still there for another receive.
      MPI_Recv(&value, 1, MPI_INT, 1, 20, MPI_COMM_WORLD, &status);
    }
    MT_CHECK(value == 12345, "message lost after a cancel: got %d", value);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
