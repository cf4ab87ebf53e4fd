// SPDX-License-Identifier: MIT
// MPI 4.0 §3.8.2: "A matching probe returns a handle to the matched message
// ... the message is no longer available to be matched by any other probe
// or receive"; MPI_MRECV/MPI_IMRECV receive exactly that message.
//
// 1. Rank 1 sends A then B with the same tag; rank 0 MPI_Mprobes A, then a
//    wildcard MPI_Recv must get B, and MPI_Mrecv gets A.
// 2. Every other rank sends messages of all test sizes; rank 0 claims every
//    one of them with MPI_Mprobe / MPI_Improbe before receiving any, then
//    receives them in reverse order with MPI_Mrecv / MPI_Imrecv.
#include "mpitest.h"

enum { kPairTag = 5, kSizes = 9 };
static const size_t kLens[kSizes] = {0,    1,    63,    64,           65,
                                     4095, 4096, 65536, (1 << 20) + 7};

static void pair_test(int rank) {
  if (rank == 1) {
    const int a = 111;
    const int b = 222;
    MPI_Send(&a, 1, MPI_INT, 0, kPairTag, MPI_COMM_WORLD);
    MPI_Send(&b, 1, MPI_INT, 0, kPairTag, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Message message = MPI_MESSAGE_NULL;
    MPI_Status status;
    MPI_Mprobe(1, kPairTag, MPI_COMM_WORLD, &message, &status);
    MT_CHECK(message != MPI_MESSAGE_NULL, "MPI_Mprobe gave MPI_MESSAGE_NULL");
    int value = 0;
    MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
             &status);
    MT_CHECK(value == 222,
             "a receive after MPI_Mprobe got %d; the probed message (111) "
             "must not be matched again, the next one (222) must",
             value);
    MPI_Mrecv(&value, 1, MPI_INT, &message, &status);
    MT_CHECK(value == 111, "MPI_Mrecv got %d, expected 111", value);
    MT_CHECK(message == MPI_MESSAGE_NULL,
             "MPI_Mrecv did not set the message to MPI_MESSAGE_NULL");
    MT_CHECK(status.MPI_SOURCE == 1 && status.MPI_TAG == kPairTag,
             "MPI_Mrecv status %d/%d", status.MPI_SOURCE, status.MPI_TAG);
  }
}

static void claim_all_test(int rank, int size) {
  if (rank != 0) {
    size_t total_len = 0;
    for (int s = 0; s < kSizes; ++s) {
      total_len += kLens[s];
    }
    char* bufs = mt_malloc(total_len);
    MPI_Request reqs[kSizes];
    size_t offset = 0;
    for (int s = 0; s < kSizes; ++s) {
      mt_fill(bufs + offset, kLens[s],
              mt_seed((uint32_t)rank, (uint32_t)s, 4, 4));
      MPI_Isend(bufs + offset, (int)kLens[s], MPI_BYTE, 0, s, MPI_COMM_WORLD,
                &reqs[s]);
      offset += kLens[s];
    }
    MPI_Waitall(kSizes, reqs, MPI_STATUSES_IGNORE);
    free(bufs);
    return;
  }
  const int total = kSizes * (size - 1);
  MPI_Message* messages = mt_malloc(sizeof(MPI_Message) * (size_t)total);
  MPI_Status* statuses = mt_malloc(sizeof(MPI_Status) * (size_t)total);
  for (int n = 0; n < total; ++n) {
    if (n % 2 == 0) {
      MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &messages[n],
                 &statuses[n]);
    } else {
      int flag = 0;
      while (!flag) {
        MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
                    &messages[n], &statuses[n]);
      }
    }
  }
  // Everything is claimed: nothing is left to probe.
  int flag = 1;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
             MPI_STATUS_IGNORE);
  MT_CHECK(!flag, "MPI_Iprobe found a message that MPI_Mprobe had claimed");

  MPI_Request* reqs = mt_malloc(sizeof(MPI_Request) * (size_t)total);
  char** bufs = mt_malloc(sizeof(char*) * (size_t)total);
  for (int n = total - 1; n >= 0; --n) {
    const int s = statuses[n].MPI_TAG;
    MT_CHECK(s >= 0 && s < kSizes, "probed tag %d", s);
    int count = -1;
    MPI_Get_count(&statuses[n], MPI_BYTE, &count);
    MT_CHECK(count == (int)kLens[s],
             "probed %d bytes with tag %d, expected %zu", count, s, kLens[s]);
    bufs[n] = mt_malloc(kLens[s] + MT_GUARD_LEN);
    mt_fill_guard(bufs[n], kLens[s]);
    reqs[n] = MPI_REQUEST_NULL;
    if (n % 2 == 0) {
      MPI_Status status;
      MPI_Mrecv(bufs[n], count, MPI_BYTE, &messages[n], &status);
      MT_CHECK(
          status.MPI_SOURCE == statuses[n].MPI_SOURCE && status.MPI_TAG == s,
          "MPI_Mrecv status %d/%d, probed %d/%d", status.MPI_SOURCE,
          status.MPI_TAG, statuses[n].MPI_SOURCE, s);
    } else {
      MPI_Imrecv(bufs[n], count, MPI_BYTE, &messages[n], &reqs[n]);
    }
    MT_CHECK(messages[n] == MPI_MESSAGE_NULL,
             "the message handle was not set to MPI_MESSAGE_NULL");
  }
  MPI_Waitall(total, reqs, MPI_STATUSES_IGNORE);
  for (int n = 0; n < total; ++n) {
    const int s = statuses[n].MPI_TAG;
    MT_CHECK_PATTERN(
        bufs[n], kLens[s],
        mt_seed((uint32_t)statuses[n].MPI_SOURCE, (uint32_t)s, 4, 4),
        "message received with MPI_Mrecv/MPI_Imrecv");
    MT_CHECK_GUARD(bufs[n], kLens[s], "matched receive");
    free(bufs[n]);
  }
  free(bufs);
  free(reqs);
  free(statuses);
  free(messages);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  MT_CHECK(size >= 2, "needs at least 2 ranks");
  pair_test(rank);
  MPI_Barrier(MPI_COMM_WORLD);
  claim_all_test(rank, size);
  MPI_Finalize();
  return 0;
}
