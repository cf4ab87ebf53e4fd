// SPDX-License-Identifier: MIT
// Communicator objects: the predefined ones, creation and destruction of the
// others, and the process's context-ID mask.
#pragma once

#include "mpi/core.hpp"

namespace shmpi::mpi {

// Fills MPI_COMM_WORLD and MPI_COMM_SELF (MPI_Init).
void init_predefined_comms(MpiState& s, const runtime::WorldInfo& world);

}  // namespace shmpi::mpi
