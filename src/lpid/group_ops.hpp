// SPDX-License-Identifier: MIT
// The set algebra of MPI groups over member lists (rank -> lpid), with the
// orderings of MPI 4.0 section 7.3.2. Since one process has one lpid in a
// table, equal lpids mean the same process. Inputs are valid member lists
// (no lpid twice) and valid ranks: argument checking is the caller's job.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "lpid/gpid.hpp"

namespace shmpi::lpid {

using Members = std::vector<Lpid>;  // rank -> lpid

// lpid -> rank in one member list, for repeated lookups. Lpids are small
// and dense (indices into a table), so this is a plain array.
class RankIndex {
 public:
  explicit RankIndex(std::span<const Lpid> members);
  std::optional<int> rank_of(Lpid lpid) const;

 private:
  std::vector<int> rank_by_lpid_;  // -1: not a member
};

enum class Comparison { kIdent, kSimilar, kUnequal };

// kIdent: same members in the same order; kSimilar: same members in another
// order; kUnequal otherwise.
Comparison compare(std::span<const Lpid> a, std::span<const Lpid> b);

// MPI_Group_incl: member ranks[i] becomes rank i.
Members select(std::span<const Lpid> members, std::span<const int> ranks);
// MPI_Group_excl: every member not named in `ranks`, in the original order.
Members exclude(std::span<const Lpid> members, std::span<const int> ranks);

// The members of a, then the members of b not in a.
Members union_of(std::span<const Lpid> a, std::span<const Lpid> b);
// The members of a that are in b, in a's order.
Members intersection_of(std::span<const Lpid> a, std::span<const Lpid> b);
// The members of a that are not in b, in a's order.
Members difference_of(std::span<const Lpid> a, std::span<const Lpid> b);

// One (first, last, stride) triplet of MPI_Group_range_incl/excl.
struct RankRange {
  int first;
  int last;
  int stride;
};
// Where a triplet is unusable for a group of `size` ranks.
enum class RangeFault {
  kNone,
  kFirstOutOfRange,
  kLastOutOfRange,
  kZeroStride,
  kWrongDirection,  // first < last with a negative stride, or the reverse
};
RangeFault check_range(const RankRange& range, int size);
// first, first + stride, ... up to last; the range must pass check_range.
void expand_range(const RankRange& range, std::vector<int>& ranks);

}  // namespace shmpi::lpid
