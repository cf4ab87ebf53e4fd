// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4: MPI_ERR_TYPE, "invalid datatype argument". A garbage handle
// is not valid MPI, but shmpi validates handles so that it reports
// MPI_ERR_TYPE instead of crashing (issue 2: "a garbage handle gets its error
// class instead of a crash"). shmpi only.
//
// Two kinds of garbage: an address that is not mapped, and the address of
// ordinary memory that holds no datatype.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int value = 1;
  static long not_a_type[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const MPI_Datatype unmapped = (MPI_Datatype)(intptr_t)0x12345678;
  const MPI_Datatype ordinary = (MPI_Datatype)(intptr_t)&not_a_type[2];
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Send(&value, 1, unmapped, 0, 0, MPI_COMM_WORLD),
                    MPI_ERR_TYPE, "MPI_Send(datatype = 0x12345678)");
    MT_EXPECT_CLASS(fatal, MPI_Send(&value, 1, ordinary, 0, 0, MPI_COMM_WORLD),
                    MPI_ERR_TYPE, "MPI_Send(datatype = &ordinary memory)");
    int size = 0;
    MT_EXPECT_CLASS(fatal, MPI_Type_size(unmapped, &size), MPI_ERR_TYPE,
                    "MPI_Type_size(0x12345678)");
  }
  return mt_errors_finish(fatal);
}
