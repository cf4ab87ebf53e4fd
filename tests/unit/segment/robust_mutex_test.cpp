// SPDX-License-Identifier: MIT
// The shared heap's mutex: process-shared, and a holder that dies does not
// leave it locked for ever.
#include "segment/robust_mutex.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <new>

namespace shmpi::segment {
namespace {

int owner_deaths = 0;
void count_owner_death() { ++owner_deaths; }

template <typename Mutex>
Mutex* shared_mutex(void** mapping) {
  *mapping = ::mmap(nullptr, sizeof(Mutex), PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  EXPECT_NE(*mapping, MAP_FAILED);
  return new (*mapping) Mutex();
}

template <typename Mutex>
void expect_owner_death_reported() {
  void* mapping = nullptr;
  Mutex* mutex = shared_mutex<Mutex>(&mapping);
  owner_deaths = 0;
  set_owner_died_handler(count_owner_death);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    mutex->lock();
    ::_exit(0);  // dies holding it
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  mutex->lock();  // returns (after the handler) instead of waiting for ever
  EXPECT_EQ(owner_deaths, 1);
  mutex->unlock();
  EXPECT_TRUE(mutex->try_lock());  // consistent again: usable as before
  mutex->unlock();
  EXPECT_EQ(owner_deaths, 1);
  set_owner_died_handler(nullptr);
  mutex->~Mutex();
  ::munmap(mapping, sizeof(Mutex));
}

TEST(RobustMutex, OwnerDeathIsReportedNotWaitedOn) {
  expect_owner_death_reported<RobustMutex>();
}

TEST(RobustMutex, RecursiveOwnerDeathIsReportedNotWaitedOn) {
  expect_owner_death_reported<RobustRecursiveMutex>();
}

TEST(RobustMutex, ExcludesOtherProcesses) {
  void* mapping = nullptr;
  RobustMutex* mutex = shared_mutex<RobustMutex>(&mapping);
  mutex->lock();
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::_exit(mutex->try_lock() ? 1 : 0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  mutex->unlock();
  mutex->~RobustMutex();
  ::munmap(mapping, sizeof(RobustMutex));
}

TEST(RobustMutex, RecursiveMutexNests) {
  RobustRecursiveMutex mutex;
  mutex.lock();
  mutex.lock();
  mutex.unlock();
  mutex.unlock();
  EXPECT_TRUE(mutex.try_lock());
  mutex.unlock();
}

}  // namespace
}  // namespace shmpi::segment
