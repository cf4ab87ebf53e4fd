// SPDX-License-Identifier: MIT
#include "base/log.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "base/assert.hpp"

namespace shmpi::base {

void vlog_error(const char* format, std::va_list args) noexcept {
  char line[1024];
  int used = std::snprintf(line, sizeof line, "shmpi: ");
  int more = std::vsnprintf(
      line + used, sizeof line - static_cast<std::size_t>(used), format, args);
  std::size_t length = static_cast<std::size_t>(used) +
                       (more < 0 ? 0 : static_cast<std::size_t>(more));
  if (length > sizeof line - 2) {
    length = sizeof line - 2;
  }
  line[length++] = '\n';
  ssize_t ignored = ::write(STDERR_FILENO, line, length);
  (void)ignored;
}

void log_error(const char* format, ...) noexcept {
  std::va_list args;
  va_start(args, format);
  vlog_error(format, args);
  va_end(args);
}

void assert_fail(const char* expr, const char* message, const char* file,
                 int line) noexcept {
  log_error("internal error: %s (%s) at %s:%d", message, expr, file, line);
  std::abort();
}

}  // namespace shmpi::base
