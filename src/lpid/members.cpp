// SPDX-License-Identifier: MIT
#include "lpid/members.hpp"

#include <unordered_set>

namespace shmpi::lpid {

MemberGpids gpids_of(const LpidTable& table, std::span<const Lpid> lpids) {
  MemberGpids result;
  result.gpids.reserve(lpids.size());
  for (Lpid lpid : lpids) {
    result.gpids.push_back(table.gpid(lpid));
  }
  for (const Gpid& gpid : result.gpids) {
    if (gpid.pg != result.gpids.front().pg) {
      result.single_pg = false;
      break;
    }
  }
  return result;
}

std::vector<std::uint32_t> connection_table(const LpidTable& table,
                                            std::span<const Lpid> lpids) {
  std::vector<std::uint32_t> slots;
  slots.reserve(lpids.size());
  for (Lpid lpid : lpids) {
    slots.push_back(table.slot(lpid));
  }
  return slots;
}

std::optional<std::size_t> find_duplicate(std::span<const Gpid> gpids) {
  std::unordered_set<std::uint64_t> seen;
  seen.reserve(gpids.size());
  for (std::size_t i = 0; i < gpids.size(); ++i) {
    if (!seen.insert(pack(gpids[i])).second) {
      return i;
    }
  }
  return std::nullopt;
}

}  // namespace shmpi::lpid
