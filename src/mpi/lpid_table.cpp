// SPDX-License-Identifier: MIT
#include "mpi/lpid_table.hpp"

#include "base/assert.hpp"
#include "lpid/rank_table.hpp"
#include "runtime/runtime.hpp"

namespace shmpi::mpi {

namespace detail {

namespace {

LpidState* make_lpid_state() {
  runtime::Runtime* runtime = runtime::Runtime::get();
  SHMPI_ASSERT(runtime != nullptr, "the lpid table needs MPI_Init");
  const runtime::WorldInfo& world = runtime->world();
  const lpid::Gpid my_gpid = lpid::gpid_in_slot(runtime->segment(), world.slot);
  auto* state = new LpidState();  // lives until exit, like MpiState
  // The world's ranks occupy consecutive slots, rank 0 first.
  state->table.init_world(my_gpid.pg, world.size, world.slot - world.rank);
  state->me = static_cast<lpid::Lpid>(world.rank);
  SHMPI_ASSERT(state->table.gpid(state->me) == my_gpid,
               "the rank table's gpid is (pg, world rank)");
  return state;
}

}  // namespace

LpidState& lpid_state() {
  // Built once, on first use after MPI_Init (a function-local static, so no
  // static constructor and thread-safe initialisation).
  static LpidState* state = make_lpid_state();
  return *state;
}

}  // namespace detail

std::vector<std::uint32_t> slots_of(std::span<const lpid::Lpid> lpids) {
  return with_lpid_table([&](const lpid::LpidTable& table) {
    return lpid::connection_table(table, lpids);
  });
}

lpid::MemberGpids gpids_of(std::span<const lpid::Lpid> lpids) {
  return with_lpid_table([&](const lpid::LpidTable& table) {
    return lpid::gpids_of(table, lpids);
  });
}

Result<void> to_lpids(std::span<const lpid::Gpid> gpids,
                      std::span<lpid::Lpid> out) {
  const segment::Segment& segment = runtime::Runtime::get()->segment();
  const lpid::SlotResolver resolve = [&segment](lpid::Gpid gpid) {
    return lpid::find_slot(segment, gpid);
  };
  return with_lpid_table([&](lpid::LpidTable& table) {
    return table.to_lpids(gpids, out, resolve);
  });
}

}  // namespace shmpi::mpi
