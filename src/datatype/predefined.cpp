// SPDX-License-Identifier: MIT
// The table of predefined datatypes, built at compile time from the handle
// values in mpi.h, and the O(1) lookup by handle value.
#include "datatype/predefined.hpp"

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>

#include "datatype/detail/element_types.hpp"

// mpi.h spells every predefined handle SHMPI_HANDLE(type, value), a cast that
// is not a constant expression. Macros expand where they are used, so from
// here on MPI_INT means its integer value and the table is a constant.
#undef SHMPI_HANDLE
#define SHMPI_HANDLE(type, value) (value)

namespace shmpi::datatype {
namespace {

using detail::Complex;

static_assert(
    sizeof(MPI_Aint) == 8 && sizeof(MPI_Count) == 8 && sizeof(MPI_Offset) == 8,
    "MPI_AINT, MPI_COUNT and MPI_OFFSET are stored as 64-bit integers");
static_assert(sizeof(int) == 4 && sizeof(long) == 8 && sizeof(wchar_t) == 4,
              "the table below assumes an LP64 ABI");

template <typename T>
constexpr BasicType basic(std::uintptr_t handle, TypeClass cls, Scalar scalar,
                          const char* name) {
  return {static_cast<std::uint16_t>(handle),
          sizeof(T),
          sizeof(T),
          alignof(T),
          cls,
          scalar,
          name};
}

// A value-index pair: its size counts the two fields, its extent is the C
// struct's.
template <typename P>
constexpr BasicType pair(std::uintptr_t handle, Scalar scalar,
                         const char* name) {
  return {static_cast<std::uint16_t>(handle),
          sizeof(P::value) + sizeof(P::index),
          sizeof(P),
          alignof(P),
          TypeClass::kPair,
          scalar,
          name};
}

// A Fortran type with no C arithmetic here (REAL*2, COMPLEX*4): moved as bytes.
constexpr BasicType opaque(std::uintptr_t handle, std::uint32_t size,
                           std::uint32_t alignment, const char* name) {
  return {static_cast<std::uint16_t>(handle),
          size,
          size,
          alignment,
          TypeClass::kOpaque,
          Scalar::kNone,
          name};
}

#define SHMPI_BASIC(handle, ctype, cls, scalar) \
  basic<ctype>(handle, TypeClass::cls, Scalar::scalar, #handle)
#define SHMPI_PAIR(handle, ctype, scalar) \
  pair<detail::ctype>(handle, Scalar::scalar, #handle)

// In handle order. The Fortran-named types use the C types gfortran uses for
// them by default: INTEGER and LOGICAL are int, REAL is float, DOUBLE
// PRECISION is double, REAL*16 is IEEE binary128. MPI_LONG_LONG_INT and
// MPI_C_COMPLEX are aliases in mpi.h and appear once, under the name MPI-4.0
// gives the type.
constexpr std::array kTypes = {
    SHMPI_BASIC(MPI_AINT, MPI_Aint, kFortranInteger, kInt64),
    SHMPI_BASIC(MPI_COUNT, MPI_Count, kFortranInteger, kInt64),
    SHMPI_BASIC(MPI_OFFSET, MPI_Offset, kFortranInteger, kInt64),
    SHMPI_BASIC(MPI_PACKED, char, kPacked, kNone),
    SHMPI_BASIC(MPI_SHORT, short, kInteger, kInt16),
    SHMPI_BASIC(MPI_INT, int, kInteger, kInt32),
    SHMPI_BASIC(MPI_LONG, long, kInteger, kInt64),
    SHMPI_BASIC(MPI_LONG_LONG, long long, kInteger, kInt64),
    SHMPI_BASIC(MPI_UNSIGNED_SHORT, unsigned short, kUnsigned, kUint16),
    SHMPI_BASIC(MPI_UNSIGNED, unsigned, kUnsigned, kUint32),
    SHMPI_BASIC(MPI_UNSIGNED_LONG, unsigned long, kUnsigned, kUint64),
    SHMPI_BASIC(MPI_UNSIGNED_LONG_LONG, unsigned long long, kUnsigned, kUint64),
    SHMPI_BASIC(MPI_FLOAT, float, kFloat, kFloat),
    SHMPI_BASIC(MPI_C_FLOAT_COMPLEX, Complex<float>, kComplex, kComplexFloat),
    SHMPI_BASIC(MPI_CXX_FLOAT_COMPLEX, Complex<float>, kComplex, kComplexFloat),
    SHMPI_BASIC(MPI_DOUBLE, double, kFloat, kDouble),
    SHMPI_BASIC(MPI_C_DOUBLE_COMPLEX, Complex<double>, kComplex,
                kComplexDouble),
    SHMPI_BASIC(MPI_CXX_DOUBLE_COMPLEX, Complex<double>, kComplex,
                kComplexDouble),
    SHMPI_BASIC(MPI_LOGICAL, int, kLogical, kInt32),
    SHMPI_BASIC(MPI_INTEGER, int, kFortranInteger, kInt32),
    SHMPI_BASIC(MPI_REAL, float, kFloat, kFloat),
    SHMPI_BASIC(MPI_COMPLEX, Complex<float>, kComplex, kComplexFloat),
    SHMPI_BASIC(MPI_DOUBLE_PRECISION, double, kFloat, kDouble),
    SHMPI_BASIC(MPI_DOUBLE_COMPLEX, Complex<double>, kComplex, kComplexDouble),
    SHMPI_BASIC(MPI_CHARACTER, char, kChar, kNone),
    SHMPI_BASIC(MPI_LONG_DOUBLE, long double, kFloat, kLongDouble),
    SHMPI_BASIC(MPI_C_LONG_DOUBLE_COMPLEX, Complex<long double>, kComplex,
                kComplexLongDouble),
    SHMPI_BASIC(MPI_CXX_LONG_DOUBLE_COMPLEX, Complex<long double>, kComplex,
                kComplexLongDouble),
    SHMPI_PAIR(MPI_FLOAT_INT, FloatInt, kFloatInt),
    SHMPI_PAIR(MPI_DOUBLE_INT, DoubleInt, kDoubleInt),
    SHMPI_PAIR(MPI_LONG_INT, LongInt, kLongInt),
    SHMPI_PAIR(MPI_2INT, IntInt, kIntInt),
    SHMPI_PAIR(MPI_SHORT_INT, ShortInt, kShortInt),
    SHMPI_PAIR(MPI_LONG_DOUBLE_INT, LongDoubleInt, kLongDoubleInt),
    SHMPI_PAIR(MPI_2REAL, FloatFloat, kFloatFloat),
    SHMPI_PAIR(MPI_2DOUBLE_PRECISION, DoubleDouble, kDoubleDouble),
    SHMPI_PAIR(MPI_2INTEGER, IntInt, kIntInt),
    SHMPI_BASIC(MPI_C_BOOL, bool, kLogical, kUint8),
    SHMPI_BASIC(MPI_CXX_BOOL, bool, kLogical, kUint8),
    SHMPI_BASIC(MPI_WCHAR, wchar_t, kChar, kNone),
    SHMPI_BASIC(MPI_INT8_T, std::int8_t, kInteger, kInt8),
    SHMPI_BASIC(MPI_UINT8_T, std::uint8_t, kUnsigned, kUint8),
    SHMPI_BASIC(MPI_CHAR, char, kChar, kNone),
    SHMPI_BASIC(MPI_SIGNED_CHAR, signed char, kInteger, kInt8),
    SHMPI_BASIC(MPI_UNSIGNED_CHAR, unsigned char, kUnsigned, kUint8),
    SHMPI_BASIC(MPI_BYTE, unsigned char, kByte, kUint8),
    SHMPI_BASIC(MPI_INT16_T, std::int16_t, kInteger, kInt16),
    SHMPI_BASIC(MPI_UINT16_T, std::uint16_t, kUnsigned, kUint16),
    SHMPI_BASIC(MPI_INT32_T, std::int32_t, kInteger, kInt32),
    SHMPI_BASIC(MPI_UINT32_T, std::uint32_t, kUnsigned, kUint32),
    SHMPI_BASIC(MPI_INT64_T, std::int64_t, kInteger, kInt64),
    SHMPI_BASIC(MPI_UINT64_T, std::uint64_t, kUnsigned, kUint64),
    SHMPI_BASIC(MPI_INTEGER1, std::int8_t, kFortranInteger, kInt8),
    SHMPI_BASIC(MPI_INTEGER2, std::int16_t, kFortranInteger, kInt16),
    opaque(MPI_REAL2, 2, 2, "MPI_REAL2"),
    SHMPI_BASIC(MPI_INTEGER4, std::int32_t, kFortranInteger, kInt32),
    SHMPI_BASIC(MPI_REAL4, float, kFloat, kFloat),
    opaque(MPI_COMPLEX4, 4, 2, "MPI_COMPLEX4"),
    SHMPI_BASIC(MPI_INTEGER8, std::int64_t, kFortranInteger, kInt64),
    SHMPI_BASIC(MPI_REAL8, double, kFloat, kDouble),
    SHMPI_BASIC(MPI_COMPLEX8, Complex<float>, kComplex, kComplexFloat),
    SHMPI_BASIC(MPI_INTEGER16, detail::Int128, kFortranInteger, kInt128),
    SHMPI_BASIC(MPI_REAL16, detail::Float128, kFloat, kFloat128),
    SHMPI_BASIC(MPI_COMPLEX16, Complex<double>, kComplex, kComplexDouble),
    SHMPI_BASIC(MPI_COMPLEX32, Complex<detail::Float128>, kComplex,
                kComplexFloat128),
};

#undef SHMPI_BASIC
#undef SHMPI_PAIR

// mpi.h keeps every predefined handle below 0x400, so one byte per value
// (0 = not predefined, k = kTypes[k - 1]) makes the lookup a bounds check and
// a load from a 1 KiB table.
constexpr std::size_t kHandleLimit = 0x400;
static_assert(kTypes.size() < 256,
              "the index table stores positions in one byte");

constexpr bool handles_ascend_below_limit() {
  for (std::size_t i = 0; i < kTypes.size(); ++i) {
    if (kTypes[i].id >= kHandleLimit ||
        (i > 0 && kTypes[i - 1].id >= kTypes[i].id)) {
      return false;
    }
  }
  return true;
}
static_assert(
    handles_ascend_below_limit(),
    "kTypes is listed in handle order, without duplicates, below kHandleLimit");

constexpr std::array<std::uint8_t, kHandleLimit> make_index() {
  std::array<std::uint8_t, kHandleLimit> index{};
  for (std::size_t i = 0; i < kTypes.size(); ++i) {
    index[kTypes[i].id] = static_cast<std::uint8_t>(i + 1);
  }
  return index;
}

constexpr std::array<std::uint8_t, kHandleLimit> kIndex = make_index();

}  // namespace

const BasicType* find_predefined(std::uintptr_t handle_value) noexcept {
  if (handle_value >= kHandleLimit) {
    return nullptr;
  }
  const std::uint8_t position = kIndex[handle_value];
  return position == 0 ? nullptr : &kTypes[position - 1U];
}

std::span<const BasicType> predefined_types() noexcept { return kTypes; }

}  // namespace shmpi::datatype
