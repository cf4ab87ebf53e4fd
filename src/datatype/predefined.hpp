// SPDX-License-Identifier: MIT
// The predefined MPI datatypes: size, extent, alignment, the category the
// reduction rules use, and the C++ representation the reduction kernels
// dispatch on. A predefined handle is a small integer (MPI 5.0 ABI style), so
// finding one is a bounds check and one table load.
#pragma once

#include <cstdint>
#include <span>

namespace shmpi::datatype {

// The categories of MPI-4.0 §6.9.2 ("C integer", "Fortran integer", ...) that
// decide which predefined operations a type accepts, refined by signedness.
enum class TypeClass : std::uint8_t {
  kInteger,   // C signed integer: MPI_INT, MPI_INT32_T, MPI_SIGNED_CHAR, ...
  kUnsigned,  // C unsigned integer: MPI_UNSIGNED, MPI_UINT8_T,
              // MPI_UNSIGNED_CHAR, ...
  kFortranInteger,  // MPI_INTEGER, MPI_INTEGERn, MPI_AINT, MPI_COUNT,
                    // MPI_OFFSET
  kFloat,    // MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_REAL, MPI_REALn, ...
  kComplex,  // MPI_C_*COMPLEX, MPI_CXX_*COMPLEX, MPI_COMPLEX, MPI_COMPLEXn, ...
  kLogical,  // MPI_C_BOOL, MPI_CXX_BOOL, MPI_LOGICAL, MPI_LOGICALn
  kByte,     // MPI_BYTE
  kPair,     // value-index pairs for MPI_MAXLOC/MPI_MINLOC: MPI_DOUBLE_INT, ...
  kChar,     // characters, valid for no operation: MPI_CHAR, MPI_WCHAR,
             // MPI_CHARACTER
  kPacked,   // MPI_PACKED
  kOpaque,   // a size this machine has no arithmetic for (MPI_REAL2,
             // MPI_COMPLEX4)
};

// How one element is stored: the C++ type the reduction kernels operate on.
// Logical and Fortran types reuse the integer representations of their size.
enum class Scalar : std::uint8_t {
  kNone,  // no arithmetic (bytes, characters, packed, opaque)
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kInt128,
  kUint8,
  kUint16,
  kUint32,
  kUint64,
  kFloat,
  kDouble,
  kLongDouble,
  kFloat128,  // IEEE binary128 (gfortran REAL*16)
  kComplexFloat,
  kComplexDouble,
  kComplexLongDouble,
  kComplexFloat128,
  kFloatInt,       // struct { float; int; }
  kDoubleInt,      // struct { double; int; }
  kLongInt,        // struct { long; int; }
  kIntInt,         // struct { int; int; }
  kShortInt,       // struct { short; int; }
  kLongDoubleInt,  // struct { long double; int; }
  kFloatFloat,     // MPI_2REAL
  kDoubleDouble,   // MPI_2DOUBLE_PRECISION
};
inline constexpr int kScalarCount = static_cast<int>(Scalar::kDoubleDouble) + 1;

// One predefined datatype. Immutable, with static storage: pointers to it stay
// valid for the life of the process.
struct BasicType {
  std::uint16_t id;  // the handle's integer value (MPI_INT == (MPI_Datatype)id)
  std::uint32_t size;   // bytes of data (MPI_Type_size): 12 for MPI_DOUBLE_INT
  std::int64_t extent;  // stride of consecutive elements: 16 for MPI_DOUBLE_INT
  std::uint32_t alignment;  // alignof the C type
  TypeClass cls;
  Scalar scalar;
  const char* name;  // "MPI_INT", as MPI_Type_get_name reports it
};

// A value-index pair whose C struct has padding (MPI_DOUBLE_INT,
// MPI_LONG_INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT): MPI 4.0 §6.9.4 defines
// it as the struct of its two fields, so its packed form (the data only,
// `size` bytes) is not its memory layout (`extent` bytes). Data movement
// treats it as a derived type with a TypeMap (type_map.hpp); reductions fold
// it as its C struct (reduce_ops.hpp). Every other predefined type is
// contiguous: packed form and memory agree.
[[nodiscard]] constexpr bool padded(const BasicType& type) noexcept {
  return static_cast<std::int64_t>(type.size) != type.extent;
}

// The entry for a predefined datatype handle value, or nullptr when the value
// is not a predefined datatype (MPI_DATATYPE_NULL, a derived type's pointer).
[[nodiscard]] const BasicType* find_predefined(
    std::uintptr_t handle_value) noexcept;

// Every predefined datatype, in handle order; aliases (MPI_LONG_LONG_INT,
// MPI_C_COMPLEX) share their target's entry and are not repeated.
[[nodiscard]] std::span<const BasicType> predefined_types() noexcept;

}  // namespace shmpi::datatype
