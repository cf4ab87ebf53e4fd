// SPDX-License-Identifier: MIT
// Datatype queries (MPI 4.0 §5.1.5, §5.1.7, §5.1.13, §6.8): sizes, extents
// and true extents of each constructor, resized types with a negative lower
// bound, names, MPI_Type_dup, and the envelope and contents a constructor
// leaves behind. One rank is enough; every rank checks.
#include "mpitest.h"

static void expect_shape(MPI_Datatype type, MPI_Count size, MPI_Aint lb,
                         MPI_Aint extent, MPI_Aint true_lb,
                         MPI_Aint true_extent, const char* what) {
  int int_size = -1;
  MPI_Type_size(type, &int_size);
  MPI_Count size_x = -1;
  MPI_Type_size_x(type, &size_x);
  MT_CHECK(int_size == size && size_x == size,
           "%s: size %d / %lld, expected %lld", what, int_size,
           (long long)size_x, (long long)size);
  MPI_Aint got_lb, got_extent;
  MPI_Type_get_extent(type, &got_lb, &got_extent);
  MT_CHECK(got_lb == lb && got_extent == extent,
           "%s: lb %ld extent %ld, expected %ld %ld", what, (long)got_lb,
           (long)got_extent, (long)lb, (long)extent);
  MPI_Type_get_true_extent(type, &got_lb, &got_extent);
  MT_CHECK(got_lb == true_lb && got_extent == true_extent,
           "%s: true lb %ld true extent %ld, expected %ld %ld", what,
           (long)got_lb, (long)got_extent, (long)true_lb, (long)true_extent);
  MPI_Count lb_x, extent_x;
  MPI_Type_get_extent_x(type, &lb_x, &extent_x);
  MT_CHECK(lb_x == lb && extent_x == extent, "%s: MPI_Type_get_extent_x", what);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);

  MPI_Datatype contiguous, vector, hvector, indexed, block, resized, sub;
  MPI_Type_contiguous(4, MPI_INT, &contiguous);
  expect_shape(contiguous, 16, 0, 16, 0, 16, "contiguous(4, int)");

  MPI_Type_vector(3, 2, 5, MPI_DOUBLE, &vector);
  expect_shape(vector, 48, 0, (2 * 5 + 2) * 8, 0, (2 * 5 + 2) * 8,
               "vector(3, 2, 5, double)");

  MPI_Type_create_hvector(2, 1, -24, MPI_INT, &hvector);
  expect_shape(hvector, 8, -24, 28, -24, 28, "hvector(2, 1, -24, int)");

  const int lengths[2] = {2, 1};
  const int displacements[2] = {3, -1};
  MPI_Type_indexed(2, lengths, displacements, MPI_SHORT, &indexed);
  expect_shape(indexed, 6, -2, 12, -2, 12, "indexed({2,1}, {3,-1}, short)");

  const int block_displacements[3] = {0, 4, 9};
  MPI_Type_create_indexed_block(3, 2, block_displacements, MPI_FLOAT, &block);
  expect_shape(block, 24, 0, 44, 0, 44, "indexed_block(3, 2, float)");

  MPI_Type_create_resized(vector, -16, 200, &resized);
  expect_shape(resized, 48, -16, 200, 0, 96, "resized(vector, -16, 200)");

  const int sizes[3] = {4, 5, 6}, subsizes[3] = {2, 2, 2},
            starts[3] = {1, 2, 3};
  MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_FORTRAN,
                           MPI_CHAR, &sub);
  // Fortran order: first index fastest; first byte at 1 + 4 * (2 + 5 * 3).
  expect_shape(sub, 8, 0, 120, 1 + 4 * 17, 1 + 4 + 20 * 1 + 1,
               "subarray Fortran order");

  // Names: predefined, derived (empty until set), duplicated.
  char name[MPI_MAX_OBJECT_NAME];
  int length = -1;
  MPI_Type_get_name(MPI_DOUBLE, name, &length);
  MT_CHECK(strcmp(name, "MPI_DOUBLE") == 0, "name of MPI_DOUBLE: '%s'", name);
  MPI_Type_get_name(vector, name, &length);
  MT_CHECK(length == 0 && name[0] == '\0', "unnamed type: '%s'", name);
  MPI_Type_set_name(vector, "columns");
  MPI_Type_get_name(vector, name, &length);
  MT_CHECK(strcmp(name, "columns") == 0 && length == 7, "name '%s' (%d)", name,
           length);

  // Envelope and contents.
  int ni, na, nd, combiner;
  MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &combiner);
  MT_CHECK(combiner == MPI_COMBINER_NAMED, "MPI_INT combiner %d", combiner);
  MPI_Type_get_envelope(vector, &ni, &na, &nd, &combiner);
  MT_CHECK(combiner == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1,
           "vector envelope %d %d %d %d", combiner, ni, na, nd);
  int integers[3];
  MPI_Aint addresses[1];
  MPI_Datatype types[1];
  MPI_Type_get_contents(vector, 3, 0, 1, integers, addresses, types);
  MT_CHECK(integers[0] == 3 && integers[1] == 2 && integers[2] == 5 &&
               types[0] == MPI_DOUBLE,
           "vector contents %d %d %d", integers[0], integers[1], integers[2]);
  MPI_Type_get_envelope(resized, &ni, &na, &nd, &combiner);
  MT_CHECK(combiner == MPI_COMBINER_RESIZED && ni == 0 && na == 2 && nd == 1,
           "resized envelope %d %d %d %d", combiner, ni, na, nd);
  MPI_Aint bounds[2];
  MPI_Type_get_contents(resized, 0, 2, 1, integers, bounds, types);
  MT_CHECK(bounds[0] == -16 && bounds[1] == 200, "resized contents %ld %ld",
           (long)bounds[0], (long)bounds[1]);
  // The inner type came back as a derived handle: the caller frees it.
  MPI_Type_get_envelope(types[0], &ni, &na, &nd, &combiner);
  MT_CHECK(combiner == MPI_COMBINER_VECTOR, "resized's inner combiner %d",
           combiner);
  MPI_Type_free(&types[0]);

  // A duplicate has the same shape; freeing the original first is fine.
  MPI_Datatype dup;
  MPI_Type_commit(&hvector);
  MPI_Type_dup(hvector, &dup);
  MPI_Type_free(&hvector);
  expect_shape(dup, 8, -24, 28, -24, 28, "dup of hvector");
  MPI_Type_get_envelope(dup, &ni, &na, &nd, &combiner);
  MT_CHECK(combiner == MPI_COMBINER_DUP && nd == 1, "dup envelope %d",
           combiner);
  int values[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int got[8] = {0};
  MPI_Sendrecv(values + 6, 1, dup, 0, 0, got + 6, 1, dup, 0, 0, MPI_COMM_SELF,
               MPI_STATUS_IGNORE);
  MT_CHECK(got[0] == 1 && got[6] == 7 && got[3] == 0,
           "dup in Sendrecv: %d %d %d", got[0], got[6], got[3]);

  // A type used by another type outlives its handle.
  MPI_Datatype outer;
  MPI_Type_contiguous(2, contiguous, &outer);
  MPI_Type_free(&contiguous);
  MPI_Type_commit(&outer);
  expect_shape(outer, 32, 0, 32, 0, 32, "contiguous of a freed type");

  MPI_Type_free(&outer);
  MPI_Type_free(&dup);
  MPI_Type_free(&vector);
  MPI_Type_free(&indexed);
  MPI_Type_free(&block);
  MPI_Type_free(&resized);
  MPI_Type_free(&sub);
  MPI_Finalize();
  return 0;
}
