// SPDX-License-Identifier: MIT
// Error reporting to stderr. On success shmpi prints nothing; these are for
// errors only, each logged once where it is detected.
#pragma once

#include <cstdarg>

namespace shmpi::base {

// Prints "shmpi: <formatted>\n" to stderr in one write(2), so lines from
// different ranks do not interleave.
[[gnu::format(printf, 1, 2)]] void log_error(const char* format, ...) noexcept;
void vlog_error(const char* format, std::va_list args) noexcept;

}  // namespace shmpi::base
