// SPDX-License-Identifier: MIT
// Group objects: their handle arena, the predefined empty group, and the
// handle checks shared by the group entry points.
#include "mpi/group.hpp"

#include <algorithm>
#include <utility>

#include "mpi/core.hpp"
#include "mpi/lpid_table.hpp"

namespace shmpi::mpi {

namespace {

struct GroupState {
  HandleArena<Group> arena{1u << 20};  // address space only until used
  Group empty;                         // MPI_GROUP_EMPTY
};

// Kept here rather than in MpiState so that groups stay in their own files;
// created on first use, which is after MPI_Init.
GroupState& groups() {
  static auto* state = new GroupState();  // lives until exit
  return *state;
}

}  // namespace

Group* find_group(MPI_Group group) {
  if (group == MPI_GROUP_EMPTY) {
    return &groups().empty;
  }
  if (group == MPI_GROUP_NULL) {
    return nullptr;
  }
  return groups().arena.find(group);
}

MPI_Group to_handle(Group* group) {
  if (group == &groups().empty) {
    return MPI_GROUP_EMPTY;
  }
  return reinterpret_cast<MPI_Group>(group);  // NOLINT: handles are pointers
}

bool is_predefined(const Group* group) { return group == &groups().empty; }

HandleArena<Group>& group_arena() { return groups().arena; }

int make_group(std::vector<std::int32_t> lpids, MPI_Group* out) noexcept {
  if (lpids.empty()) {
    *out = MPI_GROUP_EMPTY;
    return MPI_SUCCESS;
  }
  const lpid::Lpid me = my_lpid();
  auto mine = std::find(lpids.begin(), lpids.end(), me);
  const int rank = mine == lpids.end() ? MPI_UNDEFINED
                                       : static_cast<int>(mine - lpids.begin());
  Group* group = groups().arena.create();
  if (group == nullptr) {
    return MPI_ERR_NO_MEM;
  }
  group->lpids = std::move(lpids);
  group->rank = rank;
  *out = to_handle(group);
  return MPI_SUCCESS;
}

void retain_group(Group* group) {
  if (is_predefined(group)) {
    return;
  }
  // Relaxed: taking a hold needs an existing hold, which keeps it alive.
  group->references.fetch_add(1, std::memory_order_relaxed);
}

void release_group(Group* group) {
  if (is_predefined(group)) {
    return;
  }
  // acq_rel: the last release must see every other holder's use of the
  // group before it destroys it.
  if (group->references.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    groups().arena.destroy(group);
  }
}

std::vector<std::uint32_t> group_slots(const Group& group) {
  return slots_of(group.lpids);
}

int check_group(MPI_Group handle, Group** out, const char* function) noexcept {
  Group* group = find_group(handle);
  if (group == nullptr) [[unlikely]] {
    if (handle == MPI_GROUP_NULL) {
      return fail(nullptr, MPI_ERR_GROUP, function, "group is MPI_GROUP_NULL");
    }
    return fail(nullptr, MPI_ERR_GROUP, function, "invalid group handle %p",
                static_cast<void*>(handle));
  }
  *out = group;
  return MPI_SUCCESS;
}

}  // namespace shmpi::mpi
