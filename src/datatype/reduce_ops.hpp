// SPDX-License-Identifier: MIT
// The predefined reduction operations (MPI_SUM, MPI_MAXLOC, ...): which
// datatypes each accepts, and the elementwise kernels that apply them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "datatype/predefined.hpp"

namespace shmpi::datatype {

enum class OpKind : std::uint8_t {
  kMax,
  kMin,
  kSum,
  kProd,
  kLand,
  kBand,
  kLor,
  kBor,
  kLxor,
  kBxor,
  kMaxloc,
  kMinloc,
  kReplace,  // MPI_Accumulate only: inout = in
  kNoOp,     // MPI_Get_accumulate only: inout unchanged
  kInvalid,  // not a predefined operation handle
};
inline constexpr int kOpCount = static_cast<int>(OpKind::kNoOp) + 1;

// The operation a predefined op handle value names, or kInvalid (MPI_OP_NULL,
// a user-defined op's pointer, anything else).
[[nodiscard]] OpKind op_from_handle(std::uintptr_t handle_value) noexcept;

// "MPI_SUM" etc.; "MPI_OP_NULL" for kInvalid.
[[nodiscard]] const char* op_name(OpKind op) noexcept;

// MPI_SUCCESS when a reduction (MPI_Reduce, MPI_Allreduce, ...) may apply `op`
// to `type`, MPI_ERR_OP otherwise, following the table of MPI-4.0 §6.9.2:
//   MPI_MAX, MPI_MIN     C integer, Fortran integer, floating point
//   MPI_SUM, MPI_PROD    C integer, Fortran integer, floating point, complex
//   MPI_LAND/LOR/LXOR    C integer, logical
//   MPI_BAND/BOR/BXOR    C integer, Fortran integer, byte
//   MPI_MAXLOC/MINLOC    the value-index pair types
// MPI_REPLACE and MPI_NO_OP are not reduction operations.
[[nodiscard]] int check_op_type(OpKind op, const BasicType& type) noexcept;

// The same for MPI_Accumulate and friends, which also accept MPI_REPLACE and
// MPI_NO_OP on every predefined type.
[[nodiscard]] int check_accumulate_op_type(OpKind op,
                                           const BasicType& type) noexcept;

// inout[i] = in[i] op inout[i] for i in [0, count), elements `type.extent`
// bytes apart. Requires check_accumulate_op_type(op, type) == MPI_SUCCESS (an
// assertion otherwise). `in` and `inout` must not overlap; they need not be
// aligned, but aligned buffers take the vectorised path. Integer arithmetic
// wraps (two's complement). MPI_MAXLOC/MINLOC keep the smaller index when the
// values are equal, and write only the value and index fields, never padding.
void reduce(OpKind op, const BasicType& type, const void* in, void* inout,
            std::size_t count) noexcept;

// inout[i] = in[i] op inout[i] for `count` elements of one predefined type.
using ReduceFn = void (*)(const void* in, void* inout,
                          std::size_t count) noexcept;
// The function reduce() calls for `op` on `type`, or nullptr when
// check_op_type() refuses the pair (REPLACE, NO_OP and kInvalid included):
// the check and the dispatch in one look, for fast paths.
[[nodiscard]] ReduceFn reduction_kernel(OpKind op,
                                        const BasicType& type) noexcept;

}  // namespace shmpi::datatype
