// SPDX-License-Identifier: MIT
// external32 (datatype/external32.hpp): sizes from the MPI 4.0 table, byte
// order, narrowing and widening of MPI_LONG, and x87 long double to IEEE
// binary128 and back.
#include "datatype/external32.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "datatype/type_map.hpp"

namespace shmpi::datatype {
namespace {

const BasicType& type_of(MPI_Datatype handle) {
  const BasicType* type =
      find_predefined(reinterpret_cast<std::uintptr_t>(handle));
  EXPECT_NE(type, nullptr);
  return *type;
}

// The external32 bytes of one element given in packed form.
template <typename T>
std::vector<unsigned char> out(MPI_Datatype handle, const T& value) {
  const BasicType& type = type_of(handle);
  std::vector<std::byte> bytes(external32_size(type));
  to_external32(type, reinterpret_cast<const std::byte*>(&value), bytes.data());
  std::vector<unsigned char> result;
  for (std::byte b : bytes) {
    result.push_back(std::to_integer<unsigned char>(b));
  }
  return result;
}

template <typename T>
T back(MPI_Datatype handle, const std::vector<unsigned char>& external) {
  T value{};
  from_external32(type_of(handle),
                  reinterpret_cast<const std::byte*>(external.data()),
                  reinterpret_cast<std::byte*>(&value));
  return value;
}

using Bytes = std::vector<unsigned char>;

TEST(External32, SizesFollowTheTable) {
  EXPECT_EQ(external32_size(type_of(MPI_CHAR)), 1u);
  EXPECT_EQ(external32_size(type_of(MPI_SHORT)), 2u);
  EXPECT_EQ(external32_size(type_of(MPI_INT)), 4u);
  EXPECT_EQ(external32_size(type_of(MPI_LONG)), 4u);
  EXPECT_EQ(external32_size(type_of(MPI_UNSIGNED_LONG)), 4u);
  EXPECT_EQ(external32_size(type_of(MPI_LONG_LONG)), 8u);
  EXPECT_EQ(external32_size(type_of(MPI_WCHAR)), 2u);
  EXPECT_EQ(external32_size(type_of(MPI_FLOAT)), 4u);
  EXPECT_EQ(external32_size(type_of(MPI_DOUBLE)), 8u);
  EXPECT_EQ(external32_size(type_of(MPI_LONG_DOUBLE)), 16u);
  EXPECT_EQ(external32_size(type_of(MPI_C_BOOL)), 1u);
  EXPECT_EQ(external32_size(type_of(MPI_AINT)), 8u);
  EXPECT_EQ(external32_size(type_of(MPI_C_DOUBLE_COMPLEX)), 16u);
  EXPECT_EQ(external32_size(type_of(MPI_C_LONG_DOUBLE_COMPLEX)), 32u);
  EXPECT_EQ(external32_size(type_of(MPI_DOUBLE_INT)), 12u);
  EXPECT_EQ(external32_size(type_of(MPI_LONG_INT)), 8u);
  EXPECT_EQ(external32_size(type_of(MPI_SHORT_INT)), 6u);
  EXPECT_EQ(external32_size(type_of(MPI_LONG_DOUBLE_INT)), 20u);
  EXPECT_EQ(external32_size(type_of(MPI_INTEGER)), 4u);
  EXPECT_EQ(external32_size(type_of(MPI_COMPLEX)), 8u);
  EXPECT_EQ(external32_size(type_of(MPI_REAL16)), 16u);
}

TEST(External32, EveryPredefinedTypeReadsItsPackedForm) {
  for (const BasicType& type : predefined_types()) {
    EXPECT_EQ(external32_native_size(type), basic_desc(type)->packed)
        << type.name;
    EXPECT_GT(external32_size(type), 0u) << type.name;
  }
}

TEST(External32, BigEndian) {
  EXPECT_EQ(out(MPI_INT, std::int32_t{0x01020304}),
            (Bytes{0x01, 0x02, 0x03, 0x04}));
  EXPECT_EQ(out(MPI_SHORT, std::int16_t{-2}), (Bytes{0xff, 0xfe}));
  EXPECT_EQ(out(MPI_DOUBLE, 1.0), (Bytes{0x3f, 0xf0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(out(MPI_FLOAT, -2.0f), (Bytes{0xc0, 0, 0, 0}));
  EXPECT_EQ(out(MPI_CHAR, 'A'), (Bytes{'A'}));
  EXPECT_EQ(back<std::int32_t>(MPI_INT, Bytes{0x01, 0x02, 0x03, 0x04}),
            0x01020304);
  EXPECT_EQ(back<double>(MPI_DOUBLE, Bytes{0x40, 0, 0, 0, 0, 0, 0, 0}), 2.0);
}

TEST(External32, LongNarrowsToFourBytesAndWidensBySign) {
  EXPECT_EQ(out(MPI_LONG, -5L), (Bytes{0xff, 0xff, 0xff, 0xfb}));
  EXPECT_EQ(out(MPI_LONG, 0x12345678L), (Bytes{0x12, 0x34, 0x56, 0x78}));
  EXPECT_EQ(back<long>(MPI_LONG, Bytes{0xff, 0xff, 0xff, 0xfb}), -5L);
  EXPECT_EQ(back<long>(MPI_LONG, Bytes{0x7f, 0xff, 0xff, 0xff}),
            std::numeric_limits<std::int32_t>::max());
  EXPECT_EQ(
      back<unsigned long>(MPI_UNSIGNED_LONG, Bytes{0xff, 0xff, 0xff, 0xff}),
      0xffffffffUL);
  EXPECT_EQ(out(MPI_WCHAR, wchar_t{0x263a}), (Bytes{0x26, 0x3a}));
  EXPECT_EQ(back<wchar_t>(MPI_WCHAR, Bytes{0x26, 0x3a}), wchar_t{0x263a});
}

TEST(External32, LongDoubleIsBinary128) {
  // 1.0: exponent 0x3fff, fraction 0. -1.5: sign, 0x3fff, fraction 1000...
  Bytes one(16, 0);
  one[0] = 0x3f;
  one[1] = 0xff;
  EXPECT_EQ(out(MPI_LONG_DOUBLE, 1.0L), one);
  Bytes minus_one_and_half(16, 0);
  minus_one_and_half[0] = 0xbf;
  minus_one_and_half[1] = 0xff;
  minus_one_and_half[2] = 0x80;
  EXPECT_EQ(out(MPI_LONG_DOUBLE, -1.5L), minus_one_and_half);
  for (long double v :
       {0.0L, -0.0L, 1.0L, -1.5L, 3.141592653589793238L, 1e-4940L, 1e4000L,
        std::numeric_limits<long double>::infinity(),
        std::numeric_limits<long double>::min(),
        std::numeric_limits<long double>::max()}) {
    EXPECT_EQ(back<long double>(MPI_LONG_DOUBLE, out(MPI_LONG_DOUBLE, v)), v)
        << static_cast<double>(v);
  }
  const long double nan = std::numeric_limits<long double>::quiet_NaN();
  const long double round_trip =
      back<long double>(MPI_LONG_DOUBLE, out(MPI_LONG_DOUBLE, nan));
  EXPECT_NE(round_trip, round_trip);
}

TEST(External32, PairsAndComplexConvertEachField) {
  // MPI_DOUBLE_INT in packed form: the double, then the int.
  std::array<std::byte, 12> pair{};
  const double value = 2.0;
  const std::int32_t index = 7;
  std::memcpy(pair.data(), &value, 8);
  std::memcpy(pair.data() + 8, &index, 4);
  EXPECT_EQ(out(MPI_DOUBLE_INT, pair),
            (Bytes{0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7}));
  const std::array<float, 2> complex{1.0f, -2.0f};
  EXPECT_EQ(out(MPI_C_FLOAT_COMPLEX, complex),
            (Bytes{0x3f, 0x80, 0, 0, 0xc0, 0, 0, 0}));
  EXPECT_EQ((back<std::array<float, 2>>(
                MPI_C_FLOAT_COMPLEX, Bytes{0x3f, 0x80, 0, 0, 0xc0, 0, 0, 0})),
            complex);
}

}  // namespace
}  // namespace shmpi::datatype
