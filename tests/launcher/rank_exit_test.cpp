// SPDX-License-Identifier: MIT
// How one rank's end is judged, for every combination of exit and state.
#include "launcher/rank_exit.hpp"

#include <gtest/gtest.h>
#include <signal.h>

namespace shmpi::launcher {
namespace {

using segment::RankState;

constexpr int exited(int code) { return (code & 0xff) << 8; }
constexpr int killed(int signal) { return signal & 0x7f; }

TEST(JudgeRankExit, CleanExitAfterFinalizeIsClean) {
  RankExit verdict = judge_rank_exit(0, 100, exited(0), RankState::kFinalized);
  EXPECT_EQ(verdict.kind, RankExit::Kind::kClean);
  EXPECT_FALSE(verdict.end_job);
  EXPECT_TRUE(verdict.message.empty());
}

TEST(JudgeRankExit, CleanExitWithoutMpiIsClean) {
  RankExit verdict = judge_rank_exit(0, 100, exited(0), RankState::kStarting);
  EXPECT_EQ(verdict.kind, RankExit::Kind::kClean);
  EXPECT_TRUE(verdict.message.empty());
}

TEST(JudgeRankExit, CleanExitInsideMpiIsMissingFinalize) {
  RankExit verdict = judge_rank_exit(2, 4321, exited(0), RankState::kRunning);
  EXPECT_EQ(verdict.kind, RankExit::Kind::kNoFinalize);
  EXPECT_EQ(verdict.job_exit_code, 1);
  EXPECT_TRUE(verdict.end_job);
  EXPECT_EQ(verdict.message,
            "shmpirun: rank 2 (pid 4321) exited without calling MPI_Finalize");
}

TEST(JudgeRankExit, NonZeroExitBeforeFinalizeEndsTheJob) {
  for (RankState state : {RankState::kStarting, RankState::kRunning}) {
    RankExit verdict = judge_rank_exit(3, 1234, exited(5), state);
    EXPECT_EQ(verdict.kind, RankExit::Kind::kFailed);
    EXPECT_EQ(verdict.job_exit_code, 5);
    EXPECT_TRUE(verdict.end_job);
    EXPECT_EQ(verdict.message,
              "shmpirun: rank 3 (pid 1234) exited with code 5");
  }
}

TEST(JudgeRankExit, NonZeroExitAfterFinalizeFailsWithoutEndingTheJob) {
  RankExit verdict = judge_rank_exit(1, 77, exited(3), RankState::kFinalized);
  EXPECT_EQ(verdict.kind, RankExit::Kind::kFailed);
  EXPECT_EQ(verdict.job_exit_code, 3);
  EXPECT_FALSE(verdict.end_job);
}

TEST(JudgeRankExit, SignalGivesOneHundredTwentyEightPlusSignal) {
  RankExit verdict =
      judge_rank_exit(3, 1234, killed(SIGSEGV), RankState::kRunning);
  EXPECT_EQ(verdict.kind, RankExit::Kind::kFailed);
  EXPECT_EQ(verdict.job_exit_code, 128 + SIGSEGV);
  EXPECT_TRUE(verdict.end_job);
  EXPECT_EQ(
      verdict.message,
      "shmpirun: rank 3 (pid 1234) killed by signal 11 (Segmentation fault)");
}

TEST(JudgeRankExit, KillNineIsNamed) {
  RankExit verdict =
      judge_rank_exit(2, 9, killed(SIGKILL), RankState::kStarting);
  EXPECT_EQ(verdict.message,
            "shmpirun: rank 2 (pid 9) killed by signal 9 (Killed)");
  EXPECT_EQ(verdict.job_exit_code, 137);
}

}  // namespace
}  // namespace shmpi::launcher
