// SPDX-License-Identifier: MIT
// Bad datatype arguments and their error classes (MPI 4.0 §9.4): a derived
// type used in communication before MPI_Type_commit (MPI_ERR_TYPE), negative
// counts (MPI_ERR_COUNT), MPI_DATATYPE_NULL as the old type and freeing a
// predefined type (MPI_ERR_TYPE), MPI_Pack and MPI_Unpack of a NULL user
// buffer with a predefined type (MPI_ERR_BUFFER).
#include "mpitest.h"

int main(int argc, char** argv) {
  const int fatal = mt_errors_init(&argc, &argv);
  int values[4] = {1, 2, 3, 4};
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);  // not committed
  if (mt_errors_caller(fatal)) {
    MT_EXPECT_CLASS(fatal, MPI_Send(values, 1, pair, 0, 0, MPI_COMM_SELF),
                    MPI_ERR_TYPE, "MPI_Send with an uncommitted type");
    MPI_Datatype out = MPI_DATATYPE_NULL;
    MT_EXPECT_CLASS(fatal, MPI_Type_contiguous(-1, MPI_INT, &out),
                    MPI_ERR_COUNT, "MPI_Type_contiguous(count = -1)");
    MT_EXPECT_CLASS(fatal, MPI_Type_vector(-2, 1, 1, MPI_INT, &out),
                    MPI_ERR_COUNT, "MPI_Type_vector(count = -2)");
    MT_EXPECT_CLASS(fatal, MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &out),
                    MPI_ERR_TYPE, "MPI_Type_contiguous(MPI_DATATYPE_NULL)");
    MPI_Datatype predefined = MPI_INT;
    MT_EXPECT_CLASS(fatal, MPI_Type_free(&predefined), MPI_ERR_TYPE,
                    "MPI_Type_free(MPI_INT)");
    MPI_Datatype null_type = MPI_DATATYPE_NULL;
    MT_EXPECT_CLASS(fatal, MPI_Type_commit(&null_type), MPI_ERR_TYPE,
                    "MPI_Type_commit(MPI_DATATYPE_NULL)");
    // A NULL user buffer with a predefined type points at no data (with a
    // derived type it may be MPI_BOTTOM: datatype/bottom.c).
    char packed[64];
    int position = 0;
    MT_EXPECT_CLASS(fatal,
                    MPI_Pack(NULL, 2, MPI_INT, packed, (int)sizeof packed,
                             &position, MPI_COMM_SELF),
                    MPI_ERR_BUFFER, "MPI_Pack(NULL, 2, MPI_INT)");
    position = 0;
    MT_EXPECT_CLASS(fatal,
                    MPI_Unpack(packed, (int)sizeof packed, &position, NULL, 2,
                               MPI_INT, MPI_COMM_SELF),
                    MPI_ERR_BUFFER, "MPI_Unpack(..., NULL, 2, MPI_INT)");
  }
  MPI_Type_free(&pair);
  return mt_errors_finish(fatal);
}
