// SPDX-License-Identifier: MIT
// MPI 4.0 §8.5.2: "The dimensions are set to be as close to each other as
// possible, using an appropriate divisibility algorithm. The caller may
// further constrain the operation of this routine by specifying elements
// of array dims. If dims[i] is set to a positive number, the routine will
// not modify the number of nodes in dimension i; only those entries where
// dims[i] = 0 are modified by the call. ... For dims[i] set by the call,
// dims[i] will be ordered in non-increasing order."
//
// Many (nnodes, ndims, fixed entries) cases checked against those rules:
// the product is nnodes, fixed entries are kept, the free ones do not
// increase, and no other split of the free part has a smaller spread
// (largest minus smallest; found by brute force here). Then a table of
// results where the balanced answer is unique.
#include "mpitest.h"

// The least spread of any split of n into `count` non-increasing factors,
// each at most `cap`; `first` is the first factor chosen (0 before).
static int least_spread(int n, int count, int cap, int first) {
  if (count == 1) {
    return n <= cap ? (first == 0 ? n : first) - n : 1 << 30;
  }
  int best = 1 << 30;
  for (int d = 1; d <= cap && d <= n; ++d) {
    if (n % d == 0) {
      const int s = least_spread(n / d, count - 1, d, first == 0 ? d : first);
      if (s < best) {
        best = s;
      }
    }
  }
  return best;
}

static void check_case(int nnodes, int ndims, const int* fixed) {
  int dims[6];
  int product_fixed = 1, nfree = 0;
  for (int i = 0; i < ndims; ++i) {
    dims[i] = fixed[i];
    if (fixed[i] > 0) {
      product_fixed *= fixed[i];
    } else {
      ++nfree;
    }
  }
  if (nnodes % product_fixed != 0 || (nfree == 0 && product_fixed != nnodes)) {
    return;  // not a valid request (the errors test covers these)
  }
  MT_CHECK_MPI(MPI_Dims_create(nnodes, ndims, dims));
  long product = 1;
  int previous = 1 << 30, largest = 0, smallest = 1 << 30;
  for (int i = 0; i < ndims; ++i) {
    MT_CHECK(dims[i] > 0, "nnodes %d ndims %d: dims[%d] = %d", nnodes, ndims, i,
             dims[i]);
    product *= dims[i];
    if (fixed[i] > 0) {
      MT_CHECK(dims[i] == fixed[i], "nnodes %d: fixed dims[%d] changed to %d",
               nnodes, i, dims[i]);
      continue;
    }
    MT_CHECK(dims[i] <= previous,
             "nnodes %d ndims %d: free dims increase at %d (%d after %d)",
             nnodes, ndims, i, dims[i], previous);
    previous = dims[i];
    largest = dims[i] > largest ? dims[i] : largest;
    smallest = dims[i] < smallest ? dims[i] : smallest;
  }
  MT_CHECK(product == nnodes, "nnodes %d ndims %d: product %ld", nnodes, ndims,
           product);
  if (nfree > 0) {
    const int best =
        least_spread(nnodes / product_fixed, nfree, nnodes / product_fixed, 0);
    MT_CHECK(largest - smallest == best,
             "nnodes %d ndims %d: spread %d, %d possible", nnodes, ndims,
             largest - smallest, best);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int patterns[][4] = {
      {0, 0, 0, 0}, {2, 0, 0, 0}, {0, 3, 0, 0}, {0, 0, 2, 0},
      {1, 0, 0, 0}, {0, 0, 0, 5}, {2, 2, 0, 0}, {0, 4, 0, 1},
  };
  for (int ndims = 1; ndims <= 4; ++ndims) {
    for (int nnodes = 1; nnodes <= 150; ++nnodes) {
      for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; ++p) {
        check_case(nnodes, ndims, patterns[p]);
      }
    }
  }
  const int none[6] = {0, 0, 0, 0, 0, 0};
  check_case(720, 5, none);
  check_case(1024, 6, none);
  check_case(9699690, 3, none);  // 2*3*5*7*11*13*17*19

  // Results whose balanced answer is the only one of least spread.
  const struct {
    int nnodes, ndims;
    int in[4], want[4];
  } table[] = {
      {6, 2, {0, 0}, {3, 2}},
      {7, 2, {0, 0}, {7, 1}},
      {12, 3, {0, 0, 0}, {3, 2, 2}},
      {16, 2, {0, 0}, {4, 4}},
      {24, 3, {0, 0, 0}, {4, 3, 2}},
      {24, 3, {0, 3, 0}, {4, 3, 2}},
      {30, 4, {0, 0, 0, 0}, {5, 3, 2, 1}},
      {64, 3, {0, 0, 0}, {4, 4, 4}},
      {100, 3, {0, 0, 0}, {5, 5, 4}},
      {16, 4, {2, 0, 0, 0}, {2, 2, 2, 2}},
      {7, 3, {0, 0, 7}, {1, 1, 7}},
      {1, 2, {0, 0}, {1, 1}},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i) {
    int dims[4];
    for (int d = 0; d < table[i].ndims; ++d) {
      dims[d] = table[i].in[d];
    }
    MT_CHECK_MPI(MPI_Dims_create(table[i].nnodes, table[i].ndims, dims));
    for (int d = 0; d < table[i].ndims; ++d) {
      MT_CHECK(dims[d] == table[i].want[d],
               "Dims_create(%d, %d) case %zu: dims[%d] = %d, want %d",
               table[i].nnodes, table[i].ndims, i, d, dims[d],
               table[i].want[d]);
    }
  }
  // ndims 0 touches nothing.
  MT_CHECK_MPI(MPI_Dims_create(1, 0, NULL));

  const int rank = mt_rank();
  MPI_Finalize();
  if (rank == 0) {
    printf("dims_create: ok\n");
  }
  return 0;
}
