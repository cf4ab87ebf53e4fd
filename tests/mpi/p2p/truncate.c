// SPDX-License-Identifier: MIT
// MPI 4.0 §3.2.4: "If a message that is longer than the receive buffer
// arrives, then an overflow occurs ... the receive operation returns an
// error code with class MPI_ERR_TRUNCATE" (here under MPI_ERRORS_RETURN).
//
// Rank 1 sends rank 0 messages longer than rank 0's receive buffers, small
// and large, received with MPI_Recv, MPI_Irecv + MPI_Wait and MPI_Irecv +
// MPI_Waitall (MPI_ERR_IN_STATUS, the class in the status's MPI_ERROR). After
// each truncation the next message must still arrive intact.
#include "mpitest.h"

enum { kFollowTag = 99 };

static void expect_truncate(int rc, const char* what) {
  MT_CHECK(rc != MPI_SUCCESS, "%s: a too-long message was accepted", what);
  int error_class = -1;
  MPI_Error_class(rc, &error_class);
  MT_CHECK(error_class == MPI_ERR_TRUNCATE,
           "%s: class %s, expected "
           "MPI_ERR_TRUNCATE (%s)",
           what, mt_class_name(error_class), mt_error_string(rc));
}

// The message after a truncated one arrives normally.
static void receive_follow_up(size_t len, uint32_t seed, char* buf) {
  mt_fill_guard(buf, len);
  MPI_Status status;
  MT_CHECK_MPI(MPI_Recv(buf, (int)len, MPI_BYTE, 1, kFollowTag, MPI_COMM_WORLD,
                        &status));
  MT_CHECK_PATTERN(buf, len, seed, "message after a truncated one");
  MT_CHECK_GUARD(buf, len, "message after a truncated one");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int rank = mt_rank();
  MT_CHECK(mt_size() >= 2, "needs at least 2 ranks");
  // (message length, receive buffer length)
  static const size_t kCases[][2] = {
      {40, 8}, {1, 0}, {4096, 4095}, {1 << 20, 65536}, {300000, 1}};
  enum { kCaseCount = sizeof kCases / sizeof kCases[0] };
  enum { kWays = 3 };  // Recv, Irecv + Wait, Irecv + Waitall
  const size_t kMax = 1 << 20;
  char* buf = mt_malloc(kMax + MT_GUARD_LEN);

  for (int c = 0; c < kCaseCount; ++c) {
    for (int way = 0; way < kWays; ++way) {
      const size_t msg_len = kCases[c][0];
      const size_t recv_len = kCases[c][1];
      const uint32_t seed = mt_seed((uint32_t)c, (uint32_t)way, 5, 5);
      const int tag = c * kWays + way;
      if (rank == 1) {
        mt_fill(buf, msg_len, seed);
        // The send side completes normally: truncation is the receiver's.
        MT_CHECK_MPI(
            MPI_Send(buf, (int)msg_len, MPI_BYTE, 0, tag, MPI_COMM_WORLD));
        mt_fill(buf, 64, seed + 1);
        MT_CHECK_MPI(
            MPI_Send(buf, 64, MPI_BYTE, 0, kFollowTag, MPI_COMM_WORLD));
      } else if (rank == 0) {
        char what[96];
        MPI_Status status;
        MPI_Request req;
        int rc;
        if (way == 0) {
          snprintf(what, sizeof what, "MPI_Recv of %zu bytes into %zu", msg_len,
                   recv_len);
          rc = MPI_Recv(buf, (int)recv_len, MPI_BYTE, 1, tag, MPI_COMM_WORLD,
                        &status);
          expect_truncate(rc, what);
        } else if (way == 1) {
          snprintf(what, sizeof what, "MPI_Wait on %zu bytes into %zu", msg_len,
                   recv_len);
          MT_CHECK_MPI(MPI_Irecv(buf, (int)recv_len, MPI_BYTE, 1, tag,
                                 MPI_COMM_WORLD, &req));
          rc = MPI_Wait(&req, &status);
          expect_truncate(rc, what);
          MT_CHECK(req == MPI_REQUEST_NULL, "%s: request not freed", what);
        } else {
          snprintf(what, sizeof what, "MPI_Waitall on %zu bytes into %zu",
                   msg_len, recv_len);
          MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
          MPI_Status statuses[2];
          MT_CHECK_MPI(MPI_Irecv(buf, (int)recv_len, MPI_BYTE, 1, tag,
                                 MPI_COMM_WORLD, &reqs[1]));
          rc = MPI_Waitall(2, reqs, statuses);
          int error_class = -1;
          MPI_Error_class(rc, &error_class);
          MT_CHECK(error_class == MPI_ERR_IN_STATUS,
                   "%s returned class %s, expected MPI_ERR_IN_STATUS", what,
                   mt_class_name(error_class));
          expect_truncate(statuses[1].MPI_ERROR, what);
          MT_CHECK(statuses[1].MPI_SOURCE == 1 && statuses[1].MPI_TAG == tag,
                   "%s: status source %d tag %d", what, statuses[1].MPI_SOURCE,
                   statuses[1].MPI_TAG);
        }
        receive_follow_up(64, seed + 1, buf);
      }
    }
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
