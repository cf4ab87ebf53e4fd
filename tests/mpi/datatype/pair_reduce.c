// SPDX-License-Identifier: MIT
// MPI_MINLOC and MPI_MAXLOC on the padded value-index pairs, on the pair
// type itself and on a derived type made of pairs. A pair type travels as
// its data only (MPI 4.0 §6.9.4 defines it as the struct of its two fields),
// while a reduction on it folds the user's C structs: the two forms must
// give the same results, in every reduction and with MPI_Reduce_local.
//
// With the argument "derived", a contiguous type of two pairs too: shmpi
// takes a predefined operation on a derived type made of one predefined
// type, MPICH refuses MINLOC there (MPI 4.0 §6.9.2 lists the pair types).
// With "mixed", also odd ranks passing the contiguous type and even ranks
// the pair type in the same calls: shmpi reduces both as C structs, so
// their data agree (they did not when the derived type reduced its data
// only: wrong results, and a crash at 5000 pairs).
//
// Rank r contributes, for element i, the value (i * 7 + r * 3) % 5 with the
// index r * 10 + i; the expected minimum and maximum (smallest index on
// ties) are computed from that formula.
#include "mt_pairs.h"

enum { kCount = 6 };  // pairs per buffer: 3 elements of a pair of pairs

static double value_of(int rank, int i) {
  return (double)((i * 7 + rank * 3) % 5);
}

// The winner of element i over ranks [0, last]: `max` for MAXLOC.
static void expected(int last, int i, int max, double* value, int* index) {
  *value = value_of(0, i);
  *index = i;
  for (int r = 1; r <= last; r++) {
    const double v = value_of(r, i);
    if (max ? v > *value : v < *value) {
      *value = v;
      *index = r * 10 + i;
    }
  }
}

static void fill_double(DoubleInt* d, int rank) {
  for (int i = 0; i < kCount; i++) {
    d[i].value = value_of(rank, i);
    d[i].index = rank * 10 + i;
  }
}

static void fill_short(ShortInt* s, int rank) {
  for (int i = 0; i < kCount; i++) {
    s[i].value = (short)value_of(rank, i);
    s[i].index = rank * 10 + i;
  }
}

static void check_double(const DoubleInt* d, int last, int max,
                         const char* what) {
  for (int i = 0; i < kCount; i++) {
    double value;
    int index;
    expected(last, i, max, &value, &index);
    MT_CHECK(d[i].value == value && d[i].index == index,
             "%s: element %d is (%g, %d), expected (%g, %d)", what, i,
             d[i].value, d[i].index, value, index);
  }
}

static void check_short(const ShortInt* s, int last, int max,
                        const char* what) {
  for (int i = 0; i < kCount; i++) {
    double value;
    int index;
    expected(last, i, max, &value, &index);
    MT_CHECK(s[i].value == (short)value && s[i].index == index,
             "%s: element %d is (%d, %d), expected (%g, %d)", what, i,
             s[i].value, s[i].index, value, index);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  MPI_Datatype two_double_int, two_short_int;
  MT_CHECK_MPI(MPI_Type_contiguous(2, MPI_DOUBLE_INT, &two_double_int));
  MT_CHECK_MPI(MPI_Type_commit(&two_double_int));
  MT_CHECK_MPI(MPI_Type_contiguous(2, MPI_SHORT_INT, &two_short_int));
  MT_CHECK_MPI(MPI_Type_commit(&two_short_int));

  const int kinds = argc < 2                          ? 1
                    : strcmp(argv[1], "derived") == 0 ? 2
                    : strcmp(argv[1], "mixed") == 0   ? 3
                                                      : 1;
  for (int max = 0; max < 2; max++) {
    const MPI_Op op = max ? MPI_MAXLOC : MPI_MINLOC;
    DoubleInt d_in[kCount], d_out[kCount];
    ShortInt s_in[kCount], s_out[kCount];
    for (int kind_index = 0; kind_index < kinds; kind_index++) {
      // 2: mixed, the derived type on odd ranks only.
      const int derived = kind_index == 2 ? rank % 2 : kind_index;
      const MPI_Datatype dtype = derived ? two_double_int : MPI_DOUBLE_INT;
      const MPI_Datatype stype = derived ? two_short_int : MPI_SHORT_INT;
      const int n = derived ? kCount / 2 : kCount;
      const char* kind = kind_index == 2 ? "mixed"
                         : derived       ? "contiguous of pairs"
                                         : "pair";

      fill_double(d_in, rank);
      memset(d_out, 0, sizeof d_out);
      MT_CHECK_MPI(MPI_Allreduce(d_in, d_out, n, dtype, op, MPI_COMM_WORLD));
      check_double(d_out, size - 1, max, kind);

      fill_short(s_in, rank);
      memset(s_out, 0, sizeof s_out);
      MT_CHECK_MPI(MPI_Allreduce(s_in, s_out, n, stype, op, MPI_COMM_WORLD));
      check_short(s_out, size - 1, max, kind);

      fill_double(d_out, rank);
      MT_CHECK_MPI(
          MPI_Allreduce(MPI_IN_PLACE, d_out, n, dtype, op, MPI_COMM_WORLD));
      check_double(d_out, size - 1, max, kind);

      memset(d_out, 0, sizeof d_out);
      MT_CHECK_MPI(MPI_Reduce(d_in, d_out, n, dtype, op, 0, MPI_COMM_WORLD));
      if (rank == 0) {
        check_double(d_out, size - 1, max, kind);
      }

      memset(d_out, 0, sizeof d_out);
      MT_CHECK_MPI(MPI_Scan(d_in, d_out, n, dtype, op, MPI_COMM_WORLD));
      check_double(d_out, rank, max, kind);

      // MPI_Reduce_local: rank 1's contribution into rank 0's.
      fill_double(d_in, 1);
      fill_double(d_out, 0);
      MT_CHECK_MPI(MPI_Reduce_local(d_in, d_out, n, dtype, op));
      check_double(d_out, 1, max, kind);
      fill_short(s_in, 1);
      fill_short(s_out, 0);
      MT_CHECK_MPI(MPI_Reduce_local(s_in, s_out, n, stype, op));
      check_short(s_out, 1, max, kind);
    }
  }

  MT_CHECK_MPI(MPI_Type_free(&two_double_int));
  MT_CHECK_MPI(MPI_Type_free(&two_short_int));
  MPI_Finalize();
  return 0;
}
