// SPDX-License-Identifier: MIT
// The enumerations of MPI_T control variables that are a choice (MPI 4.0
// section 15.3.5): fixed tables, whose addresses are the MPI_T_enum
// handles.
#pragma once

#include <mpi.h>

#include <array>
#include <span>

namespace shmpi::mpi::tool {

struct EnumItem {
  int value;
  const char* name;
};

struct EnumType {
  const char* name;
  std::span<const EnumItem> items;
};

inline constexpr std::array<EnumItem, 2> kOnOffItems{{{0, "off"}, {1, "on"}}};
inline constexpr std::array<EnumItem, 2> kFenceItems{{
    {0, "seq_cst"},     // a full fence on both sides of every Dekker pair
    {1, "membarrier"},  // compiler barriers; the rare side runs membarrier(2)
}};

inline constexpr std::array<EnumType, 2> kEnums{{
    {"shmpi_on_off", kOnOffItems},
    {"shmpi_fence_kind", kFenceItems},
}};

inline constexpr const EnumType& kOnOffEnum = kEnums[0];
inline constexpr const EnumType& kFenceEnum = kEnums[1];

inline MPI_T_enum enum_handle(const EnumType& type) {
  return reinterpret_cast<MPI_T_enum>(  // NOLINT: handles are pointers
      const_cast<EnumType*>(&type));
}

// The table entry of a handle, or nullptr if it is not one of ours.
inline const EnumType* find_enum(MPI_T_enum handle) {
  for (const EnumType& type : kEnums) {
    if (enum_handle(type) == handle) {
      return &type;
    }
  }
  return nullptr;
}

}  // namespace shmpi::mpi::tool
