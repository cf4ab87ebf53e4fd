// SPDX-License-Identifier: MIT
// Internal invariants. Never used to validate user input: that returns an
// MPI error class instead.
#pragma once

namespace shmpi::base {
[[noreturn, gnu::cold]] void assert_fail(const char* expr, const char* message,
                                         const char* file, int line) noexcept;
}

#define SHMPI_ASSERT(cond, message)                                   \
  do {                                                                \
    if (!(cond)) [[unlikely]] {                                       \
      ::shmpi::base::assert_fail(#cond, message, __FILE__, __LINE__); \
    }                                                                 \
  } while (false)

#define SHMPI_UNREACHABLE(message) \
  ::shmpi::base::assert_fail("unreachable", message, __FILE__, __LINE__)
