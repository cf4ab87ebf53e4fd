// SPDX-License-Identifier: MIT
#include "launcher/rank_exit.hpp"

#include <sys/wait.h>

#include <cstring>

namespace shmpi::launcher {

RankExit judge_rank_exit(std::uint32_t rank, pid_t pid, int wait_status,
                         segment::RankState state) {
  return judge_rank_exit("rank " + std::to_string(rank), pid, wait_status,
                         state);
}

RankExit judge_rank_exit(const std::string& name, pid_t pid, int wait_status,
                         segment::RankState state) {
  RankExit verdict;
  const std::string who =
      "shmpirun: " + name + " (pid " + std::to_string(pid) + ")";
  // A rank that finalized has nothing left that others could wait for.
  const bool mpi_unfinished = state != segment::RankState::kFinalized;
  if (WIFEXITED(wait_status)) {
    int code = WEXITSTATUS(wait_status);
    if (code == 0) {
      if (state == segment::RankState::kRunning) {
        verdict.kind = RankExit::Kind::kNoFinalize;
        verdict.job_exit_code = 1;
        verdict.end_job = true;
        verdict.message = who + " exited without calling MPI_Finalize";
      }
      return verdict;
    }
    verdict.kind = RankExit::Kind::kFailed;
    verdict.job_exit_code = code;
    verdict.end_job = mpi_unfinished;
    verdict.message = who + " exited with code " + std::to_string(code);
    return verdict;
  }
  int signal = WIFSIGNALED(wait_status) ? WTERMSIG(wait_status) : 0;
  const char* signal_name = signal != 0 ? ::strsignal(signal) : nullptr;
  verdict.kind = RankExit::Kind::kFailed;
  verdict.job_exit_code = 128 + signal;
  verdict.end_job = mpi_unfinished;
  verdict.message = who + " killed by signal " + std::to_string(signal) + " (" +
                    (signal_name != nullptr ? signal_name : "unknown signal") +
                    ")";
  return verdict;
}

}  // namespace shmpi::launcher
