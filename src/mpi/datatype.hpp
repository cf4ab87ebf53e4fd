// SPDX-License-Identifier: MIT
// The object behind a derived MPI_Datatype handle: the datatype module's
// description plus what the MPI layer keeps about it (committed, name, the
// constructor's arguments for MPI_Type_get_contents). Reference counted: the
// user's handle holds one reference, every derived type built from it one,
// every nonblocking operation using it one (retain_type), and every handle
// MPI_Type_get_contents returned one.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "datatype/type_map.hpp"
#include "mpi/handle_arena.hpp"

namespace shmpi::mpi {

struct Datatype {
  static constexpr std::uint32_t kMagic = 0x54797031;  // "Typ1"
  std::uint32_t magic = kMagic;
  std::atomic<std::int32_t> references{1};
  bool committed = false;
  datatype::DescPtr desc;
  std::string name;
  // MPI_Type_get_envelope / get_contents: the combiner and its arguments.
  int combiner = MPI_COMBINER_NAMED;
  std::vector<int> integers;
  std::vector<MPI_Aint> addresses;
  std::vector<MPI_Count> large_counts;
  std::vector<MPI_Datatype> types;  // derived ones hold a reference

  MPI_Datatype handle() {
    return reinterpret_cast<MPI_Datatype>(this);  // NOLINT: handle is object
  }
};

HandleArena<Datatype>& datatypes();

// The derived datatype behind a handle, or nullptr (predefined, null or
// garbage handles).
inline Datatype* find_derived(MPI_Datatype handle) {
  return datatypes().find(handle);
}

// A datatype's description, predefined or derived (nullptr: invalid).
datatype::DescPtr describe(MPI_Datatype handle);

void retain(Datatype* type) noexcept;
// Drops one reference; the last one frees the object and releases the
// datatypes it was built from.
void release(Datatype* type) noexcept;

}  // namespace shmpi::mpi
