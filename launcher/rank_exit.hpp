// SPDX-License-Identifier: MIT
// How the launcher judges one rank's end: from its wait status and the state
// it left in the rank table, whether the job is still fine, the exit code the
// job should get, and the line to print. Pure, so it is unit-tested.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "segment/header.hpp"

namespace shmpi::launcher {

struct RankExit {
  enum class Kind {
    kClean,       // exit 0, finalized or never initialized (plain programs)
    kNoFinalize,  // exit 0 between MPI_Init and MPI_Finalize
    kFailed,      // non-zero exit or killed by a signal
  };
  Kind kind = Kind::kClean;
  int job_exit_code =
      0;  // what shmpirun exits with if this is the first failure
  bool end_job =
      false;  // the other ranks must be stopped (it left MPI unfinished)
  std::string
      message;  // "shmpirun: rank ..." without newline; empty when clean
};

RankExit judge_rank_exit(std::uint32_t rank, pid_t pid, int wait_status,
                         segment::RankState state);
// The same for a process named by `who` ("rank 3", or "spawned rank 1 of
// process group 2" for one that MPI_Comm_spawn started).
RankExit judge_rank_exit(const std::string& who, pid_t pid, int wait_status,
                         segment::RankState state);

}  // namespace shmpi::launcher
