// SPDX-License-Identifier: MIT
#include "segment/robust_mutex.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace shmpi::segment {

namespace {

void report_and_exit() {
  static constexpr char kMessage[] =
      "shmpi: a process died while holding the shared heap's lock; the heap "
      "may be inconsistent, so this process stops too\n";
  ssize_t ignored = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  (void)ignored;
  ::_exit(1);
}

// Relaxed: set once at start-up (or by a test) before any contention.
std::atomic<OwnerDiedHandler> owner_died{report_and_exit};

[[noreturn]] void fail(const char* what, int error) {
  static constexpr char kPrefix[] = "shmpi: shared heap lock: ";
  ssize_t ignored = ::write(STDERR_FILENO, kPrefix, sizeof kPrefix - 1);
  ignored = ::write(STDERR_FILENO, what, std::strlen(what));
  const char* text = std::strerror(error);
  ignored = ::write(STDERR_FILENO, ": ", 2);
  ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  ignored = ::write(STDERR_FILENO, "\n", 1);
  (void)ignored;
  std::abort();
}

void handle(pthread_mutex_t* mutex, int rc, const char* what) {
  if (rc == EOWNERDEAD) {
    ::pthread_mutex_consistent(mutex);
    owner_died.load(std::memory_order_relaxed)();
    return;
  }
  if (rc != 0) {
    fail(what, rc);
  }
}

}  // namespace

void set_owner_died_handler(OwnerDiedHandler handler) noexcept {
  owner_died.store(handler != nullptr ? handler : report_and_exit,
                   std::memory_order_relaxed);
}

RobustMutex::RobustMutex(bool recursive) noexcept {
  pthread_mutexattr_t attributes;
  ::pthread_mutexattr_init(&attributes);
  ::pthread_mutexattr_setpshared(&attributes, PTHREAD_PROCESS_SHARED);
  ::pthread_mutexattr_setrobust(&attributes, PTHREAD_MUTEX_ROBUST);
  if (recursive) {
    ::pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_RECURSIVE);
  }
  ::pthread_mutex_init(&mutex_, &attributes);
  ::pthread_mutexattr_destroy(&attributes);
}

RobustMutex::~RobustMutex() { ::pthread_mutex_destroy(&mutex_); }

void RobustMutex::lock() {
  handle(&mutex_, ::pthread_mutex_lock(&mutex_), "lock");
}

bool RobustMutex::try_lock() {
  const int rc = ::pthread_mutex_trylock(&mutex_);
  if (rc == EBUSY) {
    return false;
  }
  handle(&mutex_, rc, "try_lock");
  return true;
}

void RobustMutex::unlock() {
  handle(&mutex_, ::pthread_mutex_unlock(&mutex_), "unlock");
}

}  // namespace shmpi::segment
