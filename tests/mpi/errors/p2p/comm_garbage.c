// SPDX-License-Identifier: MIT
// MPI 4.0 §9.4: MPI_ERR_COMM, "invalid communicator". A garbage handle is
// not valid MPI, but shmpi validates handles so that it reports MPI_ERR_COMM
// instead of crashing. shmpi only.
//
// Two kinds of garbage: an address that is not mapped, and the address of
// ordinary memory that holds no communicator.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int value = 1;
  int rank = 0;
  static long not_a_comm[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const MPI_Comm unmapped = (MPI_Comm)(intptr_t)0x12345678;
  const MPI_Comm ordinary = (MPI_Comm)(intptr_t)&not_a_comm[2];
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Send(&value, 1, MPI_INT, 0, 0, unmapped),
                    MPI_ERR_COMM, "MPI_Send(comm = 0x12345678)");
    MT_EXPECT_CLASS(fatal, MPI_Send(&value, 1, MPI_INT, 0, 0, ordinary),
                    MPI_ERR_COMM, "MPI_Send(comm = &ordinary memory)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_rank(unmapped, &rank), MPI_ERR_COMM,
                    "MPI_Comm_rank(0x12345678)");
  }
  return mt_errors_finish(fatal);
}
