// SPDX-License-Identifier: MIT
// MPI_Info objects (MPI 4.0 chapter 10) and the communicator hints kept from
// them. Info objects live in an arena private to info.cpp; MPI_INFO_ENV is
// one more object, built on first use. MPI 4.0 allows the info calls at any
// time, before MPI_Init and after MPI_Finalize, so nothing here uses the
// runtime.
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

#include "mpi/handle_arena.hpp"

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
// Where user objects live (not MPI_INFO_ENV): for the Fortran handles.
HandleArena<Info>& info_arena();

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

// ---- communicator hints (MPI_Comm_set_info / MPI_Comm_get_info)
//
// shmpi keeps the four assertions of MPI 4.0 section 7.4.4
// (mpi_assert_no_any_tag, mpi_assert_no_any_source, mpi_assert_exact_length,
// mpi_assert_allow_overtaking) with the values "true" or "false" (any case;
// other values are ignored), and ignores every other key, as MPICH 4.0.2
// does for keys it does not know. Comm::hints holds only the assertions
// that were set; MPI_Comm_get_info reports all four, "false" by default.

// Replaces or adds the hints of `info` that shmpi keeps.
void merge_comm_hints(const Info& info,
                      std::vector<std::pair<std::string, std::string>>* hints);
// The entries MPI_Comm_get_info returns for a communicator's hints.
InfoEntries comm_info_entries(
    const std::vector<std::pair<std::string, std::string>>& hints);

// For MPI_Comm_dup_with_info and MPI_Comm_idup_with_info: the hints the new
// communicator gets from `info` (MPI_INFO_NULL gives none). Returns
// MPI_SUCCESS, or the error class MPI_ERR_INFO for an invalid handle or
// MPI_ERR_NO_MEM, for the caller to raise; *out is set only on success.
int hints_from_info(MPI_Info info,
                    std::vector<std::pair<std::string, std::string>>* out);

}  // namespace shmpi::mpi
