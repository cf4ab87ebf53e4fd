// SPDX-License-Identifier: MIT
// MPI_Pack / MPI_Unpack / MPI_Pack_size (MPI 4.0 §5.2): several typed
// pieces packed one after another into one buffer, sent as MPI_PACKED and
// unpacked on the other side, including into a derived type with negative
// displacements; a round trip through a subarray.
#include "mpitest.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = mt_rank();
  MT_CHECK(mt_size() >= 2, "needs at least 2 ranks");

  int ints[10];
  double doubles[20];
  // Every other double, addressed from the middle of the array: negative
  // displacements relative to the buffer passed in.
  MPI_Datatype odd;
  const int lengths[3] = {1, 1, 1};
  const int displacements[3] = {-4, -2, 2};
  MPI_Type_indexed(3, lengths, displacements, MPI_DOUBLE, &odd);
  MPI_Type_commit(&odd);

  int int_size = 0, odd_size = 0;
  MPI_Pack_size(10, MPI_INT, MPI_COMM_WORLD, &int_size);
  MPI_Pack_size(2, odd, MPI_COMM_WORLD, &odd_size);
  MT_CHECK(int_size >= 10 * (int)sizeof(int), "MPI_Pack_size(10 ints) = %d",
           int_size);
  MT_CHECK(odd_size >= 6 * (int)sizeof(double), "MPI_Pack_size(2 odd) = %d",
           odd_size);
  const int capacity = int_size + odd_size;
  char* packed = mt_malloc((size_t)capacity);

  if (rank == 0) {
    for (int i = 0; i < 10; ++i) {
      ints[i] = 7 * i;
    }
    for (int i = 0; i < 20; ++i) {
      doubles[i] = i * 0.25;
    }
    int position = 0;
    MPI_Pack(ints, 10, MPI_INT, packed, capacity, &position, MPI_COMM_WORLD);
    MPI_Pack(doubles + 8, 2, odd, packed, capacity, &position, MPI_COMM_WORLD);
    MT_CHECK(position <= capacity, "position %d beyond %d", position, capacity);
    MPI_Send(packed, position, MPI_PACKED, 1, 1, MPI_COMM_WORLD);
    // The same data as typed messages, received packed and unpacked there.
    MPI_Send(doubles + 8, 2, odd, 1, 2, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Status status;
    MPI_Recv(packed, capacity, MPI_PACKED, 0, 1, MPI_COMM_WORLD, &status);
    int received = 0;
    MPI_Get_count(&status, MPI_PACKED, &received);
    int position = 0;
    for (int i = 0; i < 20; ++i) {
      doubles[i] = -1;
    }
    MPI_Unpack(packed, received, &position, ints, 10, MPI_INT, MPI_COMM_WORLD);
    MPI_Unpack(packed, received, &position, doubles + 8, 2, odd,
               MPI_COMM_WORLD);
    MT_CHECK(position == received, "unpacked %d of %d bytes", position,
             received);
    for (int i = 0; i < 10; ++i) {
      MT_CHECK(ints[i] == 7 * i, "ints[%d] = %d", i, ints[i]);
    }
    // Element 0 of odd at doubles+8 covers 4, 6, 10; element 1 (extent 7
    // doubles from lb -4 to ub 3) covers 11, 13, 17.
    const int touched[6] = {4, 6, 10, 11, 13, 17};
    for (int i = 0, t = 0; i < 20; ++i) {
      const int expect = t < 6 && touched[t] == i;
      const double want = expect ? i * 0.25 : -1;
      MT_CHECK(doubles[i] == want, "doubles[%d] = %g, expected %g", i,
               doubles[i], want);
      t += expect;
    }
    // A typed message received as MPI_PACKED, then unpacked.
    MPI_Recv(packed, capacity, MPI_PACKED, 0, 2, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, MPI_PACKED, &received);
    double copy[20];
    for (int i = 0; i < 20; ++i) {
      copy[i] = -1;
    }
    position = 0;
    MPI_Unpack(packed, received, &position, copy + 8, 2, odd, MPI_COMM_WORLD);
    for (int i = 0; i < 20; ++i) {
      MT_CHECK(copy[i] == doubles[i], "copy[%d] = %g, expected %g", i, copy[i],
               doubles[i]);
    }
  }

  // A local round trip through a C-order subarray of a 6x5 array.
  int array[6][5];
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 5; ++j) {
      array[i][j] = 10 * i + j;
    }
  }
  const int sizes[2] = {6, 5}, subsizes[2] = {2, 3}, starts[2] = {3, 1};
  MPI_Datatype sub;
  MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT,
                           &sub);
  MPI_Type_commit(&sub);
  int flat[6];
  int position = 0;
  MPI_Pack(array, 1, sub, flat, (int)sizeof flat, &position, MPI_COMM_WORLD);
  MT_CHECK(position == (int)sizeof flat, "packed %d bytes", position);
  const int expected[6] = {31, 32, 33, 41, 42, 43};
  for (int i = 0; i < 6; ++i) {
    MT_CHECK(flat[i] == expected[i], "subarray[%d] = %d, expected %d", i,
             flat[i], expected[i]);
  }
  MPI_Type_free(&sub);
  MPI_Type_free(&odd);
  free(packed);
  MPI_Finalize();
  return 0;
}
