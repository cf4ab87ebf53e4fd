// SPDX-License-Identifier: MIT
// MPI_Dims_create's arithmetic (src/mpi/topo_dims.hpp): the rules of MPI
// 4.0 section 8.5.2 over a range of inputs, and a table of results that
// MPICH 4.0.2 gives too (its choice among equally balanced answers).
#include "mpi/topo_dims.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace shmpi::mpi {
namespace {

using Dims = std::vector<int>;

// The least spread over every factorisation of n into `count`
// non-increasing factors, each at most `cap` (the brute force the search
// must agree with); `first` is the first factor chosen, 0 before.
std::int64_t least_spread(int n, std::size_t count, int cap, int first) {
  if (count == 1) {
    return n <= cap ? (first == 0 ? n : first) - n : INT64_MAX;
  }
  std::int64_t best = INT64_MAX;
  for (int d = 1; d <= cap && d <= n; ++d) {
    if (n % d == 0) {
      best = std::min(
          best, least_spread(n / d, count - 1, d, first == 0 ? d : first));
    }
  }
  return best;
}

TEST(TopoDims, FactorsMultiplyToNAreNonIncreasingAndLeastSpread) {
  for (std::size_t count = 1; count <= 5; ++count) {
    for (int n = 1; n <= 400; ++n) {
      const Dims f = balanced_factors(n, count);
      ASSERT_EQ(f.size(), count) << n;
      std::int64_t product = 1;
      for (std::size_t i = 0; i < count; ++i) {
        product *= f[i];
        if (i > 0) {
          EXPECT_GE(f[i - 1], f[i]) << "n " << n << " count " << count;
        }
      }
      EXPECT_EQ(product, n) << "count " << count;
      EXPECT_EQ(f.front() - f.back(), least_spread(n, count, n, 0))
          << "n " << n << " count " << count;
    }
  }
}

TEST(TopoDims, TableAgreesWithMpich) {
  struct Case {
    int n;
    std::size_t count;
    Dims want;
  };
  const Case cases[] = {
      {1, 3, {1, 1, 1}},
      {12, 1, {12}},
      {1, 0, {}},
      {6, 2, {3, 2}},
      {7, 2, {7, 1}},
      {12, 3, {3, 2, 2}},
      {16, 2, {4, 4}},
      {24, 3, {4, 3, 2}},
      {64, 3, {4, 4, 4}},
      {100, 3, {5, 5, 4}},
      {168, 4, {7, 4, 3, 2}},  // spread 5, like 7 6 2 2: larger smallest
      {360, 3, {10, 6, 6}},    // spread 4, like 9 8 5
      {2160, 4, {10, 6, 6, 6}},
      {13104, 4, {14, 13, 9, 8}},
      {18000, 5, {10, 10, 6, 6, 5}},
      {720720, 3, {91, 90, 88}},
      {735134400, 6, {34, 33, 30, 30, 28, 26}},
      {1073741824, 3, {1024, 1024, 1024}},
      {2147483647, 3, {2147483647, 1, 1}},  // prime (MPICH fails here)
      {30, 6, {5, 3, 2, 1, 1, 1}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(balanced_factors(c.n, c.count), c.want)
        << "n " << c.n << " count " << c.count;
  }
}

TEST(TopoDims, FillKeepsFixedEntriesAndFillsZerosInOrder) {
  Dims dims{0, 3, 0};
  ASSERT_TRUE(fill_dims(24, dims));
  EXPECT_EQ(dims, (Dims{4, 3, 2}));
  dims = {2, 0, 0, 0};
  ASSERT_TRUE(fill_dims(16, dims));
  EXPECT_EQ(dims, (Dims{2, 2, 2, 2}));
  dims = {0, 0, 7};
  ASSERT_TRUE(fill_dims(7, dims));
  EXPECT_EQ(dims, (Dims{1, 1, 7}));
  dims = {4, 2};
  EXPECT_TRUE(fill_dims(8, dims)) << "all fixed, product nnodes";
}

TEST(TopoDims, FillRefusesWhatCannotMakeNnodes) {
  Dims dims{3, 0};
  EXPECT_FALSE(fill_dims(4, dims)) << "3 does not divide 4";
  EXPECT_EQ(dims, (Dims{3, 0})) << "unchanged on failure";
  dims = {2, 2};
  EXPECT_FALSE(fill_dims(8, dims)) << "no free entry and product 4";
  dims = {};
  EXPECT_TRUE(fill_dims(1, dims)) << "no dimensions: one node";
  EXPECT_FALSE(fill_dims(5, dims)) << "no dimensions: not five";
  dims = {65536, 65536, 0};
  EXPECT_FALSE(fill_dims(12, dims)) << "product past INT_MAX";
}

}  // namespace
}  // namespace shmpi::mpi
