// SPDX-License-Identifier: MIT
// MPI 4.0 §3.5: "A process may send a message to itself" (nonblocking, or
// through a buffer, so that it does not deadlock), on MPI_COMM_WORLD and
// MPI_COMM_SELF.
//
// Each rank sends itself messages of every test size: MPI_Isend then
// MPI_Recv, MPI_Irecv then MPI_Send, MPI_Bsend then MPI_Recv, on both
// communicators; and a receive posted on one communicator must not match a
// message sent on the other.
#include "mpitest.h"

static const size_t kSizes[] = {0,    1,    63,    64,           65,
                                4095, 4096, 65536, (1 << 20) + 7};
enum { kSizeCount = sizeof kSizes / sizeof kSizes[0] };
static const size_t kMaxSize = (1 << 20) + 7;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  char* send_buf = mt_malloc(kMaxSize);
  char* recv_buf = mt_malloc(kMaxSize + MT_GUARD_LEN);
  const int bsend_len = (int)kMaxSize + MPI_BSEND_OVERHEAD;
  char* bsend_buf = mt_malloc((size_t)bsend_len);
  MPI_Buffer_attach(bsend_buf, bsend_len);

  int self_size = 0;
  int self_rank = -1;
  MPI_Comm_size(MPI_COMM_SELF, &self_size);
  MPI_Comm_rank(MPI_COMM_SELF, &self_rank);
  MT_CHECK(self_size == 1 && self_rank == 0,
           "MPI_COMM_SELF has size %d, rank %d", self_size, self_rank);

  for (int c = 0; c < 2; ++c) {
    MPI_Comm comm = c == 0 ? MPI_COMM_WORLD : MPI_COMM_SELF;
    const int me = c == 0 ? rank : 0;
    for (int s = 0; s < kSizeCount; ++s) {
      for (int way = 0; way < 3; ++way) {
        const size_t len = kSizes[s];
        const uint32_t seed =
            mt_seed((uint32_t)rank, (uint32_t)c, (uint32_t)len, (uint32_t)way);
        mt_fill(send_buf, len, seed);
        mt_fill_guard(recv_buf, len);
        MPI_Request req;
        MPI_Status status;
        if (way == 0) {
          MPI_Isend(send_buf, (int)len, MPI_BYTE, me, s, comm, &req);
          MPI_Recv(recv_buf, (int)len, MPI_BYTE, me, s, comm, &status);
          MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else if (way == 1) {
          MPI_Irecv(recv_buf, (int)len, MPI_BYTE, MPI_ANY_SOURCE, s, comm,
                    &req);
          MPI_Send(send_buf, (int)len, MPI_BYTE, me, s, comm);
          MPI_Wait(&req, &status);
        } else {
          MPI_Bsend(send_buf, (int)len, MPI_BYTE, me, s, comm);
          mt_fill(send_buf, len, seed + 1);  // the copy was taken
          MPI_Recv(recv_buf, (int)len, MPI_BYTE, me, MPI_ANY_TAG, comm,
                   &status);
        }
        int count = -1;
        MPI_Get_count(&status, MPI_BYTE, &count);
        char what[64];
        snprintf(what, sizeof what, "%zu bytes to oneself on %s, way %d", len,
                 c == 0 ? "MPI_COMM_WORLD" : "MPI_COMM_SELF", way);
        MT_CHECK(
            status.MPI_SOURCE == me && status.MPI_TAG == s && count == (int)len,
            "%s: status %d/%d/%d", what, status.MPI_SOURCE, status.MPI_TAG,
            count);
        MT_CHECK_PATTERN(recv_buf, len, seed, what);
        MT_CHECK_GUARD(recv_buf, len, what);
      }
    }
  }

  // Communicators separate messages: a message on MPI_COMM_SELF does not
  // match a receive on MPI_COMM_WORLD with the same source and tag.
  int world_value = -1;
  int self_value = -1;
  MPI_Request req;
  MPI_Request self_send;
  MPI_Irecv(&world_value, 1, MPI_INT, rank, 77, MPI_COMM_WORLD, &req);
  const int one = 1;
  const int two = 2;
  MPI_Isend(&one, 1, MPI_INT, 0, 77, MPI_COMM_SELF, &self_send);
  int flag = 1;
  for (int i = 0; i < 100; ++i) {
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    MT_CHECK(!flag,
             "a message sent on MPI_COMM_SELF matched a receive on "
             "MPI_COMM_WORLD");
  }
  MPI_Send(&two, 1, MPI_INT, rank, 77, MPI_COMM_WORLD);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Recv(&self_value, 1, MPI_INT, 0, 77, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  MPI_Wait(&self_send, MPI_STATUS_IGNORE);
  MT_CHECK(world_value == 2 && self_value == 1,
           "world receive got %d (expected 2), self receive got %d "
           "(expected 1)",
           world_value, self_value);

  void* detached = NULL;
  int detached_len = 0;
  MPI_Buffer_detach(&detached, &detached_len);
  free(bsend_buf);
  free(recv_buf);
  free(send_buf);
  MPI_Finalize();
  return 0;
}
