// SPDX-License-Identifier: MIT
// MPI 4.0 §3.4: a synchronous send "will complete successfully only if a
// matching receive is posted, and the receive operation has started to
// receive the message".
//
// Rank 0 starts an MPI_Issend. Rank 1 probes the message (a probe does not
// match it) and then tells rank 0 so with another message; from then on rank
// 0 polls MPI_Test, which must keep saying "not complete", because rank 1
// posts its receive only after a third message from rank 0 tells it to.
// Then the send must complete. Likewise a blocking MPI_Ssend must not return
// (and so let rank 0 send a second message) before rank 1 posts its receive.
// Small (eager-sized) and large messages.
#include "mpitest.h"

enum { kDataTag = 1, kProbedTag = 2, kGoTag = 3 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  MT_CHECK(mt_size() >= 2, "needs at least 2 ranks");
  static const size_t kSizes[] = {0, 8, 64, 4096, (1 << 20) + 7};
  const size_t kMax = (1 << 20) + 7;
  char* buf = mt_malloc(kMax + MT_GUARD_LEN);
  const long polls = mt_scale(2000);

  for (size_t s = 0; s < sizeof kSizes / sizeof kSizes[0]; ++s) {
    const size_t len = kSizes[s];
    const uint32_t seed = mt_seed(7, 7, (uint32_t)len, 0);
    if (rank == 0) {
      mt_fill(buf, len, seed);
      MPI_Request req;
      MPI_Issend(buf, (int)len, MPI_BYTE, 1, kDataTag, MPI_COMM_WORLD, &req);
      MPI_Recv(NULL, 0, MPI_BYTE, 1, kProbedTag, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      for (long i = 0; i < polls; ++i) {
        int done = 1;
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        MT_CHECK(!done,
                 "MPI_Issend of %zu bytes completed before the receiver "
                 "posted a matching receive (poll %ld)",
                 len, i);
        if (i % 100 == 99) {
          mt_sleep_ms(1);  // give the receiver time to misbehave
        }
      }
      MPI_Send(NULL, 0, MPI_BYTE, 1, kGoTag, MPI_COMM_WORLD);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Status status;
      MPI_Probe(0, kDataTag, MPI_COMM_WORLD, &status);
      int count = -1;
      MPI_Get_count(&status, MPI_BYTE, &count);
      MT_CHECK(count == (int)len, "probe says %d bytes, expected %zu", count,
               len);
      MPI_Send(NULL, 0, MPI_BYTE, 0, kProbedTag, MPI_COMM_WORLD);
      MPI_Recv(NULL, 0, MPI_BYTE, 0, kGoTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      mt_fill_guard(buf, len);
      MPI_Recv(buf, (int)len, MPI_BYTE, 0, kDataTag, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      MT_CHECK_PATTERN(buf, len, seed, "synchronous send");
      MT_CHECK_GUARD(buf, len, "synchronous send");
    }
  }

  // Blocking MPI_Ssend: rank 0 sends a second message only after MPI_Ssend
  // returned, so rank 1 must not see it before posting the first receive.
  for (size_t s = 0; s < sizeof kSizes / sizeof kSizes[0]; ++s) {
    const size_t len = kSizes[s];
    const uint32_t seed = mt_seed(8, 8, (uint32_t)len, 0);
    if (rank == 0) {
      mt_fill(buf, len, seed);
      MPI_Ssend(buf, (int)len, MPI_BYTE, 1, kDataTag, MPI_COMM_WORLD);
      MPI_Send(NULL, 0, MPI_BYTE, 1, kGoTag, MPI_COMM_WORLD);
    } else if (rank == 1) {
      for (long i = 0; i < polls / 20; ++i) {
        int arrived = 1;
        MPI_Iprobe(0, kGoTag, MPI_COMM_WORLD, &arrived, MPI_STATUS_IGNORE);
        MT_CHECK(!arrived,
                 "MPI_Ssend of %zu bytes returned before the receiver posted "
                 "a matching receive",
                 len);
        mt_sleep_ms(1);
      }
      mt_fill_guard(buf, len);
      MPI_Recv(buf, (int)len, MPI_BYTE, 0, kDataTag, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      MT_CHECK_PATTERN(buf, len, seed, "MPI_Ssend");
      MT_CHECK_GUARD(buf, len, "MPI_Ssend");
      MPI_Recv(NULL, 0, MPI_BYTE, 0, kGoTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
