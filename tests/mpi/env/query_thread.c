// SPDX-License-Identifier: MIT
// MPI 4.0 §11.2.2: MPI_INIT_THREAD "returns in provided information about
// the actual level of thread support"; MPI_QUERY_THREAD "returns in provided
// the current level of thread support"; the levels are monotonic:
// MPI_THREAD_SINGLE < MPI_THREAD_FUNNELED < MPI_THREAD_SERIALIZED <
// MPI_THREAD_MULTIPLE. MPI_IS_THREAD_MAIN is true in the thread that
// initialised MPI.
#include "mpitest.h"

int main(int argc, char** argv) {
  MT_CHECK(MPI_THREAD_SINGLE < MPI_THREAD_FUNNELED &&
               MPI_THREAD_FUNNELED < MPI_THREAD_SERIALIZED &&
               MPI_THREAD_SERIALIZED < MPI_THREAD_MULTIPLE,
           "thread levels are not monotonic");
  int provided = -1;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MT_CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE,
           "MPI_Init_thread provided %d, not a thread level", provided);
  int queried = -1;
  MPI_Query_thread(&queried);
  MT_CHECK(queried == provided, "MPI_Query_thread says %d, provided was %d",
           queried, provided);
  int is_main = 0;
  MPI_Is_thread_main(&is_main);
  MT_CHECK(is_main, "MPI_Is_thread_main is false in the main thread");
  MPI_Finalize();
  return 0;
}
