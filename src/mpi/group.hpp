// SPDX-License-Identifier: MIT
// MPI groups: an ordered list of processes as lpids of this process's table
// (seed 002). A group never changes after it is made, so it needs no lock;
// only its reference count moves (MPI_Group_free, and communicators that
// keep a group). MPI_GROUP_EMPTY is a predefined object that is never
// destroyed.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <vector>

#include "mpi/handle_arena.hpp"

namespace shmpi::mpi {

struct Group {
  static constexpr std::uint32_t kMagic = 0x47727031;  // "Grp1"
  std::uint32_t magic = kMagic;
  std::vector<std::int32_t> lpids;  // rank -> lpid; no lpid twice
  int rank = MPI_UNDEFINED;         // of this process, if a member
  // Handles and communicators that hold the group; atomic because two
  // threads may drop two holds of one group at once.
  std::atomic<int> references{1};
  // The session the group came from (MPI_Group_from_session_pset), whose
  // error handler MPI_Comm_create_from_group raises on; groups made from
  // such a group keep it, groups of communicators have none.
  MPI_Session session = MPI_SESSION_NULL;

  int size() const { return static_cast<int>(lpids.size()); }
};

// The group behind a handle, MPI_GROUP_EMPTY included; nullptr for
// MPI_GROUP_NULL, a freed group or garbage.
Group* find_group(MPI_Group group);
MPI_Group to_handle(Group* group);
bool is_predefined(const Group* group);
// Where groups other than MPI_GROUP_EMPTY live: for the Fortran handles.
HandleArena<Group>& group_arena();

// Makes a group of `lpids` (valid lpids, none twice) and stores its handle
// in *out: MPI_GROUP_EMPTY when there are no members. Returns MPI_SUCCESS or
// the error class to raise (MPI_ERR_NO_MEM when no handle is left); does not
// raise it and leaves *out alone on error.
int make_group(std::vector<std::int32_t> lpids, MPI_Group* out) noexcept;
// Another hold of the group (a communicator keeping it, for instance).
void retain_group(Group* group);
// Drops one hold; the last one destroys the group. Predefined groups ignore
// both.
void release_group(Group* group);

// The group's connection table: rank -> segment slot.
std::vector<std::uint32_t> group_slots(const Group& group);

// Argument check of a group handle: MPI_ERR_GROUP (raised on
// MPI_COMM_WORLD's handler, as for every error not tied to a communicator)
// unless it names a live group.
int check_group(MPI_Group handle, Group** out, const char* function) noexcept;

}  // namespace shmpi::mpi
