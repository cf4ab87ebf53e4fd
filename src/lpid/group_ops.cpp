// SPDX-License-Identifier: MIT
#include "lpid/group_ops.hpp"

#include <algorithm>
#include <cstddef>

#include "base/assert.hpp"

namespace shmpi::lpid {

RankIndex::RankIndex(std::span<const Lpid> members) {
  Lpid largest = -1;
  for (Lpid lpid : members) {
    largest = std::max(largest, lpid);
  }
  rank_by_lpid_.assign(static_cast<std::size_t>(largest + 1), -1);
  for (std::size_t rank = 0; rank < members.size(); ++rank) {
    SHMPI_ASSERT(members[rank] >= 0, "member lists hold valid lpids");
    rank_by_lpid_[static_cast<std::size_t>(members[rank])] =
        static_cast<int>(rank);
  }
}

std::optional<int> RankIndex::rank_of(Lpid lpid) const {
  if (lpid < 0 || static_cast<std::size_t>(lpid) >= rank_by_lpid_.size()) {
    return std::nullopt;
  }
  const int rank = rank_by_lpid_[static_cast<std::size_t>(lpid)];
  return rank >= 0 ? std::optional<int>(rank) : std::nullopt;
}

Comparison compare(std::span<const Lpid> a, std::span<const Lpid> b) {
  if (a.size() != b.size()) {
    return Comparison::kUnequal;
  }
  if (std::equal(a.begin(), a.end(), b.begin())) {
    return Comparison::kIdent;
  }
  // Equal sizes and no repeats: every member of a in b means equal sets.
  const RankIndex in_b(b);
  for (Lpid lpid : a) {
    if (!in_b.rank_of(lpid)) {
      return Comparison::kUnequal;
    }
  }
  return Comparison::kSimilar;
}

Members select(std::span<const Lpid> members, std::span<const int> ranks) {
  Members out;
  out.reserve(ranks.size());
  for (int rank : ranks) {
    out.push_back(members[static_cast<std::size_t>(rank)]);
  }
  return out;
}

Members exclude(std::span<const Lpid> members, std::span<const int> ranks) {
  std::vector<bool> excluded(members.size(), false);
  for (int rank : ranks) {
    excluded[static_cast<std::size_t>(rank)] = true;
  }
  Members out;
  for (std::size_t rank = 0; rank < members.size(); ++rank) {
    if (!excluded[rank]) {
      out.push_back(members[rank]);
    }
  }
  return out;
}

Members union_of(std::span<const Lpid> a, std::span<const Lpid> b) {
  Members out(a.begin(), a.end());
  const RankIndex in_a(a);
  for (Lpid lpid : b) {
    if (!in_a.rank_of(lpid)) {
      out.push_back(lpid);
    }
  }
  return out;
}

namespace {

// The members of a whose presence in b is `keep_if_in_b`, in a's order.
Members filter(std::span<const Lpid> a, std::span<const Lpid> b,
               bool keep_if_in_b) {
  const RankIndex in_b(b);
  Members out;
  for (Lpid lpid : a) {
    if (in_b.rank_of(lpid).has_value() == keep_if_in_b) {
      out.push_back(lpid);
    }
  }
  return out;
}

}  // namespace

Members intersection_of(std::span<const Lpid> a, std::span<const Lpid> b) {
  return filter(a, b, true);
}

Members difference_of(std::span<const Lpid> a, std::span<const Lpid> b) {
  return filter(a, b, false);
}

RangeFault check_range(const RankRange& range, int size) {
  if (range.first < 0 || range.first >= size) {
    return RangeFault::kFirstOutOfRange;
  }
  if (range.last < 0 || range.last >= size) {
    return RangeFault::kLastOutOfRange;
  }
  if (range.stride == 0) {
    return RangeFault::kZeroStride;
  }
  if ((range.stride > 0 && range.first > range.last) ||
      (range.stride < 0 && range.first < range.last)) {
    return RangeFault::kWrongDirection;
  }
  return RangeFault::kNone;
}

void expand_range(const RankRange& range, std::vector<int>& ranks) {
  // first + k * stride for k = 0 .. (last - first) / stride; the quotient
  // truncates towards zero, which is floor here since it is not negative.
  // Both ends are valid ranks, so nothing overflows.
  const int steps = (range.last - range.first) / range.stride;
  for (int k = 0; k <= steps; ++k) {
    ranks.push_back(range.first + k * range.stride);
  }
}

}  // namespace shmpi::lpid
