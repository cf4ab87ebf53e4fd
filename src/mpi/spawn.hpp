// SPDX-License-Identifier: MIT
// The spawned side of MPI_Comm_spawn (docs/design.md#spawn): in MPI_Init,
// a process that MPI_Comm_spawn started meets its parents and keeps the
// intercommunicator that MPI_Comm_get_parent returns.
#pragma once

#include <cstdint>
#include <string>

#include "mpi/core.hpp"

namespace shmpi::mpi::spawn {

// The tag both groups of spawn `pg` build their intercommunicator under.
std::string connection_tag(std::uint32_t pg);

// Collective over MPI_COMM_WORLD of a spawned world, in MPI_Init: the
// intercommunicator with the parents, stored as the parent communicator.
// MPI_SUCCESS or an error class with *why set.
int connect_to_parents(MpiState& s, const char** why);

}  // namespace shmpi::mpi::spawn
