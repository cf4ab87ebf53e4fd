// SPDX-License-Identifier: MIT
// MPI_Info objects (MPI 4.0 chapter 10). Info objects live in an arena private
// to info.cpp; MPI_INFO_ENV is one more object, built on first use. MPI 4.0
// allows the info calls at any time, before MPI_Init and after MPI_Finalize, so
// nothing here uses the runtime.
//
// Thread safety: creating and freeing objects is thread-safe; changing one
// object from two threads at once is the program's race.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shmpi::mpi {

// Longest key and value, in characters: mpi.h's MPI_MAX_INFO_KEY and
// MPI_MAX_INFO_VAL count the terminating NUL, so a buffer of that size holds
// any key or value.
inline constexpr std::size_t kMaxInfoKeyLength = MPI_MAX_INFO_KEY - 1;
inline constexpr std::size_t kMaxInfoValueLength = MPI_MAX_INFO_VAL - 1;

using InfoEntries = std::vector<std::pair<std::string, std::string>>;

struct Info {
  static constexpr std::uint32_t kMagic = 0x496e6631;  // "Inf1"
  std::uint32_t magic = kMagic;
  InfoEntries entries;  // in the order keys were first set (nthkey)

  // The value of `key`, or nullptr. Keys compare exactly (case-sensitive).
  const std::string* find(std::string_view key) const;
  // Adds the key at the end, or replaces the value in place.
  void set(std::string_view key, std::string_view value);
  // False when the key is absent.
  bool erase(std::string_view key);
};

// The object behind a handle: a live user object or MPI_INFO_ENV; nullptr
// for MPI_INFO_NULL, a freed object or garbage.
Info* find_info(MPI_Info handle);
// A new empty object (nullptr when out of handles), and its handle.
Info* create_info();
MPI_Info to_handle(Info* info);
// Frees an object made by create_info() (never MPI_INFO_ENV).
void destroy_info(Info* info);
bool is_env_info(const Info* info);

// The entries of MPI_INFO_ENV and of MPI_Info_create_env, among the keys
// MPI 4.0 suggests: "command" (argv[0]), "argv" (the other arguments,
// separated by spaces; absent when there are none), "maxprocs" (ranks in
// MPI_COMM_WORLD), "host", "arch" (uname's machine) and "wdir" (the working
// directory when the entries are built: MPI_INFO_ENV's on first use).
// argc/argv are used when argc > 0, else /proc/self/cmdline. Left out:
// "soft" and "file" (shmpirun has no such options) and "thread_level",
// which the standard defines as a level requested before the program
// started, which shmpirun cannot do.
InfoEntries environment_entries(int argc, char* const* argv);

}  // namespace shmpi::mpi
