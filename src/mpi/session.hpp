// SPDX-License-Identifier: MIT
// MPI 4.0 Sessions (§11.3): session objects, and the runtime's life shared
// by the World Model and the sessions. The runtime starts at the first of
// MPI_Init / MPI_Session_init and ends at the last of MPI_Finalize /
// MPI_Session_finalize; a later one starts it again (Runtime::resume).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "mpi/handle_arena.hpp"
#include "mpi/info.hpp"

namespace shmpi::mpi {

// One MPI_Session. Its process sets are the standard's two, "mpi://WORLD"
// and "mpi://SELF". Not changed after MPI_Session_init except its error
// handler (the program's race if two threads set it at once).
struct Session {
  static constexpr std::uint32_t kMagic = 0x53657331;  // "Ses1"
  std::uint32_t magic = kMagic;
  int thread_level = MPI_THREAD_SINGLE;  // granted (the runtime's level)
  InfoEntries info;                      // the keys given to MPI_Session_init
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
};

HandleArena<Session>& session_arena();
// The live session behind a handle, or nullptr (MPI_SESSION_NULL, freed,
// garbage).
Session* find_session(MPI_Session handle);
MPI_Session session_handle(Session* session);

// Starts the runtime, or counts one more user of it. `required` is a
// thread level (an invalid one counts as MPI_THREAD_SINGLE); the first
// start fixes the runtime's level, which *provided then always is.
// Returns MPI_SUCCESS, or MPI_ERR_OTHER with *why set.
int start_runtime(int required, int* provided, std::string* why);
// One user fewer; the last ends the runtime (Runtime::end: this rank counts
// as finalized for shmpirun).
void stop_runtime();

}  // namespace shmpi::mpi
