// SPDX-License-Identifier: MIT
#include "base/futex.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <climits>

namespace shmpi::base {

static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t) &&
                  std::atomic<std::uint32_t>::is_always_lock_free,
              "the futex syscall operates on the atomic's raw 32-bit word");

void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected,
                std::int64_t timeout_ns) noexcept {
  struct timespec timeout {};
  struct timespec* timeout_arg = nullptr;
  if (timeout_ns > 0) {
    timeout.tv_sec = static_cast<time_t>(timeout_ns / 1000000000);
    timeout.tv_nsec = static_cast<long>(timeout_ns % 1000000000);
    timeout_arg = &timeout;
  }
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): futex takes
  // the raw word
  ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT,
            expected, timeout_arg, nullptr, 0);
}

void futex_wake_all(std::atomic<std::uint32_t>& word) noexcept {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): futex takes
  // the raw word
  ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE,
            INT_MAX, nullptr, nullptr, 0);
}

}  // namespace shmpi::base
