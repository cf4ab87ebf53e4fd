// SPDX-License-Identifier: MIT
// MPI 4.0 §3.5: "If a receiver posts two receives in succession, and both
// match the same message, then the second receive operation cannot be
// satisfied by this message, if the first one is still pending."
//
// Rank 0 posts, for each sender, a run of nonblocking receives in which
// specific-source and MPI_ANY_SOURCE, specific-tag and MPI_ANY_TAG receives
// are interleaved (and interleaved across senders). Each sender uses its own
// tag, so every one of these receives matches exactly the messages of one
// sender, and the k-th of them must get that sender's k-th message. Half of
// the receives are posted before any message is sent, half after every send
// has started.
#include "mpitest.h"

enum { kMaxLen = 33000 };

static size_t message_len(long seq) {
  static const size_t kLens[] = {8, 100, 8, 3000, 8, 8, 64, kMaxLen};
  return kLens[seq % 8];
}

static int sender_tag(int sender) { return 100 + sender; }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MT_CHECK(size >= 2, "needs at least 2 ranks");
  const int senders = size - 1;
  const long per_sender = mt_scale(256) / senders + 2;

  if (rank != 0) {
    MPI_Barrier(MPI_COMM_WORLD);  // the first half of the receives is posted
    char* bufs = mt_malloc((size_t)per_sender * kMaxLen);
    MPI_Request* reqs = mt_malloc(sizeof(MPI_Request) * (size_t)per_sender);
    for (long seq = 0; seq < per_sender; ++seq) {
      char* buf = bufs + (size_t)seq * kMaxLen;
      const int header[2] = {rank, (int)seq};
      memcpy(buf, header, sizeof header);
      mt_fill(buf + sizeof header, message_len(seq) - sizeof header,
              mt_seed((uint32_t)rank, 2, (uint32_t)seq, 0));
      MPI_Isend(buf, (int)message_len(seq), MPI_BYTE, 0, sender_tag(rank),
                MPI_COMM_WORLD, &reqs[seq]);
    }
    MPI_Barrier(MPI_COMM_WORLD);  // all sent before the second half is posted
    MPI_Waitall((int)per_sender, reqs, MPI_STATUSES_IGNORE);
    free(reqs);
    free(bufs);
  } else {
    const long total = per_sender * senders;
    char* bufs = mt_malloc((size_t)total * (kMaxLen + MT_GUARD_LEN));
    MPI_Request* reqs = mt_malloc(sizeof(MPI_Request) * (size_t)total);
    MPI_Status* statuses = mt_malloc(sizeof(MPI_Status) * (size_t)total);
    // With a single sender a fully wild receive matches only its messages.
    const int kinds = senders == 1 ? 4 : 3;
    for (long n = 0; n < total; ++n) {
      if (n == total / 2) {
        MPI_Barrier(MPI_COMM_WORLD);  // senders start
        MPI_Barrier(MPI_COMM_WORLD);  // senders have started every send
      }
      const long k = n / senders;  // k-th receive for this sender
      const int sender = 1 + (int)(n % senders);
      int source = sender;
      int tag = sender_tag(sender);
      switch ((k + sender) % kinds) {
        case 0:
          break;
        case 1:
          source = MPI_ANY_SOURCE;
          break;
        case 2:
          tag = MPI_ANY_TAG;
          break;
        default:
          source = MPI_ANY_SOURCE;
          tag = MPI_ANY_TAG;
          break;
      }
      char* buf = bufs + (size_t)n * (kMaxLen + MT_GUARD_LEN);
      mt_fill_guard(buf, kMaxLen);
      MPI_Irecv(buf, kMaxLen, MPI_BYTE, source, tag, MPI_COMM_WORLD, &reqs[n]);
    }
    MPI_Waitall((int)total, reqs, statuses);
    for (long n = 0; n < total; ++n) {
      const long k = n / senders;
      const int sender = 1 + (int)(n % senders);
      const char* buf = bufs + (size_t)n * (kMaxLen + MT_GUARD_LEN);
      int header[2];
      memcpy(header, buf, sizeof header);
      MT_CHECK(header[0] == sender && header[1] == (int)k,
               "receive %ld (the %ld-th for rank %d) got message %d of rank %d",
               n, k, sender, header[1], header[0]);
      int count = -1;
      MPI_Get_count(&statuses[n], MPI_BYTE, &count);
      MT_CHECK(statuses[n].MPI_SOURCE == sender &&
                   statuses[n].MPI_TAG == sender_tag(sender) &&
                   count == (int)message_len(k),
               "receive %ld: status %d/%d/%d", n, statuses[n].MPI_SOURCE,
               statuses[n].MPI_TAG, count);
      MT_CHECK_PATTERN(buf + sizeof header, message_len(k) - sizeof header,
                       mt_seed((uint32_t)sender, 2, (uint32_t)k, 0),
                       "mixed wildcard receive");
      MT_CHECK_GUARD(buf, message_len(k), "mixed wildcard receive");
    }
    free(statuses);
    free(reqs);
    free(bufs);
  }
  MPI_Finalize();
  return 0;
}
