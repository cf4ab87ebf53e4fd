// SPDX-License-Identifier: MIT
// MPI 4.0 §3.10: MPI_Isendrecv and MPI_Isendrecv_replace start a send and a
// receive and return one request that completes when both have; its status
// is the receive's.
//
// A ring exchange of small and large messages with both calls and their
// large-count forms (MPI_Isendrecv_c, MPI_Isendrecv_replace_c), completed
// by MPI_Wait, MPI_Test loops and MPI_Waitall, plus MPI_PROC_NULL partners.
#include "mpitest.h"

static const size_t kLens[] = {0, 8, 4000, 70000, (1 << 20) + 7};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  const int size = mt_size();
  const int right = (rank + 1) % size;
  const int left = (rank + size - 1) % size;
  const size_t max_len = (1 << 20) + 7;
  char* out = mt_malloc(max_len);
  char* in = mt_malloc(max_len + MT_GUARD_LEN);

  for (int k = 0; k < (int)(sizeof kLens / sizeof kLens[0]); ++k) {
    const size_t len = kLens[k];
    char what[64];
    snprintf(what, sizeof what, "%zu bytes", len);
    MPI_Request request;
    MPI_Status status;

    mt_fill(out, len, mt_seed((uint32_t)rank, 1, (uint32_t)k, 0));
    mt_fill_guard(in, len);
    if (k % 2 == 0) {
      MT_CHECK_MPI(MPI_Isendrecv(out, (int)len, MPI_BYTE, right, k, in,
                                 (int)len, MPI_BYTE, left, k, MPI_COMM_WORLD,
                                 &request));
    } else {
      MT_CHECK_MPI(MPI_Isendrecv_c(out, (MPI_Count)len, MPI_BYTE, right, k, in,
                                   (MPI_Count)len, MPI_BYTE, left, k,
                                   MPI_COMM_WORLD, &request));
    }
    if (k % 2 == 0) {
      MT_CHECK_MPI(MPI_Wait(&request, &status));
    } else {
      int done = 0;
      while (!done) {
        MT_CHECK_MPI(MPI_Test(&request, &done, &status));
      }
    }
    MT_CHECK(request == MPI_REQUEST_NULL, "the request was not freed");
    MT_CHECK_PATTERN(in, len, mt_seed((uint32_t)left, 1, (uint32_t)k, 0), what);
    MT_CHECK_GUARD(in, len, what);
    int count = -1;
    MPI_Get_count(&status, MPI_BYTE, &count);
    MT_CHECK(
        status.MPI_SOURCE == left && status.MPI_TAG == k && count == (int)len,
        "status source %d tag %d count %d", status.MPI_SOURCE, status.MPI_TAG,
        count);

    // The replace form, twice in flight at once (two tags).
    char* second = mt_malloc(len + 1);
    mt_fill(out, len, mt_seed((uint32_t)rank, 2, (uint32_t)k, 0));
    mt_fill(second, len, mt_seed((uint32_t)rank, 3, (uint32_t)k, 0));
    MPI_Request both[2];
    MT_CHECK_MPI(MPI_Isendrecv_replace(out, (int)len, MPI_BYTE, right, 100 + k,
                                       left, 100 + k, MPI_COMM_WORLD,
                                       &both[0]));
    MT_CHECK_MPI(MPI_Isendrecv_replace_c(second, (MPI_Count)len, MPI_BYTE,
                                         right, 200 + k, left, 200 + k,
                                         MPI_COMM_WORLD, &both[1]));
    MT_CHECK_MPI(MPI_Waitall(2, both, MPI_STATUSES_IGNORE));
    MT_CHECK_PATTERN(out, len, mt_seed((uint32_t)left, 2, (uint32_t)k, 0),
                     what);
    MT_CHECK_PATTERN(second, len, mt_seed((uint32_t)left, 3, (uint32_t)k, 0),
                     what);
    free(second);
  }

  // MPI_PROC_NULL partners: the receive side's status is the null one.
  MPI_Request request;
  MPI_Status status;
  MT_CHECK_MPI(MPI_Isendrecv(out, 8, MPI_BYTE, MPI_PROC_NULL, 0, in, 8,
                             MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                             &request));
  MT_CHECK_MPI(MPI_Wait(&request, &status));
  MT_CHECK(status.MPI_SOURCE == MPI_PROC_NULL && status.MPI_TAG == MPI_ANY_TAG,
           "PROC_NULL status source %d tag %d", status.MPI_SOURCE,
           status.MPI_TAG);
  mt_fill(out, 8, mt_seed((uint32_t)rank, 4, 0, 0));
  MT_CHECK_MPI(MPI_Isendrecv(out, 8, MPI_BYTE, right, 7, in, 8, MPI_BYTE,
                             MPI_PROC_NULL, 7, MPI_COMM_WORLD, &request));
  MT_CHECK_MPI(MPI_Wait(&request, &status));
  MT_CHECK(status.MPI_SOURCE == MPI_PROC_NULL, "null receive side gave %d",
           status.MPI_SOURCE);
  MT_CHECK_MPI(MPI_Recv(in, 8, MPI_BYTE, left, 7, MPI_COMM_WORLD, &status));
  MT_CHECK_PATTERN(in, 8, mt_seed((uint32_t)left, 4, 0, 0),
                   "send side with a null receive");

  free(in);
  free(out);
  MPI_Finalize();
  return 0;
}
