// SPDX-License-Identifier: MIT
// Starting one rank: pipes for its stdout and stderr, fork, and in the child
// the runtime contract (inherited segment descriptor, SHMPI_* environment,
// parent-death signal, binding) before exec. An exec failure comes back
// through a close-on-exec pipe, so the launcher can name it.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "launcher/fd.hpp"
#include "launcher/signals.hpp"
#include "segment/segment.hpp"
#include "topo/topo.hpp"

namespace shmpi::launcher {

// What every rank of the job shares. Everything here must stay valid until
// all ranks are spawned.
struct SpawnPlan {
  const segment::Segment* segment = nullptr;
  const topo::Topology* topology = nullptr;  // nullptr: do not bind
  topo::BindPolicy bind = topo::BindPolicy::kCore;
  std::uint32_t nranks = 0;
  std::vector<std::string> command;  // prog and arguments
  pid_t launcher_pid = 0;
  // The write end of the job's spawn pipe, which every rank inherits
  // (SHMPI_SPAWN_FD) to hand MPI_Comm_spawn requests to us; -1: none.
  int spawn_fd = -1;
  const SignalSetup* signals = nullptr;
  unsigned long original_fd_limit = 0;  // from raise_fd_limit(); 0: unchanged
  // Rank 0 inherits our stdin; when that is a terminal it must stay in our
  // (foreground) process group, or reading it would stop it with SIGTTIN.
  bool rank0_in_launcher_group = false;
};

struct RankProcess {
  pid_t pid = -1;
  // Each rank leads its own process group, so that signalling -pid reaches
  // whatever it started too (a shell script's children); except rank 0 with
  // a terminal on stdin (see SpawnPlan).
  bool own_group = false;
  UniqueFd pidfd;
  UniqueFd stdout_fd;  // read ends of the rank's stdout and stderr
  UniqueFd stderr_fd;
  UniqueFd exec_report;  // EOF: exec succeeded; an int: exec's errno
};

// One process to start: a rank of the first world, or one that
// MPI_Comm_spawn asked for (a rank of a new process group).
struct ChildSpec {
  std::uint32_t slot = 0;        // its segment slot
  std::uint32_t world_rank = 0;  // its rank in its MPI_COMM_WORLD
  std::uint32_t world_size = 0;
  std::uint32_t pg = 0;  // process group; 0: the first world
  // Spawned processes only (pg != 0):
  const std::vector<std::string>* command = nullptr;  // nullptr: plan's
  std::string wdir;  // working directory; empty: ours
  std::string path;  // directories to look for the command in first
  std::uint32_t appnum = 0;
  std::uint64_t request_offset = 0;  // the SpawnRequest in the segment
};

// A rank of the first world.
inline ChildSpec first_world_rank(const SpawnPlan& plan, std::uint32_t rank) {
  ChildSpec child;
  child.slot = rank;
  child.world_rank = rank;
  child.world_size = plan.nranks;
  return child;
}

// Forks `child`. Marks its RankInfo kStarting (with its gpid) before the
// fork and stores the pid after. Returns false with a message in *why if
// the process could not be started (no process is left behind then).
bool spawn_rank(const SpawnPlan& plan, const ChildSpec& child,
                RankProcess& process, std::string* why);

// Sends `signal` to the rank's process group (or to the rank alone when it
// shares ours). Only for ranks not yet reaped, so the pid is still ours.
void signal_rank(const RankProcess& process, int signal) noexcept;

// Blocks until the rank has exec'd or failed to: 0, or exec's errno. Closes
// the report pipe.
int wait_for_exec(RankProcess& process);

}  // namespace shmpi::launcher
