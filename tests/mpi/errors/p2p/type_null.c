// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4: MPI_ERR_TYPE, "invalid datatype argument": MPI_DATATYPE_NULL
// is not a datatype one can communicate with.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int value = 1;
  MPI_Request req = MPI_REQUEST_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(
        fatal, MPI_Send(&value, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD),
        MPI_ERR_TYPE, "MPI_Send(MPI_DATATYPE_NULL)");
    MT_EXPECT_CLASS(
        fatal,
        MPI_Irecv(&value, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD, &req),
        MPI_ERR_TYPE, "MPI_Irecv(MPI_DATATYPE_NULL)");
    MT_EXPECT_CLASS(fatal,
                    MPI_Bcast(&value, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD),
                    MPI_ERR_TYPE, "MPI_Bcast(MPI_DATATYPE_NULL)");
    int size = 0;
    MT_EXPECT_CLASS(fatal, MPI_Type_size(MPI_DATATYPE_NULL, &size),
                    MPI_ERR_TYPE, "MPI_Type_size(MPI_DATATYPE_NULL)");
  }
  return mt_errors_finish(fatal);
}
