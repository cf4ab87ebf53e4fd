// SPDX-License-Identifier: MIT
// The Fortran (MPI_Fint) form of a C handle, MPI 4.0 §19.3.4, computed both
// ways without a table: a predefined handle is a small integer already
// (mpi.h, the MPI 5.0 ABI values), so it is its own Fortran handle, and a
// user object is numbered by its slot in its kind's HandleArena.
#pragma once

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <cstdint>

namespace shmpi::mpi::fortran {

// The MPI_Fint values of one handle kind:
//   [0, kFirstUserFint)          the C handle of that value: a predefined
//                                handle or null handle (or a value the
//                                kind's checks reject, as they reject it
//                                in C)
//   [kFirstUserFint, INT_MAX]    the user object in arena slot
//                                (value - kFirstUserFint)
//   negative                     nothing: f2c gives the null handle
// Kinds are separate spaces: a communicator and a group may share a value.
inline constexpr MPI_Fint kFirstUserFint = 0x400;  // above every predefined
inline constexpr std::size_t kMaxSlots =
    static_cast<std::size_t>(INT_MAX) - kFirstUserFint + 1;

// Whether a C handle's value is a predefined (or null) handle's.
constexpr bool is_predefined(std::uintptr_t handle_value) {
  return handle_value < static_cast<std::uintptr_t>(kFirstUserFint);
}
constexpr MPI_Fint from_predefined(std::uintptr_t handle_value) {
  return static_cast<MPI_Fint>(handle_value);
}

// A user object's Fortran handle, for an index below kMaxSlots (every
// arena's capacity is far below it; the callers check anyway).
constexpr MPI_Fint from_slot(std::size_t index) {
  return static_cast<MPI_Fint>(static_cast<std::size_t>(kFirstUserFint) +
                               index);
}

// What an MPI_Fint names.
struct Decoded {
  enum class Kind { kPredefined, kSlot, kNothing };
  Kind kind = Kind::kNothing;
  std::uintptr_t value = 0;  // the C handle's value, or the slot index
};
constexpr Decoded decode(MPI_Fint fint) {
  if (fint < 0) {
    return {Decoded::Kind::kNothing, 0};
  }
  if (fint < kFirstUserFint) {
    return {Decoded::Kind::kPredefined, static_cast<std::uintptr_t>(fint)};
  }
  return {Decoded::Kind::kSlot,
          static_cast<std::uintptr_t>(fint - kFirstUserFint)};
}

}  // namespace shmpi::mpi::fortran
