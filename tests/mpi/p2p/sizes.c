// SPDX-License-Identifier: MIT
// MPI 4.0 §3.2-3.7: "the receive buffer consists of the storage containing
// count consecutive elements", for each send mode (standard, synchronous,
// ready, buffered), blocking and nonblocking.
//
// Messages of 0, 1, 63, 64, 65, 1024, 1025, 1280, 1281, 1792, 1793, 3812,
// 3813, 4095, 4096, 65536 and 1 MiB + 7 bytes go around a ring or between
// all pairs; every byte, the status and the bytes past the end of the
// message are checked. (In shmpi, 1024 bytes are the most that go in ring
// cells, 1280 for synchronous sends, 1792 went in cells from the shared
// heap before, and 3812 is the most a ring takes: p2p/engine.hpp,
// in_cells(). The tests with SHMPI_SHARED_MALLOC=0 send from process
// memory.)
// Usage: sizes MODE PATTERN
//   MODE    send | ssend | rsend | bsend | isend | issend | irsend | ibsend
//   PATTERN ring | allpairs (all pairs needs a power-of-two world)
#include "mpitest.h"

static const size_t kSizes[] = {0,    1,    63,   64,    65,           1024,
                                1025, 1280, 1281, 1792,  1793,         3812,
                                3813, 4095, 4096, 65536, (1 << 20) + 7};
enum { kSizeCount = sizeof kSizes / sizeof kSizes[0] };
enum { kReadyTag = 1000 };
static const size_t kMaxSize = (1 << 20) + 7;

typedef enum { kStandard, kSynchronous, kReady, kBuffered } Mode;

static Mode mode;
static int nonblocking;
static char* bsend_buffer;
static int bsend_buffer_len;

static void parse_mode(const char* name) {
  static const char* const kNames[] = {"send", "ssend", "rsend", "bsend"};
  nonblocking = name[0] == 'i';
  const char* base = nonblocking ? name + 1 : name;
  for (int m = 0; m < 4; ++m) {
    if (strcmp(base, kNames[m]) == 0) {
      mode = (Mode)m;
      return;
    }
  }
  MT_FAIL("unknown mode '%s'", name);
}

static void attach_bsend_buffer(int messages) {
  bsend_buffer_len = messages * ((int)kMaxSize + MPI_BSEND_OVERHEAD);
  bsend_buffer = mt_malloc((size_t)bsend_buffer_len);
  MPI_Buffer_attach(bsend_buffer, bsend_buffer_len);
}

// Detaching waits until every buffered message has been transmitted.
static void detach_bsend_buffer(void) {
  void* buf = NULL;
  int len = 0;
  MPI_Buffer_detach(&buf, &len);
  MT_CHECK(buf == bsend_buffer && len == bsend_buffer_len,
           "MPI_Buffer_detach returned %p/%d, attached %p/%d", buf, len,
           (void*)bsend_buffer, bsend_buffer_len);
  free(bsend_buffer);
  bsend_buffer = NULL;
}

static void start_send(const void* buf, int len, int dst, int tag,
                       MPI_Request* req) {
  MPI_Comm comm = MPI_COMM_WORLD;
  if (!nonblocking) {
    switch (mode) {
      case kStandard:
        MPI_Send(buf, len, MPI_BYTE, dst, tag, comm);
        break;
      case kSynchronous:
        MPI_Ssend(buf, len, MPI_BYTE, dst, tag, comm);
        break;
      case kReady:
        MPI_Rsend(buf, len, MPI_BYTE, dst, tag, comm);
        break;
      case kBuffered:
        MPI_Bsend(buf, len, MPI_BYTE, dst, tag, comm);
        break;
    }
    *req = MPI_REQUEST_NULL;
    return;
  }
  switch (mode) {
    case kStandard:
      MPI_Isend(buf, len, MPI_BYTE, dst, tag, comm, req);
      break;
    case kSynchronous:
      MPI_Issend(buf, len, MPI_BYTE, dst, tag, comm, req);
      break;
    case kReady:
      MPI_Irsend(buf, len, MPI_BYTE, dst, tag, comm, req);
      break;
    case kBuffered:
      MPI_Ibsend(buf, len, MPI_BYTE, dst, tag, comm, req);
      break;
  }
}

static void check_received(const char* recv_buf, const MPI_Status* status,
                           int src, int dst, int tag, size_t len) {
  int count = -1;
  MPI_Get_count(status, MPI_BYTE, &count);
  MT_CHECK(
      status->MPI_SOURCE == src && status->MPI_TAG == tag && count == (int)len,
      "status source %d tag %d count %d, expected %d/%d/%zu",
      status->MPI_SOURCE, status->MPI_TAG, count, src, tag, len);
  char what[64];
  snprintf(what, sizeof what, "%zu bytes from rank %d", len, src);
  MT_CHECK_PATTERN(recv_buf, len,
                   mt_seed((uint32_t)src, (uint32_t)dst, (uint32_t)len, 0),
                   what);
  MT_CHECK_GUARD(recv_buf, len, what);
}

// One message to dst and one from src. Blocking modes order the two calls
// with send_first (so that a synchronous or unbuffered send cannot deadlock);
// ready mode posts the receive, then tells the sender so, before any send.
static void exchange(int dst, int src, int send_first, size_t len, int tag,
                     char* send_buf, char* recv_buf) {
  const int rank = mt_rank();
  mt_fill(send_buf, len,
          mt_seed((uint32_t)rank, (uint32_t)dst, (uint32_t)len, 0));
  mt_fill_guard(recv_buf, len);
  MPI_Status status;
  MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Status statuses[2];
  if (mode == kReady || nonblocking) {
    MPI_Irecv(recv_buf, (int)len, MPI_BYTE, src, tag, MPI_COMM_WORLD, &reqs[0]);
    if (mode == kReady) {
      MPI_Sendrecv(NULL, 0, MPI_BYTE, src, kReadyTag, NULL, 0, MPI_BYTE, dst,
                   kReadyTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    start_send(send_buf, (int)len, dst, tag, &reqs[1]);
    MPI_Waitall(2, reqs, statuses);
    status = statuses[0];
  } else if (send_first) {
    start_send(send_buf, (int)len, dst, tag, &reqs[1]);
    MPI_Recv(recv_buf, (int)len, MPI_BYTE, src, tag, MPI_COMM_WORLD, &status);
  } else {
    MPI_Recv(recv_buf, (int)len, MPI_BYTE, src, tag, MPI_COMM_WORLD, &status);
    start_send(send_buf, (int)len, dst, tag, &reqs[1]);
  }
  check_received(recv_buf, &status, src, rank, tag, len);
  if (mode == kBuffered) {
    detach_bsend_buffer();
    attach_bsend_buffer(1);
  }
}

// Nonblocking all-pairs: every message to and from every peer in flight at
// once.
static void all_at_once(size_t len, int tag, char* send_bufs, char* recv_bufs) {
  const int rank = mt_rank();
  const int size = mt_size();
  const size_t stride = kMaxSize + MT_GUARD_LEN;
  MPI_Request* reqs = mt_malloc(sizeof(MPI_Request) * 2 * (size_t)size);
  MPI_Status* statuses = mt_malloc(sizeof(MPI_Status) * 2 * (size_t)size);
  for (int peer = 0; peer < size; ++peer) {
    reqs[peer] = reqs[size + peer] = MPI_REQUEST_NULL;
    if (peer == rank) {
      continue;
    }
    mt_fill_guard(recv_bufs + (size_t)peer * stride, len);
    MPI_Irecv(recv_bufs + (size_t)peer * stride, (int)len, MPI_BYTE, peer, tag,
              MPI_COMM_WORLD, &reqs[peer]);
  }
  if (mode == kReady) {
    MPI_Barrier(MPI_COMM_WORLD);  // every receive is posted
  }
  for (int peer = 0; peer < size; ++peer) {
    if (peer == rank) {
      continue;
    }
    char* buf = send_bufs + (size_t)peer * stride;
    mt_fill(buf, len,
            mt_seed((uint32_t)rank, (uint32_t)peer, (uint32_t)len, 0));
    start_send(buf, (int)len, peer, tag, &reqs[size + peer]);
  }
  MPI_Waitall(2 * size, reqs, statuses);
  for (int peer = 0; peer < size; ++peer) {
    if (peer != rank) {
      check_received(recv_bufs + (size_t)peer * stride, &statuses[peer], peer,
                     rank, tag, len);
    }
  }
  free(statuses);
  free(reqs);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc != 3) {
    MT_FAIL("usage: sizes MODE ring|allpairs");
  }
  parse_mode(argv[1]);
  const int ring = strcmp(argv[2], "ring") == 0;
  MT_CHECK(ring || strcmp(argv[2], "allpairs") == 0, "unknown pattern '%s'",
           argv[2]);
  const int rank = mt_rank();
  const int size = mt_size();
  MT_CHECK(ring || (size & (size - 1)) == 0,
           "all pairs needs a power-of-two world, got %d", size);
  const int at_once = !ring && nonblocking;
  const size_t buffers = at_once ? (size_t)size : 1;
  const size_t stride = kMaxSize + MT_GUARD_LEN;
  char* send_bufs = mt_malloc(buffers * stride);
  char* recv_bufs = mt_malloc(buffers * stride);
  if (mode == kBuffered) {
    attach_bsend_buffer(at_once ? size : 1);
  }
  const long iterations = mt_scale(2);
  for (long iter = 0; iter < iterations; ++iter) {
    for (int s = 0; s < kSizeCount; ++s) {
      const size_t len = kSizes[s];
      if (at_once) {
        all_at_once(len, s, send_bufs, recv_bufs);
      } else if (ring) {
        exchange((rank + 1) % size, (rank + size - 1) % size, rank == 0, len, s,
                 send_bufs, recv_bufs);
      } else {
        for (int k = 1; k < size; ++k) {
          const int peer = rank ^ k;
          exchange(peer, peer, rank < peer, len, s, send_bufs, recv_bufs);
        }
      }
    }
  }
  if (mode == kBuffered) {
    detach_bsend_buffer();
  }
  free(recv_bufs);
  free(send_bufs);
  MPI_Finalize();
  return 0;
}
