// SPDX-License-Identifier: MIT
// MPI 4.0 §3.2.5: MPI_GET_COUNT returns "the number of entries received";
// "if the number of bytes is not a multiple of the datatype size ...
// MPI_UNDEFINED". MPI_GET_ELEMENTS counts basic elements.
//
// Rank 1 sends rank 0 messages of known sizes; rank 0 asks MPI_Get_count and
// MPI_Get_elements(_x) about the statuses with several datatypes.
#include "mpitest.h"

static void expect_count(const MPI_Status* status, MPI_Datatype type,
                         int expected, const char* what) {
  int count = -2;
  MPI_Get_count(status, type, &count);
  MT_CHECK(count == expected, "MPI_Get_count(%s) = %d, expected %d", what,
           count, expected);
  int elements = -2;
  MPI_Get_elements(status, type, &elements);
  MT_CHECK(elements == expected, "MPI_Get_elements(%s) = %d, expected %d", what,
           elements, expected);
  MPI_Count elements_x = -2;
  MPI_Get_elements_x(status, type, &elements_x);
  MT_CHECK(elements_x == (MPI_Count)expected,
           "MPI_Get_elements_x(%s) = %lld, expected %d", what,
           (long long)elements_x, expected);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  MT_CHECK(mt_size() >= 2, "needs at least 2 ranks");
  double values[1000];
  for (int i = 0; i < 1000; ++i) {
    values[i] = i;
  }
  if (rank == 1) {
    MPI_Send(values, 10, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
    MPI_Send(values, 3, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
    MPI_Send(values, 0, MPI_INT, 0, 3, MPI_COMM_WORLD);
    MPI_Send(values, 1000, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD);
    const short shorts[5] = {1, 2, 3, 4, 5};
    MPI_Send(shorts, 5, MPI_SHORT, 0, 5, MPI_COMM_WORLD);
  } else if (rank == 0) {
    double buf[1000];
    MPI_Status status;
    MPI_Recv(buf, 1000, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, &status);
    expect_count(&status, MPI_DOUBLE, 10, "10 doubles as MPI_DOUBLE");
    expect_count(&status, MPI_BYTE, 80, "10 doubles as MPI_BYTE");
    expect_count(&status, MPI_INT, 20, "10 doubles as MPI_INT");
    expect_count(&status, MPI_LONG_DOUBLE,
                 80 % (int)sizeof(long double) == 0
                     ? 80 / (int)sizeof(long double)
                     : MPI_UNDEFINED,
                 "10 doubles as MPI_LONG_DOUBLE");

    MPI_Recv(buf, 1000, MPI_BYTE, 1, 2, MPI_COMM_WORLD, &status);
    expect_count(&status, MPI_BYTE, 3, "3 bytes as MPI_BYTE");
    expect_count(&status, MPI_INT, MPI_UNDEFINED, "3 bytes as MPI_INT");

    MPI_Recv(buf, 1000, MPI_INT, 1, 3, MPI_COMM_WORLD, &status);
    expect_count(&status, MPI_INT, 0, "an empty message");
    expect_count(&status, MPI_DOUBLE, 0, "an empty message as MPI_DOUBLE");

    // A probe's status counts the same way as the receive's.
    MPI_Probe(1, 4, MPI_COMM_WORLD, &status);
    expect_count(&status, MPI_DOUBLE, 1000, "a probed 1000-double message");
    MPI_Recv(buf, 1000, MPI_DOUBLE, 1, 4, MPI_COMM_WORLD, &status);
    expect_count(&status, MPI_DOUBLE, 1000, "1000 doubles");
    for (int i = 0; i < 1000; ++i) {
      MT_CHECK(buf[i] == i, "buf[%d] = %g", i, buf[i]);
    }

    short shorts[8];
    MPI_Recv(shorts, 8, MPI_SHORT, 1, 5, MPI_COMM_WORLD, &status);
    expect_count(&status, MPI_SHORT, 5, "5 shorts");
    expect_count(&status, MPI_INT, MPI_UNDEFINED, "5 shorts as MPI_INT");
  }
  MPI_Finalize();
  return 0;
}
