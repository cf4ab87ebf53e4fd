// SPDX-License-Identifier: MIT
// MPI 4.0 §3.5: "Messages are non-overtaking: If a sender sends two messages
// in succession to the same destination, and both match the same receive,
// then this operation cannot receive the second message if the first one is
// still pending."
//
// 10,000 messages (split among the senders) are all sent to rank 0 before
// it posts a single receive (a barrier separates the two), so they queue as
// unexpected; rank 0 then receives them in order with a specific source and
// tag, and checks each one's sequence number and content.
#include "mpitest.h"

enum { kTotal = 10000, kTags = 3 };

static size_t message_len(long seq) {
  if (seq % 2500 == 1249) {
    return 70000;  // a few large ones among the small
  }
  if (seq % 1000 == 499) {
    return 5000;
  }
  return 8 + 4 * (size_t)(seq % 15);  // 8..64 bytes
}

static uint32_t message_seed(int sender, long seq) {
  return mt_seed((uint32_t)sender, 0, (uint32_t)seq, 11);
}

// A message holds [sender, seq] followed by its pattern.
static void fill_message(char* buf, int sender, long seq) {
  const int header[2] = {sender, (int)seq};
  memcpy(buf, header, sizeof header);
  mt_fill(buf + sizeof header, message_len(seq) - sizeof header,
          message_seed(sender, seq));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MT_CHECK(size >= 2, "needs at least 2 ranks");
  const long per_sender = (mt_scale(kTotal) + size - 2) / (size - 1);

  if (rank != 0) {
    size_t total_len = 0;
    for (long seq = 0; seq < per_sender; ++seq) {
      total_len += message_len(seq);
    }
    char* bufs = mt_malloc(total_len);
    MPI_Request* reqs = mt_malloc(sizeof(MPI_Request) * (size_t)per_sender);
    size_t offset = 0;
    for (long seq = 0; seq < per_sender; ++seq) {
      fill_message(bufs + offset, rank, seq);
      MPI_Isend(bufs + offset, (int)message_len(seq), MPI_BYTE, 0,
                (int)(seq % kTags), MPI_COMM_WORLD, &reqs[seq]);
      offset += message_len(seq);
    }
    MPI_Barrier(MPI_COMM_WORLD);  // every send is posted before any receive
    MPI_Waitall((int)per_sender, reqs, MPI_STATUSES_IGNORE);
    free(reqs);
    free(bufs);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    char* buf = mt_malloc(70000 + MT_GUARD_LEN);
    char* expected = mt_malloc(70000);
    for (long seq = 0; seq < per_sender; ++seq) {
      for (int sender = 1; sender < size; ++sender) {
        const size_t len = message_len(seq);
        const int tag = (int)(seq % kTags);
        mt_fill_guard(buf, 70000);
        MPI_Status status;
        MPI_Recv(buf, 70000, MPI_BYTE, sender, tag, MPI_COMM_WORLD, &status);
        int count = -1;
        MPI_Get_count(&status, MPI_BYTE, &count);
        int header[2];
        memcpy(header, buf, sizeof header);
        MT_CHECK(header[0] == sender && header[1] == (int)seq,
                 "from rank %d tag %d got message %d of rank %d, expected "
                 "message %ld",
                 sender, tag, header[1], header[0], seq);
        MT_CHECK(count == (int)len && status.MPI_SOURCE == sender &&
                     status.MPI_TAG == tag,
                 "message %ld of rank %d: status %d/%d/%d", seq, sender,
                 status.MPI_SOURCE, status.MPI_TAG, count);
        fill_message(expected, sender, seq);
        MT_CHECK(memcmp(buf, expected, len) == 0,
                 "content of message %ld from rank %d differs", seq, sender);
        MT_CHECK_GUARD(buf, len, "unexpected message");
      }
    }
    int flag = 1;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
               MPI_STATUS_IGNORE);
    MT_CHECK(!flag, "a message is left over after all were received");
    free(expected);
    free(buf);
  }
  MPI_Finalize();
  return 0;
}
