// SPDX-License-Identifier: MIT
// Mid-sized messages (eager up to 64 KiB in shmpi: standard sends that
// complete before a receive matches) that nobody receives for a while, sent
// ahead of the message the receiver waits for. MPI 4.0 §3.4 lets a standard
// send block until it matches, but every MPI buffers messages of these sizes
// and programs rely on it: a receiver that waits for a later message must
// not leave the earlier ones' senders stuck (in shmpi: unmatched messages
// parked in the receiver's staging chunks must be drained when a sender
// needs the chunks, whether the receiver blocks, polls or sleeps).
//
// Every rank but 0 sends kHeld messages (tag 1) to rank 0 with MPI_Send,
// then one message with tag 2. Rank 0 first takes every tag-2 message, in
// the way the mode says, then the tag-1 messages in order with content
// checks. Modes:
//   recv      MPI_Recv for tag 2 (the receiver blocks and sleeps)
//   iprobe    MPI_Iprobe loop for tag 2 (the receiver only polls)
//   wildcard  tag 2 as above; tag-1 messages with MPI_ANY_SOURCE/ANY_TAG,
//             per-sender order checked
//   mprobe    tag-1 messages through MPI_Mprobe + MPI_Mrecv
//   allocmem  receive buffers from MPI_Alloc_mem (the shared heap in shmpi)
//   stream    no tag-2 first: rank 0 receives as the messages come (the
//             senders run ahead), one receive truncated on purpose
#include "mpitest.h"

enum { kHeld = 40, kTagHeld = 1, kTagLast = 2, kMaxLen = 65536 };

static size_t held_len(int seq) {
  static const size_t kLens[5] = {4000, 16384, 32768, 65536, 12345};
  return kLens[seq % 5];
}

static uint32_t held_seed(int sender, int seq) {
  return mt_seed((uint32_t)sender, (uint32_t)seq, 7, 3);
}

// Checks a received tag-1 message: [sender, seq] header, then the pattern.
static void check_held(const char* buf, size_t got, int sender, int seq) {
  int header[2];
  MT_CHECK(got == held_len(seq), "message %d of %d: %zu bytes, want %zu", seq,
           sender, got, held_len(seq));
  memcpy(header, buf, sizeof header);
  MT_CHECK(header[0] == sender && header[1] == seq,
           "got message %d of %d where %d of %d was due", header[1], header[0],
           seq, sender);
  MT_CHECK_PATTERN(buf + sizeof header, got - sizeof header,
                   held_seed(sender, seq), "a held-back message");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MT_CHECK(argc == 2,
           "usage: held_back recv|iprobe|wildcard|mprobe|allocmem|"
           "stream");
  const char* mode = argv[1];
  const int stream = strcmp(mode, "stream") == 0;

  if (rank != 0) {
    char* buf = mt_malloc(kMaxLen);
    for (int seq = 0; seq < kHeld; ++seq) {
      const int header[2] = {rank, seq};
      memcpy(buf, header, sizeof header);
      mt_fill(buf + sizeof header, held_len(seq) - sizeof header,
              held_seed(rank, seq));
      MT_CHECK_MPI(MPI_Send(buf, (int)held_len(seq), MPI_BYTE, 0, kTagHeld,
                            MPI_COMM_WORLD));
    }
    const int last = rank;
    MT_CHECK_MPI(MPI_Send(&last, 1, MPI_INT, 0, kTagLast, MPI_COMM_WORLD));
    free(buf);
  } else {
    char* buf = NULL;
    if (strcmp(mode, "allocmem") == 0) {
      MT_CHECK_MPI(MPI_Alloc_mem(kMaxLen, MPI_INFO_NULL, &buf));
    } else {
      buf = mt_malloc(kMaxLen);
    }
    if (!stream) {
      for (int src = 1; src < size; ++src) {
        int last = -1;
        if (strcmp(mode, "iprobe") == 0) {
          int flag = 0;
          while (!flag) {
            MT_CHECK_MPI(MPI_Iprobe(src, kTagLast, MPI_COMM_WORLD, &flag,
                                    MPI_STATUS_IGNORE));
          }
        }
        MT_CHECK_MPI(MPI_Recv(&last, 1, MPI_INT, src, kTagLast, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE));
        MT_CHECK(last == src, "tag-2 message from %d says %d", src, last);
      }
    }
    if (strcmp(mode, "wildcard") == 0) {
      int* next = mt_malloc(sizeof(int) * (size_t)size);
      for (int src = 0; src < size; ++src) {
        next[src] = 0;
      }
      for (long k = 0; k < (long)kHeld * (size - 1); ++k) {
        MPI_Status status;
        int got = 0;
        MT_CHECK_MPI(MPI_Recv(buf, kMaxLen, MPI_BYTE, MPI_ANY_SOURCE,
                              MPI_ANY_TAG, MPI_COMM_WORLD, &status));
        MT_CHECK(status.MPI_TAG == kTagHeld, "tag %d", status.MPI_TAG);
        MT_CHECK_MPI(MPI_Get_count(&status, MPI_BYTE, &got));
        check_held(buf, (size_t)got, status.MPI_SOURCE,
                   next[status.MPI_SOURCE]++);
      }
      free(next);
    } else {
      for (int src = 1; src < size; ++src) {
        for (int seq = 0; seq < kHeld; ++seq) {
          MPI_Status status;
          int got = 0;
          if (strcmp(mode, "mprobe") == 0) {
            MPI_Message message;
            int count = 0;
            MT_CHECK_MPI(
                MPI_Mprobe(src, kTagHeld, MPI_COMM_WORLD, &message, &status));
            MT_CHECK_MPI(MPI_Get_count(&status, MPI_BYTE, &count));
            MT_CHECK((size_t)count == held_len(seq), "probed %d bytes", count);
            MT_CHECK_MPI(MPI_Mrecv(buf, kMaxLen, MPI_BYTE, &message, &status));
          } else if (stream && seq == 7) {
            // 7 % 5 == 2: a 32 KiB message into a 20000-byte buffer.
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
            int rc = MPI_Recv(buf, 20000, MPI_BYTE, src, kTagHeld,
                              MPI_COMM_WORLD, &status);
            int error_class = MPI_SUCCESS;
            MPI_Error_class(rc, &error_class);
            MT_CHECK(error_class == MPI_ERR_TRUNCATE, "truncation gave %s",
                     mt_class_name(error_class));
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
            int header[2];
            memcpy(header, buf, sizeof header);
            MT_CHECK(header[0] == src && header[1] == seq,
                     "truncated: got message %d of %d", header[1], header[0]);
            MT_CHECK_PATTERN(buf + sizeof header, 20000 - sizeof header,
                             held_seed(src, seq), "truncated message");
            continue;
          } else {
            MT_CHECK_MPI(MPI_Recv(buf, kMaxLen, MPI_BYTE, src, kTagHeld,
                                  MPI_COMM_WORLD, &status));
          }
          MT_CHECK_MPI(MPI_Get_count(&status, MPI_BYTE, &got));
          check_held(buf, (size_t)got, src, seq);
        }
        if (stream) {
          int last = -1;
          MT_CHECK_MPI(MPI_Recv(&last, 1, MPI_INT, src, kTagLast,
                                MPI_COMM_WORLD, MPI_STATUS_IGNORE));
          MT_CHECK(last == src, "tag-2 message from %d says %d", src, last);
        }
      }
    }
    if (strcmp(mode, "allocmem") == 0) {
      MPI_Free_mem(buf);
    } else {
      free(buf);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    printf("held_back %s: ok\n", mode);
  }
  MPI_Finalize();
  return 0;
}
