// SPDX-License-Identifier: MIT
// A stand-in for an MPI rank, so launcher tests need no libshmpi: it attaches
// to the segment shmpirun passed down and drives the rank table and the abort
// line as the runtime contract says MPI_Init, MPI_Finalize and MPI_Abort do.
//
//   fake_rank ACTION[:ARG][@RANK]...
//
// Actions run in order; one with @RANK runs on that rank only.
//
//   init            state = kRunning (release)
//   finalize        state = kFinalized (release)
//   abort:C         MPI_Abort with code C: message, then code, rank and
//                   flag (release), then exit C
//   ignore-term     ignore SIGTERM from now on
//   await-running   wait until every rank of the job is in kRunning or later
//   wait-abort      sleep on the own wake word until the abort flag is up,
//                   print "rank R woken: abort_rank=A", exit 0
//   exit:N          exit with N
//   print:TEXT      print TEXT and a newline to stdout
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "segment/header.hpp"
#include "segment/segment.hpp"
#include "segment/wake_word.hpp"

namespace {

using shmpi::segment::RankState;

int env_int(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) {
    std::fprintf(stderr, "fake_rank: %s is not set (run me under shmpirun)\n",
                 name);
    std::exit(90);
  }
  return std::atoi(value);
}

}  // namespace

int main(int argc, char** argv) {
  const int rank = env_int("SHMPI_RANK");
  auto attached = shmpi::segment::Segment::attach(env_int("SHMPI_SEGMENT_FD"));
  if (!attached) {
    std::fprintf(stderr, "fake_rank: %s\n",
                 std::string(attached.error().what).c_str());
    return 91;
  }
  shmpi::segment::Segment& segment = attached.value();
  shmpi::segment::SegmentHeader& header = segment.header();
  shmpi::segment::RankInfo& info =
      segment.rank_info(static_cast<std::uint32_t>(rank));

  for (int index = 1; index < argc; ++index) {
    std::string action = argv[index];
    if (auto at = action.find('@'); at != std::string::npos) {
      if (std::atoi(action.c_str() + at + 1) != rank) {
        continue;
      }
      action.resize(at);
    }
    std::string arg;
    if (auto colon = action.find(':'); colon != std::string::npos) {
      arg = action.substr(colon + 1);
      action.resize(colon);
    }
    std::fflush(stdout);
    if (action == "init") {
      info.state.store(static_cast<std::uint32_t>(RankState::kRunning),
                       std::memory_order_release);
    } else if (action == "finalize") {
      info.state.store(static_cast<std::uint32_t>(RankState::kFinalized),
                       std::memory_order_release);
    } else if (action == "abort") {
      // The message goes out before the flag, as in MPI_Abort: once the flag
      // is up a woken rank may exit and the launcher kills this one.
      int code = std::atoi(arg.c_str());
      std::fprintf(stderr,
                   "shmpi: rank %d called MPI_Abort(MPI_COMM_WORLD, %d) with "
                   "error code %d\n",
                   rank, code, code);
      std::fflush(stderr);
      header.abort_code.store(code, std::memory_order_relaxed);
      header.abort_rank.store(rank, std::memory_order_relaxed);
      header.abort_flag.store(1, std::memory_order_release);
      std::_Exit(code);
    } else if (action == "ignore-term") {
      ::signal(SIGTERM, SIG_IGN);
    } else if (action == "await-running") {
      for (std::uint32_t other = 0; other < header.nranks; ++other) {
        // Acquire: pairs with the other rank's release store in "init".
        while (segment.rank_info(other).state.load(std::memory_order_acquire) <
               static_cast<std::uint32_t>(RankState::kRunning)) {
          ::usleep(1000);
        }
      }
    } else if (action == "wait-abort") {
      auto& control = *segment.at<shmpi::segment::RankControl>(
          segment.layout().control_offset(static_cast<std::uint32_t>(rank)));
      auto raised = [&header] {
        return header.abort_flag.load(std::memory_order_acquire) != 0;
      };
      while (!raised()) {
        shmpi::segment::sleep_until_woken(control, 0, raised);
      }
      std::printf("rank %d woken: abort_rank=%d\n", rank,
                  header.abort_rank.load(std::memory_order_relaxed));
      std::fflush(stdout);
      std::_Exit(0);
    } else if (action == "exit") {
      std::exit(std::atoi(arg.c_str()));
    } else if (action == "print") {
      std::printf("%s\n", arg.c_str());
    } else {
      std::fprintf(stderr, "fake_rank: unknown action '%s'\n", action.c_str());
      return 92;
    }
  }
  std::fflush(stdout);
  return 0;
}
