// SPDX-License-Identifier: MIT
// MPI 4.0 §3.2: the large-count ("_c") versions of the point-to-point calls
// take MPI_Count counts and behave exactly like their int counterparts.
//
// Ranks exchange messages in a ring with the blocking, nonblocking,
// persistent, send-receive and buffered _c calls and check the contents and
// MPI_Get_count_c.
#include "mpitest.h"

enum { kLen = 100000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  const MPI_Count n = kLen;
  char* out = mt_malloc(kLen);
  char* in = mt_malloc(kLen);
  MPI_Status status;
  MPI_Count count = -1;

  // Blocking send/recv, receive posted by the right neighbour.
  mt_fill(out, kLen, mt_seed((uint32_t)rank, 1, 0, 0));
  MPI_Request recv_req;
  MT_CHECK_MPI(
      MPI_Irecv_c(in, n, MPI_CHAR, left, 1, MPI_COMM_WORLD, &recv_req));
  MT_CHECK_MPI(MPI_Send_c(out, n, MPI_CHAR, right, 1, MPI_COMM_WORLD));
  MT_CHECK_MPI(MPI_Wait(&recv_req, &status));
  MT_CHECK_PATTERN(in, kLen, mt_seed((uint32_t)left, 1, 0, 0),
                   "Send_c/Irecv_c");
  MT_CHECK_MPI(MPI_Get_count_c(&status, MPI_CHAR, &count));
  MT_CHECK(count == n, "MPI_Get_count_c gave %lld", (long long)count);

  // Nonblocking send, blocking receive.
  mt_fill(out, kLen, mt_seed((uint32_t)rank, 2, 0, 0));
  MPI_Request send_req;
  MT_CHECK_MPI(
      MPI_Isend_c(out, n, MPI_CHAR, right, 2, MPI_COMM_WORLD, &send_req));
  MT_CHECK_MPI(MPI_Recv_c(in, n, MPI_CHAR, left, 2, MPI_COMM_WORLD, &status));
  MT_CHECK_MPI(MPI_Wait(&send_req, MPI_STATUS_IGNORE));
  MT_CHECK_PATTERN(in, kLen, mt_seed((uint32_t)left, 2, 0, 0),
                   "Isend_c/Recv_c");

  // Send-receive and send-receive-replace.
  mt_fill(out, kLen, mt_seed((uint32_t)rank, 3, 0, 0));
  MT_CHECK_MPI(MPI_Sendrecv_c(out, n, MPI_CHAR, right, 3, in, n, MPI_CHAR, left,
                              3, MPI_COMM_WORLD, &status));
  MT_CHECK_PATTERN(in, kLen, mt_seed((uint32_t)left, 3, 0, 0), "Sendrecv_c");
  mt_fill(out, kLen, mt_seed((uint32_t)rank, 4, 0, 0));
  MT_CHECK_MPI(MPI_Sendrecv_replace_c(out, n, MPI_CHAR, right, 4, left, 4,
                                      MPI_COMM_WORLD, &status));
  MT_CHECK_PATTERN(out, kLen, mt_seed((uint32_t)left, 4, 0, 0),
                   "Sendrecv_replace_c");

  // Persistent requests, several iterations.
  MPI_Request reqs[2];
  MT_CHECK_MPI(
      MPI_Recv_init_c(in, n, MPI_CHAR, left, 5, MPI_COMM_WORLD, &reqs[0]));
  MT_CHECK_MPI(
      MPI_Send_init_c(out, n, MPI_CHAR, right, 5, MPI_COMM_WORLD, &reqs[1]));
  for (uint32_t iter = 0; iter < 3; ++iter) {
    mt_fill(out, kLen, mt_seed((uint32_t)rank, 5, iter, 0));
    MT_CHECK_MPI(MPI_Startall(2, reqs));
    MT_CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    MT_CHECK_PATTERN(in, kLen, mt_seed((uint32_t)left, 5, iter, 0),
                     "persistent _c");
  }
  MT_CHECK_MPI(MPI_Request_free(&reqs[0]));
  MT_CHECK_MPI(MPI_Request_free(&reqs[1]));

  // Buffered mode with a large-count attach and detach.
  const MPI_Count buffer_bytes = kLen + MPI_BSEND_OVERHEAD;
  char* buffer = mt_malloc((size_t)buffer_bytes);
  MT_CHECK_MPI(MPI_Buffer_attach_c(buffer, buffer_bytes));
  mt_fill(out, kLen, mt_seed((uint32_t)rank, 6, 0, 0));
  MT_CHECK_MPI(MPI_Bsend_c(out, n, MPI_CHAR, right, 6, MPI_COMM_WORLD));
  MT_CHECK_MPI(MPI_Recv_c(in, n, MPI_CHAR, left, 6, MPI_COMM_WORLD, &status));
  MT_CHECK_PATTERN(in, kLen, mt_seed((uint32_t)left, 6, 0, 0), "Bsend_c");
  void* detached = NULL;
  MPI_Count detached_bytes = 0;
  MT_CHECK_MPI(MPI_Buffer_detach_c(&detached, &detached_bytes));
  MT_CHECK(detached == buffer && detached_bytes == buffer_bytes,
           "MPI_Buffer_detach_c gave %p, %lld", detached,
           (long long)detached_bytes);

  // Matched probe and receive.
  mt_fill(out, kLen, mt_seed((uint32_t)rank, 7, 0, 0));
  MT_CHECK_MPI(
      MPI_Isend_c(out, n, MPI_CHAR, right, 7, MPI_COMM_WORLD, &send_req));
  MPI_Message message;
  MT_CHECK_MPI(MPI_Mprobe(left, 7, MPI_COMM_WORLD, &message, &status));
  MT_CHECK_MPI(MPI_Mrecv_c(in, n, MPI_CHAR, &message, &status));
  MT_CHECK_MPI(MPI_Wait(&send_req, MPI_STATUS_IGNORE));
  MT_CHECK_PATTERN(in, kLen, mt_seed((uint32_t)left, 7, 0, 0), "Mrecv_c");

  free(buffer);
  free(in);
  free(out);
  MPI_Finalize();
  return 0;
}
