// SPDX-License-Identifier: MIT
// Two sessions open at once, each with a communicator over mpi://WORLD made
// with the same string tag one after the other; traffic on both is
// interleaved, and the sessions end in the opposite order they began.
#include "common.h"

int main(void) {
  MPI_Session first = MPI_SESSION_NULL;
  MPI_Session second = MPI_SESSION_NULL;
  MT_CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &first));
  MT_CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &second));
  MT_CHECK(first != second, "two sessions share a handle");
  MPI_Comm a = st_comm_of(first, "mpi://WORLD", "org.shmpi.test.same");
  MPI_Comm b = st_comm_of(second, "mpi://WORLD", "org.shmpi.test.same");
  int result = MPI_IDENT;
  MT_CHECK_MPI(MPI_Comm_compare(a, b, &result));
  MT_CHECK(result == MPI_CONGRUENT, "the communicators compare as %d", result);
  // A message on one communicator must not match a receive on the other.
  int rank = 0;
  int size = 0;
  MT_CHECK_MPI(MPI_Comm_rank(a, &rank));
  MT_CHECK_MPI(MPI_Comm_size(a, &size));
  const int next = (rank + 1) % size;
  const int prev = (rank + size - 1) % size;
  int out_a = 1;
  int out_b = 2;
  int in_a = 0;
  int in_b = 0;
  MPI_Request requests[4];
  MT_CHECK_MPI(MPI_Irecv(&in_b, 1, MPI_INT, prev, 0, b, &requests[0]));
  MT_CHECK_MPI(MPI_Irecv(&in_a, 1, MPI_INT, prev, 0, a, &requests[1]));
  MT_CHECK_MPI(MPI_Isend(&out_a, 1, MPI_INT, next, 0, a, &requests[2]));
  MT_CHECK_MPI(MPI_Isend(&out_b, 1, MPI_INT, next, 0, b, &requests[3]));
  MT_CHECK_MPI(MPI_Waitall(4, requests, MPI_STATUSES_IGNORE));
  MT_CHECK(in_a == 1 && in_b == 2, "crossed messages: a got %d, b got %d", in_a,
           in_b);
  for (int i = 0; i < 3; ++i) {
    st_exercise(a, 10);
    st_exercise(b, 20);
  }
  MT_CHECK_MPI(MPI_Comm_free(&b));
  MT_CHECK_MPI(MPI_Session_finalize(&second));
  // The first session still works after the second ended.
  st_exercise(a, 30);
  MT_CHECK_MPI(MPI_Comm_free(&a));
  MT_CHECK_MPI(MPI_Session_finalize(&first));
  st_expect_world_model(0, 0);
  return 0;
}
