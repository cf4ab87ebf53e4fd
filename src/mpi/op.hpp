// SPDX-License-Identifier: MIT
// MPI_Op_create's operations: refcounted objects behind MPI_Op handles, so
// that a nonblocking reduction keeps the operation alive after MPI_Op_free.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>

#include "mpi/core.hpp"

namespace shmpi::mpi {

struct UserOp {
  static constexpr std::uint32_t kMagic = 0x4f707531;  // "Opu1"
  std::uint32_t magic = kMagic;
  // Exactly one of the two is set (MPI_Op_create / MPI_Op_create_c).
  MPI_User_function* function = nullptr;
  MPI_User_function_c* function_c = nullptr;
  bool commutative = true;
  // The program's handle plus one per operation in flight.
  std::atomic<int> references{1};
};

// The live user operation `op` names, or nullptr (predefined, null, freed or
// garbage handles).
UserOp* find_user_op(MPI_Op op) noexcept;
// Where they live: for the Fortran handles.
HandleArena<UserOp>& user_ops();

}  // namespace shmpi::mpi
