// SPDX-License-Identifier: MIT
// The C structs of the value-index pair types (MPI_DOUBLE_INT,
// MPI_SHORT_INT) and a user datatype with a pair's type map, for the pair
// tests in tests/mpi/datatype. Plain C11 over standard MPI.
#ifndef SHMPI_TESTS_SUPPORT_MT_PAIRS_H_
#define SHMPI_TESTS_SUPPORT_MT_PAIRS_H_

#include "mpitest.h"

typedef struct {
  double value;
  int index;
} DoubleInt;

typedef struct {
  short value;
  int index;
} ShortInt;

// A committed struct of `value_type` at 0 and MPI_INT at `index_at`,
// resized to `extent`: the pair's type map written by the program.
static inline MPI_Datatype mt_user_pair(MPI_Datatype value_type,
                                        MPI_Aint index_at, MPI_Aint extent) {
  const int lengths[2] = {1, 1};
  const MPI_Aint displacements[2] = {0, index_at};
  const MPI_Datatype types[2] = {value_type, MPI_INT};
  MPI_Datatype loose, type;
  MT_CHECK_MPI(
      MPI_Type_create_struct(2, lengths, displacements, types, &loose));
  MT_CHECK_MPI(MPI_Type_create_resized(loose, 0, extent, &type));
  MT_CHECK_MPI(MPI_Type_free(&loose));
  MT_CHECK_MPI(MPI_Type_commit(&type));
  return type;
}

#endif  // SHMPI_TESTS_SUPPORT_MT_PAIRS_H_
