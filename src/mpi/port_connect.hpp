// SPDX-License-Identifier: MIT
// The last step of MPI_Comm_accept / MPI_Comm_connect / MPI_Comm_join,
// once each group knows the other's gpids (docs/design.md#ports).
#pragma once

#include <string_view>
#include <vector>

#include "lpid/gpid.hpp"
#include "mpi/core.hpp"

namespace shmpi::mpi::ports {

// The checks every call that joins two groups under a root makes first
// (accept, connect, spawn): MPI initialized, `comm` an intracommunicator,
// `root` a rank of it, the output `out` (named `out_name`) not NULL.
// MPI_SUCCESS with *c set, or the raised error's code.
int check_rooted_call(MPI_Comm comm, int root, const void* out,
                      const char* out_name, Comm** c, const char* fn);

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
