// SPDX-License-Identifier: MIT
// MPI_Get_elements counts the basic elements of a value-index pair type
// one field at a time: MPI 4.0 §6.9.4 defines MPI_2INT, MPI_DOUBLE_INT, ...
// as structs of their value and their index, so one pair is two basic
// elements, and a message holding only the value of the last pair holds an
// odd number of them.
//
// Every rank: MPI_Status_set_elements(pair, k) then MPI_Get_elements(pair)
// gives k back (§13.3), odd k included, for each pair type and for a
// contiguous type of pairs; MPI_Get_count is k / 2, or MPI_UNDEFINED for an
// odd k. Ranks 0 and 1: three MPI_INTs received as two MPI_2INTs are three
// elements, one MPI_DOUBLE received as an MPI_DOUBLE_INT is one (the
// signatures are prefixes of the receive types', §3.3.1).
//
// MPICH 4.0.2 takes set_elements' count as a count of pairs (MPI_2INT, 1
// gives 2 elements back) and divides by zero in MPI_Get_elements on
// MPI_FLOAT_INT.
#include "mt_pairs.h"

typedef struct {
  int value;
  int index;
} IntInt;

static void expect_elements(MPI_Datatype type, int set, const char* name) {
  MPI_Status status;
  memset(&status, 0, sizeof status);
  MT_CHECK_MPI(MPI_Status_set_elements(&status, type, set));
  int elements = -1;
  MT_CHECK_MPI(MPI_Get_elements(&status, type, &elements));
  MPI_Count elements_x = -1;
  MT_CHECK_MPI(MPI_Get_elements_x(&status, type, &elements_x));
  MT_CHECK(elements == set && elements_x == set,
           "%s: MPI_Status_set_elements %d, MPI_Get_elements %d / %lld", name,
           set, elements, (long long)elements_x);
}

static void expect_pair_count(MPI_Datatype type, int set, const char* name) {
  MPI_Status status;
  memset(&status, 0, sizeof status);
  MT_CHECK_MPI(MPI_Status_set_elements(&status, type, set));
  int count = -1;
  MT_CHECK_MPI(MPI_Get_count(&status, type, &count));
  const int expected = set % 2 == 0 ? set / 2 : MPI_UNDEFINED;
  MT_CHECK(count == expected,
           "%s: MPI_Status_set_elements %d, MPI_Get_count %d, expected %d",
           name, set, count, expected);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  const struct {
    MPI_Datatype type;
    const char* name;
  } pairs[] = {
      {MPI_FLOAT_INT, "MPI_FLOAT_INT"},
      {MPI_DOUBLE_INT, "MPI_DOUBLE_INT"},
      {MPI_LONG_INT, "MPI_LONG_INT"},
      {MPI_2INT, "MPI_2INT"},
      {MPI_SHORT_INT, "MPI_SHORT_INT"},
      {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT"},
  };
  for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
    for (int set = 0; set <= 5; set++) {
      expect_elements(pairs[p].type, set, pairs[p].name);
      expect_pair_count(pairs[p].type, set, pairs[p].name);
    }
  }
  MPI_Datatype three;
  MT_CHECK_MPI(MPI_Type_contiguous(3, MPI_DOUBLE_INT, &three));
  MT_CHECK_MPI(MPI_Type_commit(&three));
  for (int set = 0; set <= 13; set++) {
    expect_elements(three, set, "contiguous(3, MPI_DOUBLE_INT)");
  }
  MT_CHECK_MPI(MPI_Type_free(&three));

  if (rank == 0 && size > 1) {
    const int ints[3] = {1, 2, 3};
    const double value = 4.5;
    MT_CHECK_MPI(MPI_Send(ints, 3, MPI_INT, 1, 0, MPI_COMM_WORLD));
    MT_CHECK_MPI(MPI_Send(&value, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD));
  } else if (rank == 1) {
    IntInt ii[2] = {{0, 0}, {0, 0}};
    MPI_Status status;
    MT_CHECK_MPI(MPI_Recv(ii, 2, MPI_2INT, 0, 0, MPI_COMM_WORLD, &status));
    int elements = -1, count = -1;
    MT_CHECK_MPI(MPI_Get_elements(&status, MPI_2INT, &elements));
    MT_CHECK_MPI(MPI_Get_count(&status, MPI_2INT, &count));
    MT_CHECK(elements == 3 && count == MPI_UNDEFINED,
             "3 ints as MPI_2INT: %d elements, count %d", elements, count);
    MT_CHECK(ii[0].value == 1 && ii[0].index == 2 && ii[1].value == 3,
             "3 ints as MPI_2INT: got %d %d %d", ii[0].value, ii[0].index,
             ii[1].value);

    DoubleInt di = {0.0, -1};
    MT_CHECK_MPI(
        MPI_Recv(&di, 1, MPI_DOUBLE_INT, 0, 1, MPI_COMM_WORLD, &status));
    MT_CHECK_MPI(MPI_Get_elements(&status, MPI_DOUBLE_INT, &elements));
    MT_CHECK(elements == 1 && di.value == 4.5,
             "a double as MPI_DOUBLE_INT: %d elements, value %g", elements,
             di.value);
  }

  MPI_Finalize();
  return 0;
}
