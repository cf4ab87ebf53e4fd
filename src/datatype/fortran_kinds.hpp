// SPDX-License-Identifier: MIT
// The Fortran numeric kinds of the platform's compiler (gfortran on x86-64:
// REAL kinds 4, 8, 10, 16 and INTEGER kinds 1, 2, 4, 8, 16), each with the
// predefined datatypes that store one of its values, and the Fortran
// intrinsics SELECTED_REAL_KIND and SELECTED_INT_KIND over them: what
// MPI_Type_create_f90_real, _complex and _integer (MPI 4.0 §19.1.9) need.
// Pure functions over a constant table; any thread may call them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace shmpi::datatype {

// One kind. For a REAL kind, `precision` and `range` are what the Fortran
// intrinsics PRECISION and RANGE return for it; for an INTEGER kind,
// `precision` is 0 and `range` is RANGE (decimal digits of HUGE).
struct FortranKind {
  int kind;       // the KIND value gfortran gives it
  int precision;  // decimal digits of the significand
  int range;      // decimal exponent range
  // Predefined handle values (find_predefined): a REAL or INTEGER of this
  // kind, and (REAL kinds only, else 0) a COMPLEX of it.
  std::uintptr_t type;
  std::uintptr_t complex_type;
};

// The REAL kinds in increasing precision, and the INTEGER kinds in
// increasing range.
[[nodiscard]] std::span<const FortranKind> fortran_real_kinds() noexcept;
[[nodiscard]] std::span<const FortranKind> fortran_integer_kinds() noexcept;

// SELECTED_REAL_KIND(P=precision, R=range), an absent argument given as
// std::nullopt (the caller ensures one is present): among the REAL kinds of
// at least that precision and range, the one of least precision (of equal
// precision, the smallest kind). nullptr when there is none, where Fortran
// returns a negative value.
[[nodiscard]] const FortranKind* selected_real_kind(
    std::optional<int> precision, std::optional<int> range) noexcept;

// SELECTED_INT_KIND(R=range): the INTEGER kind of least range that
// represents every integer n with -10^range < n < 10^range; nullptr when
// there is none.
[[nodiscard]] const FortranKind* selected_int_kind(int range) noexcept;

}  // namespace shmpi::datatype
