// SPDX-License-Identifier: MIT
// The last step of MPI_Comm_accept / MPI_Comm_connect / MPI_Comm_join,
// once each group knows the other's gpids (docs/design.md#ports).
#pragma once

#include <string_view>
#include <vector>

#include "lpid/gpid.hpp"
#include "mpi/core.hpp"

namespace shmpi::mpi::ports {

// Collective over `local` (an intracommunicator) and, at the same time,
// over the remote group `remote_gpids`, which calls it with the same `tag`
// (unique in the job for this connection): the intercommunicator between
// them, whose leaders are `local_root` and the remote group's
// `remote_root`, with `local`'s error handler. Returns MPI_SUCCESS or an
// error class with *why set.
int connect_groups(Comm& local, int local_root,
                   const std::vector<lpid::Gpid>& remote_gpids, int remote_root,
                   std::string_view tag, Comm** out, const char** why);

}  // namespace shmpi::mpi::ports
