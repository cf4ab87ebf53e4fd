// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4 error classes of the large-count collectives, under
// MPI_ERRORS_RETURN: MPI_ERR_COUNT for a negative count, scalar or in a
// count array, as in the int forms. A count of 2^31 with a NULL buffer is
// MPI_ERR_BUFFER: the count reached the checks whole (cut to an int it
// would be negative, MPI_ERR_COUNT). Every rank makes the same bad calls
// and each is refused at every rank, so no rank waits for another. With
// args=fatal the default handler must end the job.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  const int size = mt_size();
  const MPI_Comm world = MPI_COMM_WORLD;
  int a[8] = {0};
  int b[8 * 16] = {0};
  MPI_Count* counts = mt_malloc((size_t)size * sizeof(MPI_Count));
  MPI_Aint* displs = mt_malloc((size_t)size * sizeof(MPI_Aint));
  MPI_Datatype* types = mt_malloc((size_t)size * sizeof(MPI_Datatype));
  for (int i = 0; i < size; ++i) {
    counts[i] = i == size - 1 ? -2 : 1;
    displs[i] = i;
    types[i] = MPI_INT;
  }
  const MPI_Count huge = (MPI_Count)1 << 31;
  MPI_Request req = MPI_REQUEST_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Bcast_c(a, -1, MPI_INT, 0, world), MPI_ERR_COUNT,
                    "MPI_Bcast_c(count -1)");
    MT_EXPECT_CLASS(fatal, MPI_Ibcast_c(a, -7, MPI_INT, 0, world, &req),
                    MPI_ERR_COUNT, "MPI_Ibcast_c(count -7)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Allgather_c(a, -1, MPI_INT, b, 1, MPI_INT, world),
                    MPI_ERR_COUNT, "MPI_Allgather_c(sendcount -1)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Scatter_c(a, 1, MPI_INT, b, -3, MPI_INT, 0, world),
                    MPI_ERR_COUNT, "MPI_Scatter_c(recvcount -3)");
    MT_EXPECT_CLASS(fatal, MPI_Allreduce_c(a, b, -1, MPI_INT, MPI_SUM, world),
                    MPI_ERR_COUNT, "MPI_Allreduce_c(count -1)");
    MT_EXPECT_CLASS(
        fatal, MPI_Reduce_scatter_block_c(a, b, -1, MPI_INT, MPI_SUM, world),
        MPI_ERR_COUNT, "MPI_Reduce_scatter_block_c(count -1)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Reduce_scatter_c(a, b, counts, MPI_INT, MPI_SUM, world),
                    MPI_ERR_COUNT, "MPI_Reduce_scatter_c(a count -2)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Allgatherv_c(a, 1, MPI_INT, b, counts, displs, MPI_INT, world),
        MPI_ERR_COUNT, "MPI_Allgatherv_c(a recvcount -2)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Ialltoallv_c(a, counts, displs, MPI_INT, b, counts,
                                     displs, MPI_INT, world, &req),
                    MPI_ERR_COUNT, "MPI_Ialltoallv_c(a sendcount -2)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Alltoallw_c(a, counts, displs, types, b, counts, displs,
                                    types, world),
                    MPI_ERR_COUNT, "MPI_Alltoallw_c(a sendcount -2)");
    MT_EXPECT_CLASS(fatal, MPI_Bcast_c(NULL, huge, MPI_BYTE, 0, world),
                    MPI_ERR_BUFFER, "MPI_Bcast_c(NULL, count 2^31)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Allreduce_c(NULL, b, huge, MPI_BYTE, MPI_BOR, world),
                    MPI_ERR_BUFFER, "MPI_Allreduce_c(NULL, count 2^31)");
    // The communicator still works after every refused call.
    a[0] = 1;
    MT_CHECK_MPI(MPI_Allreduce_c(a, b, 1, MPI_INT, MPI_SUM, world));
    MT_CHECK(b[0] == size, "allreduce after errors gave %d", b[0]);
  }
  free(types);
  free(displs);
  free(counts);
  return mt_errors_finish(fatal);
}
