// SPDX-License-Identifier: MIT
#include "lpid/lpid_table.hpp"

#include <limits>

#include "base/assert.hpp"

namespace shmpi::lpid {

void LpidTable::init_world(std::uint32_t pg, std::uint32_t size,
                           std::uint32_t first_slot) {
  SHMPI_ASSERT(entries_.empty(), "the world's lpids must come first");
  entries_.reserve(size);
  by_gpid_.reserve(size);
  for (std::uint32_t rank = 0; rank < size; ++rank) {
    add(Gpid{pg, rank}, first_slot + rank);  // lpid == world rank
  }
}

const LpidTable::Entry& LpidTable::entry(Lpid lpid) const {
  SHMPI_ASSERT(contains(lpid), "lpid not in this process's table");
  return entries_[static_cast<std::size_t>(lpid)];
}

std::optional<Lpid> LpidTable::find(Gpid gpid) const {
  auto found = by_gpid_.find(pack(gpid));
  if (found == by_gpid_.end()) {
    return std::nullopt;
  }
  return found->second;
}

Lpid LpidTable::add(Gpid gpid, std::uint32_t slot) {
  if (std::optional<Lpid> known = find(gpid)) {
    SHMPI_ASSERT(entries_[static_cast<std::size_t>(*known)].slot == slot,
                 "one process, two segment slots");
    return *known;
  }
  SHMPI_ASSERT(entries_.size() <
                   static_cast<std::size_t>(std::numeric_limits<Lpid>::max()),
               "lpid table full");
  const auto lpid = static_cast<Lpid>(entries_.size());
  entries_.push_back(Entry{gpid, slot});
  by_gpid_.emplace(pack(gpid), lpid);
  return lpid;
}

Result<void> LpidTable::to_lpids(std::span<const Gpid> gpids,
                                 std::span<Lpid> out,
                                 const SlotResolver& resolve) {
  SHMPI_ASSERT(out.size() == gpids.size(), "one lpid per gpid");
  // Resolve every unknown process before adding any, so that a failure
  // leaves the table as it was.
  std::vector<Entry> fresh;
  std::unordered_map<std::uint64_t, std::uint32_t> fresh_slots;
  for (const Gpid& gpid : gpids) {
    if (find(gpid) || fresh_slots.contains(pack(gpid))) {
      continue;
    }
    Result<std::uint32_t> slot = resolve(gpid);
    if (!slot) {
      return slot.error();
    }
    fresh.push_back(Entry{gpid, *slot});
    fresh_slots.emplace(pack(gpid), *slot);
  }
  for (const Entry& e : fresh) {
    add(e.gpid, e.slot);
  }
  for (std::size_t i = 0; i < gpids.size(); ++i) {
    out[i] = *find(gpids[i]);
  }
  return {};
}

}  // namespace shmpi::lpid
