// SPDX-License-Identifier: MIT
// Group set algebra on member lists, with the orderings of MPI 4.0 §7.3.2.
#include "lpid/group_ops.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace shmpi::lpid {
namespace {

TEST(RankIndex, FindsRanksAndRejectsOthers) {
  const Members members{7, 2, 5};
  const RankIndex index(members);
  EXPECT_EQ(index.rank_of(7), 0);
  EXPECT_EQ(index.rank_of(2), 1);
  EXPECT_EQ(index.rank_of(5), 2);
  EXPECT_EQ(index.rank_of(0), std::nullopt);
  EXPECT_EQ(index.rank_of(8), std::nullopt);   // beyond the largest lpid
  EXPECT_EQ(index.rank_of(-1), std::nullopt);  // never an lpid
  EXPECT_EQ(RankIndex(Members{}).rank_of(0), std::nullopt);
}

TEST(Compare, IdentSimilarUnequal) {
  EXPECT_EQ(compare(Members{0, 1, 2}, Members{0, 1, 2}), Comparison::kIdent);
  EXPECT_EQ(compare(Members{0, 1, 2}, Members{2, 0, 1}), Comparison::kSimilar);
  EXPECT_EQ(compare(Members{0, 1, 2}, Members{0, 1, 3}), Comparison::kUnequal);
  EXPECT_EQ(compare(Members{0, 1, 2}, Members{0, 1}), Comparison::kUnequal);
  EXPECT_EQ(compare(Members{}, Members{}), Comparison::kIdent);
  EXPECT_EQ(compare(Members{}, Members{0}), Comparison::kUnequal);
}

TEST(Select, RanksInTheGivenOrder) {
  const Members members{10, 11, 12, 13};
  EXPECT_EQ(select(members, std::vector<int>{3, 0, 2}), (Members{13, 10, 12}));
  EXPECT_TRUE(select(members, std::vector<int>{}).empty());
}

TEST(Exclude, KeepsTheOriginalOrder) {
  const Members members{10, 11, 12, 13};
  EXPECT_EQ(exclude(members, std::vector<int>{2, 0}), (Members{11, 13}));
  EXPECT_EQ(exclude(members, std::vector<int>{}), members);
  EXPECT_TRUE(exclude(members, std::vector<int>{3, 2, 1, 0}).empty());
}

TEST(SetOps, UnionIsAThenTheRestOfB) {
  EXPECT_EQ(union_of(Members{3, 1, 4}, Members{5, 1, 0, 3}),
            (Members{3, 1, 4, 5, 0}));
  EXPECT_EQ(union_of(Members{}, Members{2, 1}), (Members{2, 1}));
  EXPECT_EQ(union_of(Members{2, 1}, Members{}), (Members{2, 1}));
}

TEST(SetOps, IntersectionKeepsAsOrder) {
  EXPECT_EQ(intersection_of(Members{3, 1, 4, 0}, Members{0, 5, 3}),
            (Members{3, 0}));
  EXPECT_TRUE(intersection_of(Members{1, 2}, Members{3, 4}).empty());
}

TEST(SetOps, DifferenceKeepsAsOrder) {
  EXPECT_EQ(difference_of(Members{3, 1, 4, 0}, Members{0, 5, 3}),
            (Members{1, 4}));
  EXPECT_TRUE(difference_of(Members{1, 2}, Members{2, 1}).empty());
  EXPECT_EQ(difference_of(Members{1, 2}, Members{}), (Members{1, 2}));
}

std::vector<int> expand(RankRange range) {
  std::vector<int> ranks;
  expand_range(range, ranks);
  return ranks;
}

TEST(Ranges, ExpandPositiveAndNegativeStrides) {
  EXPECT_EQ(expand({0, 7, 1}), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(expand({0, 7, 3}), (std::vector<int>{0, 3, 6}));
  EXPECT_EQ(expand({1, 7, 2}), (std::vector<int>{1, 3, 5, 7}));
  EXPECT_EQ(expand({7, 0, -3}), (std::vector<int>{7, 4, 1}));
  EXPECT_EQ(expand({6, 1, -2}), (std::vector<int>{6, 4, 2}));
  EXPECT_EQ(expand({4, 4, 1}), (std::vector<int>{4}));
  EXPECT_EQ(expand({4, 4, -5}), (std::vector<int>{4}));
  EXPECT_EQ(expand({0, 7, 100}), (std::vector<int>{0}));
}

TEST(Ranges, ChecksEndsStrideAndDirection) {
  EXPECT_EQ(check_range({0, 7, 1}, 8), RangeFault::kNone);
  EXPECT_EQ(check_range({7, 0, -1}, 8), RangeFault::kNone);
  EXPECT_EQ(check_range({3, 3, -2}, 8), RangeFault::kNone);
  EXPECT_EQ(check_range({-1, 3, 1}, 8), RangeFault::kFirstOutOfRange);
  EXPECT_EQ(check_range({8, 3, -1}, 8), RangeFault::kFirstOutOfRange);
  EXPECT_EQ(check_range({0, 8, 1}, 8), RangeFault::kLastOutOfRange);
  EXPECT_EQ(check_range({3, -1, -1}, 8), RangeFault::kLastOutOfRange);
  EXPECT_EQ(check_range({0, 3, 0}, 8), RangeFault::kZeroStride);
  EXPECT_EQ(check_range({3, 3, 0}, 8), RangeFault::kZeroStride);
  EXPECT_EQ(check_range({5, 2, 1}, 8), RangeFault::kWrongDirection);
  EXPECT_EQ(check_range({2, 5, -1}, 8), RangeFault::kWrongDirection);
  EXPECT_EQ(check_range({0, 0, 1}, 0), RangeFault::kFirstOutOfRange);
}

}  // namespace
}  // namespace shmpi::lpid
