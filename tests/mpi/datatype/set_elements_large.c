// SPDX-License-Identifier: MIT
// MPI_Status_set_elements_x (MPI 4.0 §13.3) on large datatypes: the count
// MPI_Get_elements_x gives back is the count set, also when it ends inside
// an element of the datatype, and finding where it ends does not take time
// in proportion to the element's size.
//
// A type of 2^32 MPI_INTs (16 GiB, never allocated) with 2^32 - 1 elements
// set: shmpi tried every prefix of the last element, one byte at a time,
// which takes minutes (the test's timeout ends it). Then a struct of pairs,
// characters and a long run of shorts, with counts that end in each part.
//
// MPICH 4.0.2 takes the count as a count of the datatype's elements.
#include "mpitest.h"

static void expect_round_trip(MPI_Datatype type, MPI_Count set,
                              const char* name) {
  MPI_Status status;
  memset(&status, 0, sizeof status);
  MT_CHECK_MPI(MPI_Status_set_elements_x(&status, type, set));
  MPI_Count elements = -1;
  MT_CHECK_MPI(MPI_Get_elements_x(&status, type, &elements));
  MT_CHECK(elements == set, "%s: set %lld elements, got %lld back", name,
           (long long)set, (long long)elements);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  MPI_Datatype run, huge;
  MT_CHECK_MPI(MPI_Type_contiguous(1 << 16, MPI_INT, &run));
  MT_CHECK_MPI(MPI_Type_contiguous(1 << 16, run, &huge));
  MT_CHECK_MPI(MPI_Type_commit(&huge));
  const MPI_Count all = (MPI_Count)1 << 32;
  expect_round_trip(huge, all - 1, "2^32 ints");
  expect_round_trip(huge, all + 5, "2^32 ints");
  MPI_Status status;
  memset(&status, 0, sizeof status);
  MT_CHECK_MPI(MPI_Status_set_elements_x(&status, huge, all - 1));
  MPI_Count ints = -1;
  MT_CHECK_MPI(MPI_Get_count_c(&status, MPI_INT, &ints));
  MT_CHECK(ints == all - 1, "2^32 - 1 elements of 2^32 ints are %lld ints",
           (long long)ints);
  int count = 0;
  MT_CHECK_MPI(MPI_Get_count(&status, huge, &count));
  MT_CHECK(count == MPI_UNDEFINED, "a partial element counts %d", count);

  // {3 x MPI_DOUBLE_INT, 2 x MPI_CHAR, 2^20 x MPI_SHORT}: 6 + 2 + 2^20
  // basic elements.
  MPI_Datatype shorts, mixed;
  MT_CHECK_MPI(MPI_Type_contiguous(1 << 20, MPI_SHORT, &shorts));
  const int lengths[3] = {3, 2, 1};
  const MPI_Aint displacements[3] = {0, 48, 64};
  const MPI_Datatype types[3] = {MPI_DOUBLE_INT, MPI_CHAR, shorts};
  MT_CHECK_MPI(
      MPI_Type_create_struct(3, lengths, displacements, types, &mixed));
  MT_CHECK_MPI(MPI_Type_commit(&mixed));
  const MPI_Count per = 6 + 2 + (1 << 20);
  const MPI_Count sets[] = {0, 1, 2,       5,   6,       7,
                            8, 9, per - 1, per, per + 3, 3 * per + 7};
  for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
    expect_round_trip(mixed, sets[i], "struct of pairs, chars and shorts");
  }

  MT_CHECK_MPI(MPI_Type_free(&run));
  MT_CHECK_MPI(MPI_Type_free(&huge));
  MT_CHECK_MPI(MPI_Type_free(&shorts));
  MT_CHECK_MPI(MPI_Type_free(&mixed));
  MPI_Finalize();
  return 0;
}
