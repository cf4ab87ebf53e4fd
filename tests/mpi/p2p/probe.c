// SPDX-License-Identifier: MIT
// MPI 4.0 §3.8.1: "MPI_PROBE and MPI_IPROBE allow incoming messages to be
// checked for, without actually receiving them"; a receive with the probed
// source and tag "will receive the message that was matched by the probe".
//
// The other ranks send rank 0 messages of various sizes and tags. Rank 0
// finds each with MPI_Probe or MPI_Iprobe (wildcard or specific source),
// sizes its buffer with MPI_Get_count, probes again (a probe consumes
// nothing), and receives exactly the probed message.
#include "mpitest.h"

enum { kTags = 4, kUnusedTag = 999 };

static size_t message_len(long seq) {
  static const size_t kLens[] = {
      0, 1, 63, 64, 65, 4095, 4096, 65536, (1 << 20) + 7, 8};
  return kLens[seq % 10];
}

static uint32_t message_seed(int sender, long seq) {
  return mt_seed((uint32_t)sender, 3, (uint32_t)seq, 0);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MT_CHECK(size >= 2, "needs at least 2 ranks");
  const long per_sender = mt_scale(40) / (size - 1) + 10;

  if (rank != 0) {
    size_t total_len = 0;
    for (long seq = 0; seq < per_sender; ++seq) {
      total_len += message_len(seq);
    }
    char* bufs = mt_malloc(total_len);
    MPI_Request* reqs = mt_malloc(sizeof(MPI_Request) * (size_t)per_sender);
    size_t offset = 0;
    for (long seq = 0; seq < per_sender; ++seq) {
      mt_fill(bufs + offset, message_len(seq), message_seed(rank, seq));
      MPI_Isend(bufs + offset, (int)message_len(seq), MPI_BYTE, 0,
                (int)(seq % kTags), MPI_COMM_WORLD, &reqs[seq]);
      offset += message_len(seq);
    }
    MPI_Waitall((int)per_sender, reqs, MPI_STATUSES_IGNORE);
    free(reqs);
    free(bufs);
  } else {
    int flag = 1;
    MPI_Iprobe(MPI_ANY_SOURCE, kUnusedTag, MPI_COMM_WORLD, &flag,
               MPI_STATUS_IGNORE);
    MT_CHECK(!flag, "MPI_Iprobe found a message with a tag nobody sends");
    long* next = calloc((size_t)size, sizeof(long));
    const long total = per_sender * (size - 1);
    for (long n = 0; n < total; ++n) {
      MPI_Status status;
      switch (n % 3) {
        case 0:
          MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
          break;
        case 1:
          flag = 0;
          while (!flag) {
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
                       &status);
          }
          break;
        default: {
          // A specific source that still has messages to send.
          int source = 1 + (int)(n % (size - 1));
          while (next[source] == per_sender) {
            source = source % (size - 1) + 1;
          }
          MPI_Probe(source, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
          MT_CHECK(status.MPI_SOURCE == source,
                   "MPI_Probe for rank %d found a message from rank %d", source,
                   status.MPI_SOURCE);
          break;
        }
      }
      const int sender = status.MPI_SOURCE;
      MT_CHECK(sender > 0 && sender < size, "probe found source %d", sender);
      const long seq = next[sender];
      int count = -1;
      MPI_Get_count(&status, MPI_BYTE, &count);
      MT_CHECK(count == (int)message_len(seq) &&
                   status.MPI_TAG == (int)(seq % kTags),
               "probe of message %ld from rank %d: count %d tag %d", seq,
               sender, count, status.MPI_TAG);
      // Probing again finds the same message.
      MPI_Status again;
      MPI_Probe(sender, status.MPI_TAG, MPI_COMM_WORLD, &again);
      int again_count = -1;
      MPI_Get_count(&again, MPI_BYTE, &again_count);
      MT_CHECK(again_count == count, "a second probe found %d bytes, not %d",
               again_count, count);
      char* buf = mt_malloc((size_t)count + MT_GUARD_LEN);
      mt_fill_guard(buf, (size_t)count);
      MPI_Recv(buf, count, MPI_BYTE, sender, status.MPI_TAG, MPI_COMM_WORLD,
               &again);
      MPI_Get_count(&again, MPI_BYTE, &again_count);
      MT_CHECK(again_count == count, "received %d bytes, probed %d",
               again_count, count);
      MT_CHECK_PATTERN(buf, (size_t)count, message_seed(sender, seq),
                       "probed message");
      MT_CHECK_GUARD(buf, (size_t)count, "probed message");
      free(buf);
      ++next[sender];
    }
    free(next);
  }
  MPI_Finalize();
  return 0;
}
