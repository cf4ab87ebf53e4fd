// SPDX-License-Identifier: MIT
// The value-index pair types (MPI 4.0 §6.9.4) are defined as if built by
// MPI_Type_create_struct from their two fields: MPI_DOUBLE_INT is
// {(MPI_DOUBLE, 0), (MPI_INT, sizeof(double))}, MPI_SHORT_INT is
// {(MPI_SHORT, 0), (MPI_INT, offsetof(index))}. So their type signatures are
// (double, int) and (short, int): a message sent with one must be received
// with the other (§3.3.1, type matching by signature), and the true extent
// (§5.1.8) ends at the last byte of the index field, not at the padding.
//
// Rank 0 sends with the pair type and with the equivalent user struct; rank
// 1 receives each with the other type and checks values and MPI_Get_count.
#include <stddef.h>

#include "mt_pairs.h"

enum { kCount = 3 };

static void expect_true_extent(MPI_Datatype type, MPI_Aint expected,
                               const char* name) {
  MPI_Aint true_lb = -1, true_extent = -1;
  MT_CHECK_MPI(MPI_Type_get_true_extent(type, &true_lb, &true_extent));
  MT_CHECK(true_lb == 0 && true_extent == expected,
           "%s: true lb %ld, true extent %ld, expected 0 and %ld", name,
           (long)true_lb, (long)true_extent, (long)expected);
}

static void expect_count(const MPI_Status* status, MPI_Datatype type,
                         const char* what) {
  int count = -1;
  MT_CHECK_MPI(MPI_Get_count(status, type, &count));
  MT_CHECK(count == kCount, "%s: MPI_Get_count %d, expected %d", what, count,
           kCount);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  expect_true_extent(MPI_DOUBLE_INT, offsetof(DoubleInt, index) + sizeof(int),
                     "MPI_DOUBLE_INT");
  expect_true_extent(MPI_SHORT_INT, offsetof(ShortInt, index) + sizeof(int),
                     "MPI_SHORT_INT");

  MPI_Datatype user_double_int =
      mt_user_pair(MPI_DOUBLE, offsetof(DoubleInt, index), sizeof(DoubleInt));
  MPI_Datatype user_short_int =
      mt_user_pair(MPI_SHORT, offsetof(ShortInt, index), sizeof(ShortInt));

  if (rank == 0 && size > 1) {
    DoubleInt d[kCount];
    ShortInt s[kCount];
    for (int i = 0; i < kCount; i++) {
      d[i].value = 0.5 + i;
      d[i].index = 10 + i;
      s[i].value = (short)(20 + i);
      s[i].index = 30 + i;
    }
    MT_CHECK_MPI(MPI_Send(d, kCount, user_double_int, 1, 0, MPI_COMM_WORLD));
    MT_CHECK_MPI(MPI_Send(d, kCount, MPI_DOUBLE_INT, 1, 1, MPI_COMM_WORLD));
    MT_CHECK_MPI(MPI_Send(s, kCount, user_short_int, 1, 2, MPI_COMM_WORLD));
    MT_CHECK_MPI(MPI_Send(s, kCount, MPI_SHORT_INT, 1, 3, MPI_COMM_WORLD));
  } else if (rank == 1) {
    DoubleInt d[kCount];
    ShortInt s[kCount];
    MPI_Status status;
    for (int tag = 0; tag < 2; tag++) {
      memset(d, 0, sizeof d);
      MPI_Datatype type = tag == 0 ? MPI_DOUBLE_INT : user_double_int;
      const char* what =
          tag == 0 ? "struct -> MPI_DOUBLE_INT" : "MPI_DOUBLE_INT -> struct";
      MT_CHECK_MPI(MPI_Recv(d, kCount, type, 0, tag, MPI_COMM_WORLD, &status));
      expect_count(&status, type, what);
      for (int i = 0; i < kCount; i++) {
        MT_CHECK(d[i].value == 0.5 + i && d[i].index == 10 + i,
                 "%s: element %d is (%g, %d), expected (%g, %d)", what, i,
                 d[i].value, d[i].index, 0.5 + i, 10 + i);
      }
    }
    for (int tag = 2; tag < 4; tag++) {
      memset(s, 0, sizeof s);
      MPI_Datatype type = tag == 2 ? MPI_SHORT_INT : user_short_int;
      const char* what =
          tag == 2 ? "struct -> MPI_SHORT_INT" : "MPI_SHORT_INT -> struct";
      MT_CHECK_MPI(MPI_Recv(s, kCount, type, 0, tag, MPI_COMM_WORLD, &status));
      expect_count(&status, type, what);
      for (int i = 0; i < kCount; i++) {
        MT_CHECK(s[i].value == 20 + i && s[i].index == 30 + i,
                 "%s: element %d is (%d, %d), expected (%d, %d)", what, i,
                 s[i].value, s[i].index, 20 + i, 30 + i);
      }
    }
  }

  MPI_Type_free(&user_double_int);
  MPI_Type_free(&user_short_int);
  MPI_Finalize();
  return 0;
}
