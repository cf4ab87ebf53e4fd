// SPDX-License-Identifier: MIT
// shmpirun's command line: `shmpirun [options] -n N prog [args...]`. Parsing
// is pure (no output, no exit) so it can be unit-tested; main prints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topo/topo.hpp"

namespace shmpi::launcher {

// Slots for processes that MPI_Comm_spawn starts, unless --universe-size
// says otherwise: spare slots cost a ring per rank (8 KiB) until used.
inline constexpr std::uint32_t kDefaultSpareSlots = 8;

struct Options {
  std::uint32_t nranks = 0;
  std::uint32_t universe_size = 0;  // rank slots in the segment; >= nranks
  std::uint64_t heap_bytes = 0;     // shared heap size; 0: the default
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

// A shared heap size as --heap-size and SHMPI_HEAP_SIZE take it: bytes,
// or a number with a K, M or G suffix (powers of 1024), from kMinHeapBytes
// to kMaxHeapBytes; nullopt otherwise.
inline constexpr std::uint64_t kMinHeapBytes = 4ULL << 20;
inline constexpr std::uint64_t kMaxHeapBytes = 1ULL << 40;
std::optional<std::uint64_t> parse_heap_size(std::string_view text);

// The usage text, ending in a newline.
std::string usage_text();

}  // namespace shmpi::launcher
