// SPDX-License-Identifier: MIT
// PvarHandleValue: what a performance-variable handle shows as its source
// moves, per class, across start, stop, reset and write (MPI 4.0 section
// 15.3.7: a stopped handle keeps its value; a counter counts only while
// started; a reset returns to the starting value).
#include "mpi/tool_pvar_value.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace shmpi::mpi::tool {
namespace {

TEST(PvarHandleValue, CounterCountsOnlyWhileStarted) {
  PvarHandleValue v(PvarKind::kCounter, false, 100);
  EXPECT_FALSE(v.started());
  EXPECT_EQ(v.read(150), 0U);  // starts at 0, not started
  v.start(150);
  EXPECT_EQ(v.read(150), 0U);
  EXPECT_EQ(v.read(170), 20U);
  v.stop(175);
  EXPECT_EQ(v.read(400), 25U);  // stopped: keeps its value
  v.start(400);
  EXPECT_EQ(v.read(410), 35U);  // counts on from it
  v.start(500);                 // already started: nothing changes
  EXPECT_EQ(v.read(410), 35U);
}

TEST(PvarHandleValue, CounterResetAndWrite) {
  PvarHandleValue v(PvarKind::kCounter, false, 0);
  v.start(10);
  EXPECT_EQ(v.read(30), 20U);
  v.reset(30);
  EXPECT_EQ(v.read(30), 0U);
  EXPECT_EQ(v.read(35), 5U);
  v.write(1000, 35);
  EXPECT_EQ(v.read(40), 1005U);
  v.stop(40);
  v.reset(90);
  EXPECT_EQ(v.read(200), 0U);  // reset while stopped stays 0
}

TEST(PvarHandleValue, CounterAcrossSourceWrap) {
  const std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
  PvarHandleValue v(PvarKind::kCounter, true, top - 1);
  EXPECT_TRUE(v.started());  // continuous
  EXPECT_EQ(v.read(top - 1), 0U);
  EXPECT_EQ(v.read(3), 5U);  // top-1, top, 0, 1, 2, 3
}

TEST(PvarHandleValue, LevelFollowsSourceAndFreezesWhenStopped) {
  PvarHandleValue v(PvarKind::kLevel, false, 7);
  EXPECT_EQ(v.read(9), 7U);  // never started: the level at allocation
  v.start(9);
  EXPECT_EQ(v.read(12), 12U);
  EXPECT_EQ(v.read(3), 3U);
  v.stop(4);
  EXPECT_EQ(v.read(50), 4U);
  PvarHandleValue continuous(PvarKind::kLevel, true, 7);
  EXPECT_EQ(continuous.read(8), 8U);
}

TEST(PvarHandleValue, HighWatermarkKeepsTheLargestSinceStart) {
  PvarHandleValue v(PvarKind::kHighWatermark, true, 2);
  EXPECT_EQ(v.read(1), 2U);  // starts at the level at allocation
  v.observe_peak(9);         // a peak between samples
  EXPECT_EQ(v.read(0), 9U);
  EXPECT_EQ(v.read(11), 11U);  // the level now, if higher
  v.reset(1);
  EXPECT_EQ(v.read(1), 1U);
  v.write(5, 1);
  EXPECT_EQ(v.read(1), 5U);
}

TEST(PvarHandleValue, StoppedHighWatermarkIgnoresPeaks) {
  PvarHandleValue v(PvarKind::kHighWatermark, false, 3);
  v.observe_peak(10);
  EXPECT_EQ(v.read(4), 3U);
  v.start(4);
  EXPECT_EQ(v.read(4), 4U);
  v.observe_peak(6);
  v.stop(2);
  v.observe_peak(20);
  EXPECT_EQ(v.read(30), 6U);
}

}  // namespace
}  // namespace shmpi::mpi::tool
