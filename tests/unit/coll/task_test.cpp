// SPDX-License-Identifier: MIT
// The coroutine machinery collectives are written in: suspension only on
// unmet conditions, nested tasks resuming their callers, errors, and frames
// reused from the per-thread cache.
#include "coll/task.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace shmpi::coll {
namespace {

Task wait_for(const int* gate, int value, std::vector<int>* log, int tag) {
  co_await until([gate, value] { return *gate >= value; });
  log->push_back(tag);
}

Task outer(const int* gate, std::vector<int>* log) {
  log->push_back(0);
  co_await wait_for(gate, 1, log, 1);
  co_await wait_for(gate, 1, log, 2);  // already true: no suspension
  co_await wait_for(gate, 2, log, 3);
  log->push_back(4);
}

TEST(Task, RunsUntilUnmetConditionsAndResumesCallers) {
  int gate = 0;
  std::vector<int> log;
  Task task = outer(&gate, &log);
  coll::Run run;
  task.bind(run);
  EXPECT_TRUE(log.empty());  // lazily started
  EXPECT_FALSE(step(task, run));
  EXPECT_EQ(log, (std::vector<int>{0}));
  EXPECT_FALSE(step(task, run));  // still waiting: no progress
  gate = 1;
  EXPECT_FALSE(step(task, run));
  EXPECT_EQ(log, (std::vector<int>{0, 1, 2}));
  gate = 2;
  EXPECT_TRUE(step(task, run));
  EXPECT_EQ(log, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(run.error, 0);
}

// A condition that says how to wait for it, and one that does not.
struct Hinted {
  const int* gate;
  p2p::PollHint said;
  bool operator()() const { return *gate >= 1; }
  p2p::PollHint hint() const { return said; }
};

Task hinted_then_plain(const int* gate) {
  co_await until(Hinted{gate, p2p::PollHint::kYieldAtOnce});
  co_await until([gate] { return *gate >= 2; });
}

TEST(Task, EachSuspensionCarriesItsConditionsHint) {
  int gate = 0;
  Task task = hinted_then_plain(&gate);
  coll::Run run;
  task.bind(run);
  EXPECT_FALSE(step(task, run));
  EXPECT_EQ(run.waits, 1u);
  EXPECT_EQ(hint_of(run), p2p::PollHint::kYieldAtOnce);
  EXPECT_FALSE(step(task, run));  // no progress: the same wait
  EXPECT_EQ(run.waits, 1u);
  gate = 1;
  EXPECT_FALSE(step(task, run));
  EXPECT_EQ(run.waits, 2u);  // a blocking driver starts a new wait here
  EXPECT_EQ(hint_of(run), p2p::PollHint::kAsUsual);
  gate = 2;
  EXPECT_TRUE(step(task, run));
  EXPECT_EQ(hint_of(run), p2p::PollHint::kAsUsual);
}

Task failing(int* after) {
  co_await fail_with(17);
  *after = 1;  // fail_with continues at once; the collective returns itself
}

TEST(Task, FailWithRecordsTheErrorClass) {
  int after = 0;
  Task task = failing(&after);
  coll::Run run;
  task.bind(run);
  EXPECT_TRUE(step(task, run));
  EXPECT_EQ(run.error, 17);
  EXPECT_EQ(after, 1);
}

Task record_error(int error) {
  Run* run = co_await current_run();
  run->error = error;
}

Task check_after_sub(int* seen, bool* same_run) {
  Run* run = co_await current_run();
  co_await record_error(23);
  *seen = run->error;
  Run* again = co_await current_run();
  *same_run = again == run;
}

TEST(Task, CurrentRunIsTheTopLevelRunInSubTasksToo) {
  int seen = 0;
  bool same_run = false;
  Task task = check_after_sub(&seen, &same_run);
  coll::Run run;
  task.bind(run);
  EXPECT_TRUE(step(task, run));  // current_run never suspends
  EXPECT_EQ(run.waits, 0u);
  EXPECT_EQ(seen, 23);  // the sub-task's error, seen by its caller
  EXPECT_TRUE(same_run);
  EXPECT_EQ(run.error, 23);
}

Task trivial(int* out) {
  *out += 1;
  co_return;
}

TEST(Task, FramesAreReusedFromTheCache) {
  int n = 0;
  void* a = frame_cache::allocate(300);
  frame_cache::release(a, 300);
  void* b = frame_cache::allocate(290);  // same 128-byte class
  EXPECT_EQ(a, b);
  frame_cache::release(b, 290);
  void* big = frame_cache::allocate(1 << 20);  // beyond the cache
  frame_cache::release(big, 1 << 20);
  Task t = trivial(&n);
  coll::Run run;
  t.bind(run);
  EXPECT_TRUE(step(t, run));
  EXPECT_EQ(n, 1);
}

}  // namespace
}  // namespace shmpi::coll
