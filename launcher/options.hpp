// SPDX-License-Identifier: MIT
// shmpirun's command line: `shmpirun [options] -n N prog [args...]`. Parsing
// is pure (no output, no exit) so it can be unit-tested; main prints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "topo/topo.hpp"

namespace shmpi::launcher {

struct Options {
  std::uint32_t nranks = 0;
  std::uint32_t universe_size = 0;  // rank slots in the segment; >= nranks
  topo::BindPolicy bind = topo::BindPolicy::kCore;
  bool tag_output = false;
  std::optional<double> timeout_s;   // unset: no limit
  std::string timeout_text;          // as the user wrote it, for the message
  std::vector<std::string> command;  // prog and its arguments, never empty
};

struct ParseResult {
  enum class Kind { kRun, kHelp, kError };
  Kind kind = Kind::kError;
  Options options;
  std::string error;  // for kError: lower-case, no "shmpirun: " prefix
};

// argv[0] is the launcher's own name and is skipped. Options end at the first
// argument that is not an option (or after "--"); the rest is the command.
ParseResult parse_options(int argc, const char* const* argv);

// The usage text, ending in a newline.
std::string usage_text();

}  // namespace shmpi::launcher
