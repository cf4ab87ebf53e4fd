// SPDX-License-Identifier: MIT
// MPI_Type_create_darray (MPI 4.0 section 5.1.4) and its _c form: for
// block, cyclic (several block sizes) and undistributed dimensions, in C
// and Fortran order, in 1 to 3 dimensions, rank 0 sends the whole global
// array to every rank through that rank's darray type, and each rank checks
// that it received exactly the elements it owns, in memory order, against a
// reference computed element by element from the distribution rules. Also:
// size, extent (the whole array), envelope and contents, the _c form, a
// derived old type, and MPI_ERR_ARG (MPI_ERR_RANK for the rank) for bad
// arguments (with "strict", also
// for a grid that does not match the size, which MPICH does not check, and
// an unknown distribution, on which it crashes).
#include <string.h>

#include "mpitest.h"

enum { kMaxDims = 3 };

struct layout {
  int ndims;
  int gsizes[kMaxDims];
  int distribs[kMaxDims];
  int dargs[kMaxDims];
  int psizes[kMaxDims];  // 0: spread the ranks over this dimension
};

// Block size of dimension `d` as the standard defines it.
static int block_of(const struct layout* l, int d) {
  const int g = l->gsizes[d], p = l->psizes[d], a = l->dargs[d];
  switch (l->distribs[d]) {
    case MPI_DISTRIBUTE_BLOCK:
      return a == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : a;
    case MPI_DISTRIBUTE_CYCLIC:
      return a == MPI_DISTRIBUTE_DFLT_DARG ? 1 : a;
    default:
      return g;
  }
}

// Whether the rank at grid coordinates `coords` owns global index `x` of
// dimension `d`.
static int owns(const struct layout* l, int d, int x, const int* coords) {
  return (x / block_of(l, d)) % l->psizes[d] == coords[d];
}

// Checks what `rank` received: the offsets (in elements of the global
// array stored in `order`) it owns, ascending.
static void check_received(const struct layout* l, int order, int rank,
                           int size, const int* got, int count) {
  int coords[kMaxDims];
  int rest = rank;
  for (int d = l->ndims - 1; d >= 0; --d) {
    coords[d] = rest % l->psizes[d];
    rest /= l->psizes[d];
  }
  int total = 1;
  for (int d = 0; d < l->ndims; ++d) {
    total *= l->gsizes[d];
  }
  int next = 0;
  for (int offset = 0; offset < total; ++offset) {
    // The index of each dimension at this memory offset.
    int index[kMaxDims];
    int rem = offset;
    for (int k = 0; k < l->ndims; ++k) {
      const int d = order == MPI_ORDER_C ? l->ndims - 1 - k : k;
      index[d] = rem % l->gsizes[d];
      rem /= l->gsizes[d];
    }
    int mine = 1;
    for (int d = 0; d < l->ndims; ++d) {
      mine = mine && owns(l, d, index[d], coords);
    }
    if (mine) {
      MT_CHECK(next < count && got[next] == offset,
               "rank %d of %d (%s order): element %d is %d, expected %d", rank,
               size, order == MPI_ORDER_C ? "C" : "Fortran", next,
               next < count ? got[next] : -1, offset);
      ++next;
    }
  }
  MT_CHECK(next == count, "rank %d received %d elements, owns %d", rank, count,
           next);
}

static void run(struct layout l, int order, int use_c) {
  const int rank = mt_rank();
  const int size = mt_size();
  // psize 0: this dimension takes the ranks (the others are given).
  int spread = 1;
  for (int d = 0; d < l.ndims; ++d) {
    spread *= l.psizes[d] > 0 ? l.psizes[d] : 1;
  }
  for (int d = 0; d < l.ndims; ++d) {
    if (l.psizes[d] == 0) {
      l.psizes[d] = size / spread;
    }
  }
  int grid = 1, total = 1;
  for (int d = 0; d < l.ndims; ++d) {
    grid *= l.psizes[d];
    total *= l.gsizes[d];
  }
  int covered = 1;
  for (int d = 0; d < l.ndims; ++d) {
    covered = covered && (l.distribs[d] != MPI_DISTRIBUTE_BLOCK ||
                          block_of(&l, d) * l.psizes[d] >= l.gsizes[d]);
  }
  if (grid != size || !covered) {
    return;  // this layout does not fit this many ranks
  }
  int* global = mt_malloc(sizeof(int) * (size_t)total);
  int* mine = mt_malloc(sizeof(int) * (size_t)total + 1);
  for (int i = 0; i < total; ++i) {
    global[i] = i;
  }
  MPI_Datatype* types = mt_malloc(sizeof(MPI_Datatype) * (size_t)size);
  MPI_Request* requests = mt_malloc(sizeof(MPI_Request) * (size_t)(size + 1));
  int nrequests = 0;
  if (rank == 0) {
    for (int r = 0; r < size; ++r) {
      if (use_c) {
        MPI_Count gsizes[kMaxDims];
        for (int d = 0; d < l.ndims; ++d) {
          gsizes[d] = l.gsizes[d];
        }
        MT_CHECK_MPI(MPI_Type_create_darray_c(size, r, l.ndims, gsizes,
                                              l.distribs, l.dargs, l.psizes,
                                              order, MPI_INT, &types[r]));
      } else {
        MT_CHECK_MPI(MPI_Type_create_darray(size, r, l.ndims, l.gsizes,
                                            l.distribs, l.dargs, l.psizes,
                                            order, MPI_INT, &types[r]));
      }
      MT_CHECK_MPI(MPI_Type_commit(&types[r]));
      MPI_Aint lb = -1, extent = -1;
      MT_CHECK_MPI(MPI_Type_get_extent(types[r], &lb, &extent));
      MT_CHECK(lb == 0 && extent == (MPI_Aint)(total * sizeof(int)),
               "darray lb %ld extent %ld, expected 0 and %ld", (long)lb,
               (long)extent, (long)(total * sizeof(int)));
      MT_CHECK_MPI(MPI_Isend(global, 1, types[r], r, 7, MPI_COMM_WORLD,
                             &requests[nrequests++]));
    }
  }
  MPI_Status status;
  MT_CHECK_MPI(
      MPI_Recv(mine, total + 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &status));
  int count = -1;
  MT_CHECK_MPI(MPI_Get_count(&status, MPI_INT, &count));
  check_received(&l, order, rank, size, mine, count);
  MT_CHECK_MPI(MPI_Waitall(nrequests, requests, MPI_STATUSES_IGNORE));
  if (rank == 0) {
    for (int r = 0; r < size; ++r) {
      MT_CHECK_MPI(MPI_Type_free(&types[r]));
    }
  }
  free(requests);
  free(types);
  free(mine);
  free(global);
}

// The envelope and contents give back the arguments; a derived old type
// scales the extent.
static void check_contents(void) {
  const int gsizes[2] = {6, 5},
            distribs[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK};
  const int dargs[2] = {2, MPI_DISTRIBUTE_DFLT_DARG}, psizes[2] = {2, 1};
  MPI_Datatype pair, darray;
  MT_CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
  MT_CHECK_MPI(MPI_Type_create_darray(2, 1, 2, gsizes, distribs, dargs, psizes,
                                      MPI_ORDER_FORTRAN, pair, &darray));
  int nints = 0, naddrs = 0, ntypes = 0, combiner = 0;
  MT_CHECK_MPI(
      MPI_Type_get_envelope(darray, &nints, &naddrs, &ntypes, &combiner));
  MT_CHECK(combiner == MPI_COMBINER_DARRAY && nints == 12 && naddrs == 0 &&
               ntypes == 1,
           "envelope %d %d %d %d", nints, naddrs, ntypes, combiner);
  int ints[12];
  MPI_Datatype old;
  MT_CHECK_MPI(MPI_Type_get_contents(darray, 12, 0, 1, ints, NULL, &old));
  const int expected[12] = {
      2,           1,        2,        6,         5,         distribs[0],
      distribs[1], dargs[0], dargs[1], psizes[0], psizes[1], MPI_ORDER_FORTRAN};
  MT_CHECK(memcmp(ints, expected, sizeof ints) == 0,
           "contents differ: %d %d %d ...", ints[0], ints[1], ints[2]);
  MT_CHECK_MPI(MPI_Type_free(&old));
  int bytes = -1;
  MT_CHECK_MPI(MPI_Type_size(darray, &bytes));
  // Rank 1 of 2 holds rows 2, 3 of 6 (cyclic blocks of 2) in every column.
  MT_CHECK(bytes == 2 * 5 * 8, "size %d, expected %d", bytes, 2 * 5 * 8);
  MPI_Aint lb, extent;
  MT_CHECK_MPI(MPI_Type_get_extent(darray, &lb, &extent));
  MT_CHECK(lb == 0 && extent == 6 * 5 * 8, "extent %ld", (long)extent);
  MT_CHECK_MPI(MPI_Type_free(&darray));
  MT_CHECK_MPI(MPI_Type_free(&pair));
}

static void check_errors(int strict) {
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Datatype t = MPI_DATATYPE_NULL;
  int g[1] = {10}, d[1] = {MPI_DISTRIBUTE_BLOCK}, a[1] = {2}, p[1] = {3};
  MT_EXPECT_CLASS(
      0, MPI_Type_create_darray(3, 0, 1, g, d, a, p, MPI_ORDER_C, MPI_INT, &t),
      MPI_ERR_ARG, "blocks of 2 on 3 processes for 10 elements");
  a[0] = MPI_DISTRIBUTE_DFLT_DARG;
  if (strict) {  // MPICH 4.0.2 does not check the grid
    p[0] = 2;
    MT_EXPECT_CLASS(
        0,
        MPI_Type_create_darray(3, 0, 1, g, d, a, p, MPI_ORDER_C, MPI_INT, &t),
        MPI_ERR_ARG, "a grid of 2 for 3 processes");
    p[0] = 3;
  }
  MT_EXPECT_CLASS(
      0, MPI_Type_create_darray(3, 3, 1, g, d, a, p, MPI_ORDER_C, MPI_INT, &t),
      MPI_ERR_RANK, "rank 3 of 3");
  if (strict) {  // MPICH 4.0.2 crashes on it
    d[0] = 12345;
    MT_EXPECT_CLASS(
        0,
        MPI_Type_create_darray(3, 0, 1, g, d, a, p, MPI_ORDER_C, MPI_INT, &t),
        MPI_ERR_ARG, "distribution 12345");
  }
  d[0] = MPI_DISTRIBUTE_CYCLIC;
  a[0] = -2;
  MT_EXPECT_CLASS(
      0, MPI_Type_create_darray(3, 0, 1, g, d, a, p, MPI_ORDER_C, MPI_INT, &t),
      MPI_ERR_ARG, "darg -2");
  MT_CHECK(t == MPI_DATATYPE_NULL, "a failed call returned a type");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int B = MPI_DISTRIBUTE_BLOCK, C = MPI_DISTRIBUTE_CYCLIC,
            N = MPI_DISTRIBUTE_NONE, D = MPI_DISTRIBUTE_DFLT_DARG;
  const struct layout layouts[] = {
      {1, {13}, {B}, {D}, {0}},
      {1, {13}, {C}, {D}, {0}},
      {1, {13}, {C}, {3}, {0}},
      {1, {13}, {B}, {7}, {0}},
      {2, {7, 5}, {B, B}, {D, D}, {0, 1}},
      {2, {7, 5}, {C, B}, {2, D}, {1, 0}},
      {2, {7, 5}, {N, C}, {D, 2}, {1, 0}},
      {2, {6, 9}, {B, C}, {D, 4}, {2, 0}},
      {3, {4, 3, 5}, {C, N, B}, {1, D, D}, {0, 1, 1}},
      {3, {5, 4, 6}, {B, C, C}, {D, D, 2}, {1, 0, 2}},
  };
  const int count = sizeof layouts / sizeof layouts[0];
  for (int i = 0; i < count; ++i) {
    run(layouts[i], MPI_ORDER_C, i % 2);
    run(layouts[i], MPI_ORDER_FORTRAN, (i + 1) % 2);
  }
  check_contents();
  check_errors(argc > 1 && strcmp(argv[1], "strict") == 0);
  MPI_Finalize();
  return 0;
}
