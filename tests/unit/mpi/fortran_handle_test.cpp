// SPDX-License-Identifier: MIT
// The MPI_Fint form of handles (mpi/fortran_handle.hpp): predefined values
// are their own Fortran handle, slots sit above them, and decoding inverts
// both; negative values name nothing.
#include "mpi/fortran_handle.hpp"

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>

namespace shmpi::mpi::fortran {
namespace {

using Kind = Decoded::Kind;

TEST(FortranHandle, PredefinedHandlesAreTheirOwnValue) {
  for (std::uintptr_t value :
       {std::uintptr_t{0}, reinterpret_cast<std::uintptr_t>(MPI_COMM_NULL),
        reinterpret_cast<std::uintptr_t>(MPI_COMM_WORLD),
        reinterpret_cast<std::uintptr_t>(MPI_COMPLEX32),  // the largest
        std::uintptr_t{kFirstUserFint - 1}}) {
    ASSERT_TRUE(is_predefined(value));
    const MPI_Fint fint = from_predefined(value);
    EXPECT_EQ(fint, static_cast<MPI_Fint>(value));
    const Decoded decoded = decode(fint);
    EXPECT_EQ(decoded.kind, Kind::kPredefined);
    EXPECT_EQ(decoded.value, value);
  }
  EXPECT_FALSE(is_predefined(kFirstUserFint));
}

TEST(FortranHandle, SlotsSitAbovePredefinedValues) {
  for (std::size_t index :
       {std::size_t{0}, std::size_t{1}, std::size_t{1} << 22, kMaxSlots - 1}) {
    const MPI_Fint fint = from_slot(index);
    EXPECT_GE(fint, kFirstUserFint);
    const Decoded decoded = decode(fint);
    EXPECT_EQ(decoded.kind, Kind::kSlot);
    EXPECT_EQ(decoded.value, index);
  }
  EXPECT_EQ(from_slot(kMaxSlots - 1), INT_MAX);
}

TEST(FortranHandle, NegativeValuesNameNothing) {
  EXPECT_EQ(decode(-1).kind, Kind::kNothing);
  EXPECT_EQ(decode(INT_MIN).kind, Kind::kNothing);
}

}  // namespace
}  // namespace shmpi::mpi::fortran
