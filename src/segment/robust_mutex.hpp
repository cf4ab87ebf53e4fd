// SPDX-License-Identifier: MIT
// A process-shared, robust mutex for Boost.Interprocess's allocator (the
// mutex family of the shared heap). Boost's own interprocess_mutex is not
// robust: a rank killed inside MPI_Alloc_mem would leave the heap locked
// and every later allocation waiting forever. Here the next locker learns
// that the owner died (EOWNERDEAD); the heap may be half-updated then, so it
// does not go on: it calls the owner-died handler, which by default reports
// and ends the process (the launcher is ending the job anyway).
#pragma once

#include <pthread.h>

namespace shmpi::segment {

// Called with the mutex made consistent again; must not return into the
// allocator (the data it guards may be inconsistent). Tests replace it.
using OwnerDiedHandler = void (*)();
void set_owner_died_handler(OwnerDiedHandler handler) noexcept;

class RobustMutex {
 public:
  RobustMutex() noexcept : RobustMutex(false) {}
  ~RobustMutex();
  RobustMutex(const RobustMutex&) = delete;
  RobustMutex& operator=(const RobustMutex&) = delete;

  void lock();
  bool try_lock();
  // Boost's timed interface; the heap never waits with a deadline.
  template <typename TimePoint>
  bool timed_lock(const TimePoint&) {
    lock();
    return true;
  }
  void unlock();

 protected:
  explicit RobustMutex(bool recursive) noexcept;

 private:
  pthread_mutex_t mutex_;
};

class RobustRecursiveMutex : public RobustMutex {
 public:
  RobustRecursiveMutex() noexcept : RobustMutex(true) {}
};

// Boost.Interprocess mutex family (see boost/interprocess/sync/mutex_family).
struct RobustMutexFamily {
  using mutex_type = RobustMutex;
  using recursive_mutex_type = RobustRecursiveMutex;
};

}  // namespace shmpi::segment
