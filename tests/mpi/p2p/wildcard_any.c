// SPDX-License-Identifier: MIT
// MPI 4.0 §3.5: "If a sender sends two messages in succession to the same
// destination, and both match the same receive, then this operation cannot
// receive the second message if the first one is still pending."
//
// Every other rank sends rank 0 a stream of messages with varying tags and
// sizes (small and large mixed); rank 0 receives them all with
// MPI_ANY_SOURCE and MPI_ANY_TAG and checks that each sender's messages come
// in the order they were sent, with the right status and content. Half the
// messages are sent before rank 0 receives anything, half while it does.
#include "mpitest.h"

enum { kTags = 5, kMaxLen = 40000 };

static size_t message_len(long seq) {
  static const size_t kLens[] = {8, 64, 8, 200, 8, 5000, 16, kMaxLen};
  return kLens[seq % 8];
}

static uint32_t message_seed(int sender, long seq) {
  return mt_seed((uint32_t)sender, 1, (uint32_t)seq, 0);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MT_CHECK(size >= 2, "needs at least 2 ranks");
  const long per_sender = mt_scale(2000) / (size - 1) + 1;

  if (rank != 0) {
    char* bufs = mt_malloc((size_t)per_sender * kMaxLen);
    MPI_Request* reqs = mt_malloc(sizeof(MPI_Request) * (size_t)per_sender);
    for (long seq = 0; seq < per_sender; ++seq) {
      if (seq == per_sender / 2) {
        MPI_Barrier(MPI_COMM_WORLD);
      }
      char* buf = bufs + (size_t)seq * kMaxLen;
      const int header[2] = {rank, (int)seq};
      memcpy(buf, header, sizeof header);
      mt_fill(buf + sizeof header, message_len(seq) - sizeof header,
              message_seed(rank, seq));
      MPI_Isend(buf, (int)message_len(seq), MPI_BYTE, 0, (int)(seq % kTags),
                MPI_COMM_WORLD, &reqs[seq]);
    }
    MPI_Waitall((int)per_sender, reqs, MPI_STATUSES_IGNORE);
    free(reqs);
    free(bufs);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    long* next = calloc((size_t)size, sizeof(long));
    char* buf = mt_malloc(kMaxLen + MT_GUARD_LEN);
    const long total = per_sender * (size - 1);
    for (long n = 0; n < total; ++n) {
      mt_fill_guard(buf, kMaxLen);
      MPI_Status status;
      MPI_Recv(buf, kMaxLen, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG,
               MPI_COMM_WORLD, &status);
      int header[2];
      memcpy(header, buf, sizeof header);
      const int sender = header[0];
      const long seq = header[1];
      MT_CHECK(sender == status.MPI_SOURCE && sender > 0 && sender < size,
               "message says it is from rank %d, status says %d", sender,
               status.MPI_SOURCE);
      MT_CHECK(seq == next[sender],
               "from rank %d got message %ld before message %ld", sender, seq,
               next[sender]);
      ++next[sender];
      int count = -1;
      MPI_Get_count(&status, MPI_BYTE, &count);
      MT_CHECK(status.MPI_TAG == (int)(seq % kTags) &&
                   count == (int)message_len(seq),
               "message %ld from rank %d: tag %d count %d", seq, sender,
               status.MPI_TAG, count);
      MT_CHECK_PATTERN(buf + sizeof header, message_len(seq) - sizeof header,
                       message_seed(sender, seq), "wildcard receive");
      MT_CHECK_GUARD(buf, message_len(seq), "wildcard receive");
    }
    free(buf);
    free(next);
  }
  MPI_Finalize();
  return 0;
}
