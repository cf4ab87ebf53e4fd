// SPDX-License-Identifier: MIT
// MPI 4.0 §11.8.3: MPI_Comm_disconnect "may not be called with the
// communicator MPI_COMM_WORLD or MPI_COMM_SELF" (MPI_ERR_COMM, as for
// MPI_Comm_free), and MPI_COMM_NULL is no communicator (MPI_ERR_COMM).
// Both predefined communicators work afterwards.
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  MPI_Comm world = MPI_COMM_WORLD;
  MPI_Comm self = MPI_COMM_SELF;
  MPI_Comm null = MPI_COMM_NULL;
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Comm_disconnect(&world), MPI_ERR_COMM,
                    "MPI_Comm_disconnect(&MPI_COMM_WORLD)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_disconnect(&self), MPI_ERR_COMM,
                    "MPI_Comm_disconnect(&MPI_COMM_SELF)");
    MT_EXPECT_CLASS(fatal, MPI_Comm_disconnect(&null), MPI_ERR_COMM,
                    "MPI_Comm_disconnect(&MPI_COMM_NULL)");
  }
  if (!fatal) {
    MT_CHECK(world == MPI_COMM_WORLD && self == MPI_COMM_SELF,
             "a failed disconnect changed the handle");
    int sum = 0;
    const int one = 1;
    MT_CHECK_MPI(
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    MT_CHECK(sum == mt_size(), "MPI_Allreduce after it gave %d", sum);
    MT_CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF));
    MT_CHECK(sum == 1, "MPI_Allreduce on MPI_COMM_SELF gave %d", sum);
  }
  return mt_errors_finish(fatal);
}
