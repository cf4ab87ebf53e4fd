// SPDX-License-Identifier: MIT
#include "launcher/options.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "segment/layout.hpp"

namespace shmpi::launcher {

namespace {

// A rank count in [1, kMaxCapacity], or nullopt.
std::optional<std::uint32_t> parse_count(std::string_view text) {
  if (text.empty() || text.size() > 9) {
    return std::nullopt;
  }
  std::uint32_t value = 0;
  for (char digit : text) {
    if (digit < '0' || digit > '9') {
      return std::nullopt;
    }
    value = value * 10 + static_cast<std::uint32_t>(digit - '0');
  }
  if (value < 1 || value > segment::kMaxCapacity) {
    return std::nullopt;
  }
  return value;
}

std::optional<double> parse_seconds(const std::string& text) {
  if (text.empty()) {
    return std::nullopt;
  }
  char* end = nullptr;
  errno = 0;
  double value = std::strtod(text.c_str(), &end);
  if (errno != 0 || end != text.c_str() + text.size() ||
      !std::isfinite(value) || value <= 0) {
    return std::nullopt;
  }
  return value;
}

std::string heap_size_range() {
  return "from " + std::to_string(kMinHeapBytes >> 20) + "M to " +
         std::to_string(kMaxHeapBytes >> 30) + "G";
}

ParseResult fail(std::string message) {
  ParseResult result;
  result.kind = ParseResult::Kind::kError;
  result.error = std::move(message);
  return result;
}

}  // namespace

std::optional<std::uint64_t> parse_heap_size(std::string_view text) {
  std::uint64_t scale = 1;
  if (!text.empty()) {
    switch (text.back()) {
      case 'k':
      case 'K':
        scale = 1ULL << 10;
        break;
      case 'm':
      case 'M':
        scale = 1ULL << 20;
        break;
      case 'g':
      case 'G':
        scale = 1ULL << 30;
        break;
      default:
        break;
    }
    if (scale != 1) {
      text.remove_suffix(1);
    }
  }
  if (text.empty() || text.size() > 13) {
    return std::nullopt;  // 13 digits: at most 10^13 - 1, no overflow below
  }
  std::uint64_t value = 0;
  for (char digit : text) {
    if (digit < '0' || digit > '9') {
      return std::nullopt;
    }
    value = value * 10 + static_cast<std::uint64_t>(digit - '0');
  }
  if (value > kMaxHeapBytes / scale) {
    return std::nullopt;
  }
  value *= scale;
  if (value < kMinHeapBytes) {
    return std::nullopt;
  }
  return value;
}

std::string usage_text() {
  return "usage: shmpirun [options] -n N prog [args...]\n"
         "  -n, -np N               number of ranks (1.." +
         std::to_string(segment::kMaxCapacity) +
         ")\n"
         "  --bind-to core|numa|none  bind rank r to core r mod cores, to that "
         "core's\n"
         "                          NUMA node, or not at all (default: core)\n"
         "  --tag-output            prefix each output line with [rank]\n"
         "  --timeout S             kill the job after S seconds (exit 124)\n"
         "  --universe-size U       processes the job may hold, "
         "MPI_Comm_spawn's\n"
         "                          included (default: N + 8)\n"
         "  --heap-size SIZE        shared heap for MPI_Alloc_mem, "
         "communicators\n"
         "                          and collective buffers, e.g. 1G "
         "(K, M, G:\n"
         "                          powers of 1024; default: "
         "SHMPI_HEAP_SIZE, else\n"
         "                          1G)\n"
         "  --help                  show this text\n"
         "environment:\n"
         "  SHMPI_HEAP_SIZE=SIZE    the default of --heap-size\n"
         "  SHMPI_LAUNCHER_EPOLL=1  use epoll instead of io_uring\n"
         "  SHMPI_LAUNCHER_DEBUG=1  say which event loop runs, and why\n";
}

ParseResult parse_options(int argc, const char* const* argv) {
  ParseResult result;
  Options& options = result.options;
  int index = 1;
  // An option's value: the text after "=" (or after "-n") if the argument
  // had one, else the next argument.
  auto take_value = [&](std::optional<std::string_view> inline_value)
      -> std::optional<std::string> {
    if (inline_value) {
      return std::string(*inline_value);
    }
    if (index + 1 >= argc) {
      return std::nullopt;
    }
    return std::string(argv[++index]);
  };

  for (; index < argc; ++index) {
    std::string_view arg = argv[index];
    if (arg == "--") {
      ++index;
      break;
    }
    if (arg.size() < 2 || arg[0] != '-') {
      break;  // the program
    }
    std::string_view name = arg;
    std::optional<std::string_view> inline_value;
    if (arg.starts_with("--")) {
      if (auto equals = arg.find('='); equals != std::string_view::npos) {
        name = arg.substr(0, equals);
        inline_value = arg.substr(equals + 1);
      }
    } else if (arg.size() > 2 && arg[1] == 'n' && arg != "-np") {
      name = "-n";  // -n4
      inline_value = arg.substr(2);
    }

    if (name == "--help" || name == "-h") {
      result.kind = ParseResult::Kind::kHelp;
      return result;
    }
    if (name == "--tag-output") {
      if (inline_value) {
        return fail("--tag-output takes no value");
      }
      options.tag_output = true;
      continue;
    }
    if (name == "-n" || name == "-np" || name == "--n" || name == "--np") {
      auto value = take_value(inline_value);
      if (!value) {
        return fail(std::string(name) + " needs a number of ranks");
      }
      auto count = parse_count(*value);
      if (!count) {
        return fail(std::string(name) + " needs a number of ranks from 1 to " +
                    std::to_string(segment::kMaxCapacity) + " (got '" + *value +
                    "')");
      }
      options.nranks = *count;
      continue;
    }
    if (name == "--universe-size") {
      auto value = take_value(inline_value);
      if (!value) {
        return fail("--universe-size needs a number of rank slots");
      }
      auto count = parse_count(*value);
      if (!count) {
        return fail("--universe-size needs a number from 1 to " +
                    std::to_string(segment::kMaxCapacity) + " (got '" + *value +
                    "')");
      }
      options.universe_size = *count;
      continue;
    }
    if (name == "--heap-size") {
      auto value = take_value(inline_value);
      if (!value) {
        return fail("--heap-size needs a size, e.g. 1G");
      }
      auto bytes = parse_heap_size(*value);
      if (!bytes) {
        return fail("--heap-size needs a size " + heap_size_range() +
                    " (got '" + *value + "')");
      }
      options.heap_bytes = *bytes;
      continue;
    }
    if (name == "--bind-to") {
      auto value = take_value(inline_value);
      if (!value) {
        return fail("--bind-to needs core, numa or none");
      }
      if (*value == "core") {
        options.bind = topo::BindPolicy::kCore;
      } else if (*value == "numa") {
        options.bind = topo::BindPolicy::kNuma;
      } else if (*value == "none") {
        options.bind = topo::BindPolicy::kNone;
      } else {
        return fail("--bind-to needs core, numa or none (got '" + *value +
                    "')");
      }
      continue;
    }
    if (name == "--timeout") {
      auto value = take_value(inline_value);
      if (!value) {
        return fail("--timeout needs a number of seconds");
      }
      auto seconds = parse_seconds(*value);
      if (!seconds) {
        return fail("--timeout needs a positive number of seconds (got '" +
                    *value + "')");
      }
      options.timeout_s = *seconds;
      options.timeout_text = *value;
      continue;
    }
    return fail("unknown option '" + std::string(arg) + "'");
  }

  if (options.nranks == 0) {
    return fail("missing -n N (the number of ranks)");
  }
  if (index >= argc) {
    return fail("missing the program to run");
  }
  if (options.universe_size == 0) {
    options.universe_size = static_cast<std::uint32_t>(std::min<std::uint64_t>(
        std::uint64_t{options.nranks} + kDefaultSpareSlots,
        segment::kMaxCapacity));
  } else if (options.universe_size < options.nranks) {
    return fail("--universe-size (" + std::to_string(options.universe_size) +
                ") must be at least the number of ranks (" +
                std::to_string(options.nranks) + ")");
  }
  for (; index < argc; ++index) {
    options.command.emplace_back(argv[index]);
  }
  result.kind = ParseResult::Kind::kRun;
  return result;
}

}  // namespace shmpi::launcher
