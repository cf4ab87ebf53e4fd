// SPDX-License-Identifier: MIT
// The kind table of fortran_kinds.hpp, checked against the C types that
// store each kind, and the two SELECTED_*_KIND searches.
#include "datatype/fortran_kinds.hpp"

#include <mpi.h>

#include <array>
#include <cfloat>
#include <limits>

#include "datatype/detail/element_types.hpp"

// As in predefined.cpp: from here on MPI_REAL4 means its integer value, so
// the tables are constants.
#undef SHMPI_HANDLE
#define SHMPI_HANDLE(type, value) (value)

namespace shmpi::datatype {
namespace {

// Fortran's PRECISION(x) is INT((DIGITS(x) - 1) * LOG10(2)), which is C++'s
// digits10; RANGE(x) is INT(MIN(LOG10(HUGE(x)), -LOG10(TINY(x)))), the
// smaller of max_exponent10 and -min_exponent10. The literals below are
// those values, so gfortran's SELECTED_REAL_KIND agrees with ours.
template <typename T>
constexpr int precision_of() {
  return std::numeric_limits<T>::digits10;
}
template <typename T>
constexpr int range_of() {
  constexpr int top = std::numeric_limits<T>::max_exponent10;
  constexpr int bottom = -std::numeric_limits<T>::min_exponent10;
  return top < bottom ? top : bottom;
}
static_assert(precision_of<float>() == 6 && range_of<float>() == 37,
              "REAL(4) is IEEE binary32");
static_assert(precision_of<double>() == 15 && range_of<double>() == 307,
              "REAL(8) is IEEE binary64");

// REAL(10) is the x87 80-bit format, stored in 16 bytes like C's long
// double; where long double is something else there is no kind 10.
#if LDBL_MANT_DIG == 64
#define SHMPI_HAS_REAL10 1
static_assert(precision_of<long double>() == 18 &&
                  range_of<long double>() == 4931 && sizeof(long double) == 16,
              "REAL(10) is the x87 extended format in 16 bytes");
#else
#define SHMPI_HAS_REAL10 0
#endif
// REAL(16) is binary128 (detail::Float128, MPI_REAL16): 113 significand
// bits give 33 digits, and its exponent range is 4931 like x87's.
static_assert(sizeof(detail::Float128) == 16, "REAL(16) is binary128");

constexpr std::array kRealKinds = {
    FortranKind{4, 6, 37, MPI_REAL4, MPI_COMPLEX8},
    FortranKind{8, 15, 307, MPI_REAL8, MPI_COMPLEX16},
#if SHMPI_HAS_REAL10
    FortranKind{10, 18, 4931, MPI_LONG_DOUBLE, MPI_C_LONG_DOUBLE_COMPLEX},
#endif
    FortranKind{16, 33, 4931, MPI_REAL16, MPI_COMPLEX32},
};

// RANGE of INTEGER(k) is the number of decimal digits of HUGE: digits10
// of the same-sized C integer (38 for the 128-bit one).
static_assert(std::numeric_limits<std::int8_t>::digits10 == 2 &&
                  std::numeric_limits<std::int16_t>::digits10 == 4 &&
                  std::numeric_limits<std::int32_t>::digits10 == 9 &&
                  std::numeric_limits<std::int64_t>::digits10 == 18,
              "INTEGER(1..8) are the two's complement C integers");
constexpr std::array kIntegerKinds = {
    FortranKind{1, 0, 2, MPI_INTEGER1, 0},
    FortranKind{2, 0, 4, MPI_INTEGER2, 0},
    FortranKind{4, 0, 9, MPI_INTEGER4, 0},
    FortranKind{8, 0, 18, MPI_INTEGER8, 0},
    FortranKind{16, 0, 38, MPI_INTEGER16, 0},
};

}  // namespace

std::span<const FortranKind> fortran_real_kinds() noexcept {
  return kRealKinds;
}

std::span<const FortranKind> fortran_integer_kinds() noexcept {
  return kIntegerKinds;
}

const FortranKind* selected_real_kind(std::optional<int> precision,
                                      std::optional<int> range) noexcept {
  // The table is in increasing precision with no two kinds alike, so the
  // first that is good enough has the least precision.
  for (const FortranKind& kind : kRealKinds) {
    if (kind.precision >= precision.value_or(0) &&
        kind.range >= range.value_or(0)) {
      return &kind;
    }
  }
  return nullptr;
}

const FortranKind* selected_int_kind(int range) noexcept {
  for (const FortranKind& kind : kIntegerKinds) {
    if (kind.range >= range) {
      return &kind;
    }
  }
  return nullptr;
}

}  // namespace shmpi::datatype
