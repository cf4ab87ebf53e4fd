// SPDX-License-Identifier: MIT
// The MPI_T control and performance variables (MPI 4.0 sections 15.3.6 and
// 15.3.7): what each is, which category it belongs to, and how its value is
// read from where the runtime keeps it. The tables are in tool_cvars.cpp
// and tool_pvars.cpp; the MPI_T_* calls in the tool_*_api.cpp files.
//
// Every variable is one value (count 1) bound to no MPI object. Integer
// values travel as std::uint64_t here; `type` says what C type the caller's
// buffer holds.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <span>

#include "mpi/tool.hpp"
#include "mpi/tool_enums.hpp"
#include "mpi/tool_pvar_value.hpp"

namespace shmpi::mpi::tool {

enum class ValueType {
  kInt,               // MPI_INT (enumerations)
  kUnsignedLongLong,  // MPI_UNSIGNED_LONG_LONG
};

inline MPI_Datatype datatype_of(ValueType type) noexcept {
  return type == ValueType::kInt ? MPI_INT : MPI_UNSIGNED_LONG_LONG;
}

// Copies between a value and the caller's buffer of `type`.
inline void store_value(ValueType type, std::uint64_t value,
                        void* buffer) noexcept {
  if (type == ValueType::kInt) {
    *static_cast<int*>(buffer) = static_cast<int>(value);
  } else {
    *static_cast<unsigned long long*>(buffer) = value;
  }
}

inline std::uint64_t load_value(ValueType type, const void* buffer) noexcept {
  if (type == ValueType::kInt) {
    return static_cast<std::uint64_t>(*static_cast<const int*>(buffer));
  }
  return *static_cast<const unsigned long long*>(buffer);
}

struct CvarInfo {
  const char* name;
  const char* description;
  int verbosity;  // MPI_T_VERBOSITY_*
  ValueType type;
  const EnumType* enumtype;  // nullptr unless a choice
  int scope;                 // MPI_T_SCOPE_*
  Category category;
  std::uint64_t (*read)();  // the value in effect (or that will be)
  // Applies a new value: MPI_SUCCESS, MPI_T_ERR_CVAR_SET_NOT_NOW or
  // MPI_T_ERR_INVALID. nullptr: never settable (MPI_T_ERR_CVAR_SET_NEVER).
  int (*write)(std::uint64_t value);
};

struct PvarInfo {
  const char* name;
  const char* description;
  int verbosity;
  int var_class;  // MPI_T_PVAR_CLASS_*
  PvarKind kind;
  Category category;
  bool readonly;
  bool continuous;
  bool atomic;  // MPI_T_pvar_readreset allowed
  // The source: a counter's total, a level's current value.
  std::uint64_t (*sample)();
  // High-water marks: the largest level since the previous call, which
  // starts the source watching anew (so every handle must be given it).
  std::uint64_t (*take_peak)();
};

std::span<const CvarInfo> cvars() noexcept;
std::span<const PvarInfo> pvars() noexcept;

}  // namespace shmpi::mpi::tool
