// SPDX-License-Identifier: MIT
// MPI 4.0 §3.10: "The send-receive operations combine in one call the
// sending of a message to one destination and the receiving of another
// message, from another process."
//
// A shift around the ring (send right, receive from the left) at every test
// size, with content and status checks; then a send-receive with oneself.
#include "mpitest.h"

static const size_t kSizes[] = {0,    1,    63,    64,           65,
                                4095, 4096, 65536, (1 << 20) + 7};
enum { kSizeCount = sizeof kSizes / sizeof kSizes[0] };
static const size_t kMaxSize = (1 << 20) + 7;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  char* send_buf = mt_malloc(kMaxSize);
  char* recv_buf = mt_malloc(kMaxSize + MT_GUARD_LEN);
  const long iterations = mt_scale(3);
  for (long iter = 0; iter < iterations; ++iter) {
    for (int s = 0; s < kSizeCount; ++s) {
      const size_t len = kSizes[s];
      mt_fill(send_buf, len,
              mt_seed((uint32_t)rank, (uint32_t)right, (uint32_t)len,
                      (uint32_t)iter));
      mt_fill_guard(recv_buf, len);
      MPI_Status status;
      // Different send and receive tags: each must be matched on its own.
      MPI_Sendrecv(send_buf, (int)len, MPI_BYTE, right, s, recv_buf, (int)len,
                   MPI_BYTE, left, s, MPI_COMM_WORLD, &status);
      int count = -1;
      MPI_Get_count(&status, MPI_BYTE, &count);
      MT_CHECK(
          status.MPI_SOURCE == left && status.MPI_TAG == s && count == (int)len,
          "status %d/%d/%d, expected %d/%d/%zu", status.MPI_SOURCE,
          status.MPI_TAG, count, left, s, len);
      MT_CHECK_PATTERN(recv_buf, len,
                       mt_seed((uint32_t)left, (uint32_t)rank, (uint32_t)len,
                               (uint32_t)iter),
                       "sendrecv from the left");
      MT_CHECK_GUARD(recv_buf, len, "sendrecv from the left");
    }
  }

  // With oneself: the send and the receive of one call match each other.
  const size_t len = 65536;
  mt_fill(send_buf, len, mt_seed((uint32_t)rank, (uint32_t)rank, 7, 7));
  mt_fill_guard(recv_buf, len);
  MPI_Sendrecv(send_buf, (int)len, MPI_BYTE, rank, 5, recv_buf, (int)len,
               MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MT_CHECK_PATTERN(recv_buf, len, mt_seed((uint32_t)rank, (uint32_t)rank, 7, 7),
                   "sendrecv with oneself");
  MT_CHECK_GUARD(recv_buf, len, "sendrecv with oneself");

  free(recv_buf);
  free(send_buf);
  MPI_Finalize();
  return 0;
}
