// SPDX-License-Identifier: MIT
// Info objects, MPI_INFO_ENV and the communicator hints (info.hpp).
#include "mpi/info.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <new>

#include "mpi/handle_arena.hpp"

namespace shmpi::mpi {

const std::string* Info::find(std::string_view key) const {
  for (const auto& [k, v] : entries) {
    if (k == key) {
      return &v;
    }
  }
  return nullptr;
}

void Info::set(std::string_view key, std::string_view value) {
  for (auto& [k, v] : entries) {
    if (k == key) {
      v = value;
      return;
    }
  }
  entries.emplace_back(key, value);
}

bool Info::erase(std::string_view key) {
  auto it =
      std::find_if(entries.begin(), entries.end(),
                   [key](const auto& entry) { return entry.first == key; });
  if (it == entries.end()) {
    return false;
  }
  entries.erase(it);
  return true;
}

HandleArena<Info>& info_arena() {
  static auto* instance = new HandleArena<Info>(1u << 16);  // used until exit
  return *instance;
}

namespace {

// ---- MPI_INFO_ENV

// The program's own argv from the kernel, for MPI_Init(NULL, NULL) and for
// MPI_INFO_ENV, which exists before any argc/argv reaches the library.
std::vector<std::string> process_arguments() {
  std::ifstream file("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> arguments;
  std::string argument;
  while (std::getline(file, argument, '\0')) {
    arguments.push_back(argument);
  }
  return arguments;
}

std::string join_arguments(const std::vector<std::string>& arguments) {
  std::string joined;
  for (std::size_t i = 1; i < arguments.size(); ++i) {
    if (i > 1) {
      joined += ' ';
    }
    joined += arguments[i];
  }
  return joined;
}

// Ranks in MPI_COMM_WORLD, as the launcher tells every rank (SHMPI_SIZE,
// docs/design.md); a program started without shmpirun is a world of one.
std::string world_size_text() {
  const char* size = std::getenv("SHMPI_SIZE");
  return std::getenv("SHMPI_SEGMENT_FD") != nullptr && size != nullptr
             ? std::string(size)
             : std::string("1");
}

// Values are cut to the longest an info value may be.
void add(InfoEntries* entries, std::string_view key, std::string value) {
  if (value.size() > kMaxInfoValueLength) {
    value.resize(kMaxInfoValueLength);
  }
  entries->emplace_back(key, std::move(value));
}

// MPI_INFO_ENV once built, so that is_env_info() can answer without
// building it. Written once by env_info(); readers only compare it with a
// pointer they hold, so the ordering (release/acquire) is belt and braces.
std::atomic<Info*> env_instance{nullptr};

// Built on first use (a function-local static, so the build happens once
// even with threads) and used until exit.
Info& env_info() {
  static Info* instance = [] {
    auto* info = new Info{Info::kMagic, environment_entries(0, nullptr)};
    env_instance.store(info, std::memory_order_release);
    return info;
  }();
  return *instance;
}

// ---- communicator hints

constexpr std::array<std::string_view, 4> kCommHints = {
    "mpi_assert_no_any_tag", "mpi_assert_no_any_source",
    "mpi_assert_exact_length", "mpi_assert_allow_overtaking"};

bool is_comm_hint(std::string_view key) {
  return std::find(kCommHints.begin(), kCommHints.end(), key) !=
         kCommHints.end();
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// "true" or "false" for a boolean hint value, nullptr for anything else.
const char* boolean_value(std::string_view value) {
  if (equals_ignoring_case(value, "true")) {
    return "true";
  }
  if (equals_ignoring_case(value, "false")) {
    return "false";
  }
  return nullptr;
}

}  // namespace

Info* find_info(MPI_Info handle) {
  if (handle == MPI_INFO_ENV) {
    return &env_info();
  }
  return info_arena().find(handle);
}

Info* create_info() { return info_arena().create(); }

MPI_Info to_handle(Info* info) {
  if (is_env_info(info)) {
    return MPI_INFO_ENV;
  }
  return reinterpret_cast<MPI_Info>(info);  // NOLINT: handles are objects
}

void destroy_info(Info* info) {
  if (!is_env_info(info)) {
    info_arena().destroy(info);
  }
}

bool is_env_info(const Info* info) {
  return info != nullptr &&
         info == env_instance.load(std::memory_order_acquire);
}

InfoEntries environment_entries(int argc, char* const* argv) {
  std::vector<std::string> arguments;
  if (argc > 0 && argv != nullptr) {
    arguments.assign(argv, argv + argc);
  } else {
    arguments = process_arguments();
  }
  InfoEntries entries;
  if (!arguments.empty()) {
    add(&entries, "command", arguments[0]);
  }
  if (arguments.size() > 1) {
    add(&entries, "argv", join_arguments(arguments));
  }
  add(&entries, "maxprocs", world_size_text());
  char host[HOST_NAME_MAX + 1] = {};
  if (::gethostname(host, sizeof host - 1) == 0) {
    add(&entries, "host", host);
  }
  utsname machine{};
  if (::uname(&machine) == 0) {
    add(&entries, "arch", machine.machine);
  }
  char directory[PATH_MAX];
  if (::getcwd(directory, sizeof directory) != nullptr) {
    add(&entries, "wdir", directory);
  }
  return entries;
}

void merge_comm_hints(const Info& info,
                      std::vector<std::pair<std::string, std::string>>* hints) {
  // A plain loop variable: Clang 14 cannot capture structured bindings.
  for (const auto& entry : info.entries) {
    const std::string& key = entry.first;
    const char* normalized = boolean_value(entry.second);
    if (!is_comm_hint(key) || normalized == nullptr) {
      continue;  // MPI 4.0 section 10: a hint may be ignored
    }
    auto it = std::find_if(hints->begin(), hints->end(),
                           [&](const auto& hint) { return hint.first == key; });
    if (it != hints->end()) {
      it->second = normalized;
    } else {
      hints->emplace_back(key, normalized);
    }
  }
}

InfoEntries comm_info_entries(
    const std::vector<std::pair<std::string, std::string>>& hints) {
  InfoEntries entries;
  for (std::string_view key : kCommHints) {
    auto it = std::find_if(hints.begin(), hints.end(),
                           [&](const auto& hint) { return hint.first == key; });
    entries.emplace_back(key, it != hints.end() ? it->second : "false");
  }
  return entries;
}

int hints_from_info(MPI_Info info,
                    std::vector<std::pair<std::string, std::string>>* out) {
  if (info == MPI_INFO_NULL) {
    out->clear();
    return MPI_SUCCESS;
  }
  const Info* found = find_info(info);
  if (found == nullptr) {
    return MPI_ERR_INFO;
  }
  try {
    std::vector<std::pair<std::string, std::string>> hints;
    merge_comm_hints(*found, &hints);
    *out = std::move(hints);
  } catch (const std::bad_alloc&) {
    return MPI_ERR_NO_MEM;
  }
  return MPI_SUCCESS;
}

}  // namespace shmpi::mpi
