// SPDX-License-Identifier: MIT
// Fortran kinds (datatype/fortran_kinds.hpp): SELECTED_REAL_KIND and
// SELECTED_INT_KIND give what gfortran 12 on x86-64 gives for the same
// arguments (values printed by a gfortran program), and each kind's
// predefined types have its size.
#include "datatype/fortran_kinds.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <optional>

#include "datatype/predefined.hpp"

namespace shmpi::datatype {
namespace {

int real_kind(std::optional<int> p, std::optional<int> r) {
  const FortranKind* kind = selected_real_kind(p, r);
  return kind == nullptr ? -1 : kind->kind;
}

int int_kind(int r) {
  const FortranKind* kind = selected_int_kind(r);
  return kind == nullptr ? -1 : kind->kind;
}

std::uint32_t size_of(std::uintptr_t handle) {
  const BasicType* type = find_predefined(handle);
  EXPECT_NE(type, nullptr);
  return type == nullptr ? 0 : type->size;
}

TEST(FortranKinds, SelectedRealKindAtEachBoundary) {
  EXPECT_EQ(real_kind(6, 37), 4);
  EXPECT_EQ(real_kind(7, std::nullopt), 8);
  EXPECT_EQ(real_kind(std::nullopt, 38), 8);
  EXPECT_EQ(real_kind(15, 307), 8);
  EXPECT_EQ(real_kind(16, std::nullopt), 10);
  EXPECT_EQ(real_kind(std::nullopt, 308), 10);
  EXPECT_EQ(real_kind(18, 4931), 10);
  EXPECT_EQ(real_kind(19, std::nullopt), 16);
  EXPECT_EQ(real_kind(33, 4931), 16);
  EXPECT_EQ(real_kind(0, 0), 4);
  EXPECT_EQ(real_kind(-5, -5), 4);  // every kind satisfies a negative bound
}

TEST(FortranKinds, SelectedRealKindBeyondEveryKindIsNone) {
  EXPECT_EQ(real_kind(34, std::nullopt), -1);
  EXPECT_EQ(real_kind(std::nullopt, 4932), -1);
  EXPECT_EQ(real_kind(34, 5000), -1);
}

TEST(FortranKinds, SelectedIntKindAtEachBoundary) {
  EXPECT_EQ(int_kind(0), 1);
  EXPECT_EQ(int_kind(2), 1);
  EXPECT_EQ(int_kind(3), 2);
  EXPECT_EQ(int_kind(4), 2);
  EXPECT_EQ(int_kind(5), 4);
  EXPECT_EQ(int_kind(9), 4);
  EXPECT_EQ(int_kind(10), 8);
  EXPECT_EQ(int_kind(18), 8);
  EXPECT_EQ(int_kind(19), 16);
  EXPECT_EQ(int_kind(38), 16);
  EXPECT_EQ(int_kind(39), -1);
}

TEST(FortranKinds, TypesHaveTheKindsSize) {
  for (const FortranKind& kind : fortran_real_kinds()) {
    // gfortran stores REAL(10) in 16 bytes, like C's long double.
    const std::uint32_t bytes =
        kind.kind == 10 ? 16u : static_cast<std::uint32_t>(kind.kind);
    EXPECT_EQ(size_of(kind.type), bytes) << "REAL(" << kind.kind << ")";
    EXPECT_EQ(size_of(kind.complex_type), 2 * bytes)
        << "COMPLEX(" << kind.kind << ")";
  }
  for (const FortranKind& kind : fortran_integer_kinds()) {
    EXPECT_EQ(size_of(kind.type), static_cast<std::uint32_t>(kind.kind))
        << "INTEGER(" << kind.kind << ")";
  }
}

}  // namespace
}  // namespace shmpi::datatype
