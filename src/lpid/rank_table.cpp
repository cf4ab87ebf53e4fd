// SPDX-License-Identifier: MIT
#include "lpid/rank_table.hpp"

#include <atomic>

#include "segment/header.hpp"
#include "segment/segment.hpp"

namespace shmpi::lpid {

namespace {
constexpr int kErrOther = 16;  // MPI_ERR_OTHER (mpi.h)
}

Gpid gpid_in_slot(const segment::Segment& segment, std::uint32_t slot) {
  return unpack(segment.rank_info(slot).gpid);
}

Result<std::uint32_t> find_slot(const segment::Segment& segment, Gpid gpid) {
  const std::uint64_t wanted = pack(gpid);
  const std::uint32_t capacity = segment.layout().config.capacity;
  for (std::uint32_t slot = 0; slot < capacity; ++slot) {
    const segment::RankInfo& info = segment.rank_info(slot);
    // The first world's gpids are written when the segment is created,
    // before any rank exists. Whoever fills a spare slot later (spawn) must
    // write its gpid before a release store of its state; this acquire
    // pairs with that store. The gpid of a kEmpty slot means nothing.
    const auto state = static_cast<segment::RankState>(
        info.state.load(std::memory_order_acquire));
    if (state != segment::RankState::kEmpty && info.gpid == wanted) {
      return slot;
    }
  }
  return Err{kErrOther, "no process of the job has this gpid"};
}

}  // namespace shmpi::lpid
