// SPDX-License-Identifier: MIT
// Info objects and MPI_INFO_ENV (info.hpp).
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

namespace {

HandleArena<Info>& arena() {
  static auto* instance = new HandleArena<Info>(1u << 16);  // used until exit
  return *instance;
}

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

}  // namespace

Info* find_info(MPI_Info handle) {
  if (handle == MPI_INFO_ENV) {
    return &env_info();
  }
  return arena().find(handle);
}

Info* create_info() { return arena().create(); }

MPI_Info to_handle(Info* info) {
  if (is_env_info(info)) {
    return MPI_INFO_ENV;
  }
  return reinterpret_cast<MPI_Info>(info);  // NOLINT: handles are objects
}

void destroy_info(Info* info) {
  if (!is_env_info(info)) {
    arena().destroy(info);
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

}  // namespace shmpi::mpi
