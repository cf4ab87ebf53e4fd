// SPDX-License-Identifier: MIT
// The predefined datatype table: every datatype handle in mpi.h is found,
// with the size, extent and alignment of its C type.
#include "datatype/predefined.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace shmpi::datatype {
namespace {

std::uintptr_t value_of(MPI_Datatype handle) {
  return reinterpret_cast<std::uintptr_t>(handle);
}

template <typename F>
struct Cx {
  F re;
  F im;
};
template <typename V, typename I>
struct Pair {
  V value;
  I index;
};
__extension__ using Int128 = __int128;
__extension__ using Quad = __float128;

struct Expected {
  MPI_Datatype handle;
  const char* name;
  std::uint32_t size;
  std::int64_t extent;
  std::uint32_t alignment;
  TypeClass cls;
};

#define BASIC(handle, ctype, cls)                                  \
  Expected {                                                       \
    handle, #handle, sizeof(ctype), sizeof(ctype), alignof(ctype), \
        TypeClass::cls                                             \
  }
#define PAIR(handle, v, i)                                      \
  Expected {                                                    \
    handle, #handle, sizeof(v) + sizeof(i), sizeof(Pair<v, i>), \
        alignof(Pair<v, i>), TypeClass::kPair                   \
  }

// Written from the MPI standard's list of predefined datatypes and the C type
// each one corresponds to (Fortran types: the gfortran defaults).
const std::vector<Expected>& expected_types() {
  static const std::vector<Expected> types = {
      BASIC(MPI_CHAR, char, kChar),
      BASIC(MPI_SHORT, short, kInteger),
      BASIC(MPI_INT, int, kInteger),
      BASIC(MPI_LONG, long, kInteger),
      BASIC(MPI_LONG_LONG, long long, kInteger),
      BASIC(MPI_SIGNED_CHAR, signed char, kInteger),
      BASIC(MPI_UNSIGNED_CHAR, unsigned char, kUnsigned),
      BASIC(MPI_UNSIGNED_SHORT, unsigned short, kUnsigned),
      BASIC(MPI_UNSIGNED, unsigned, kUnsigned),
      BASIC(MPI_UNSIGNED_LONG, unsigned long, kUnsigned),
      BASIC(MPI_UNSIGNED_LONG_LONG, unsigned long long, kUnsigned),
      BASIC(MPI_FLOAT, float, kFloat),
      BASIC(MPI_DOUBLE, double, kFloat),
      BASIC(MPI_LONG_DOUBLE, long double, kFloat),
      BASIC(MPI_WCHAR, wchar_t, kChar),
      BASIC(MPI_C_BOOL, bool, kLogical),
      BASIC(MPI_INT8_T, std::int8_t, kInteger),
      BASIC(MPI_INT16_T, std::int16_t, kInteger),
      BASIC(MPI_INT32_T, std::int32_t, kInteger),
      BASIC(MPI_INT64_T, std::int64_t, kInteger),
      BASIC(MPI_UINT8_T, std::uint8_t, kUnsigned),
      BASIC(MPI_UINT16_T, std::uint16_t, kUnsigned),
      BASIC(MPI_UINT32_T, std::uint32_t, kUnsigned),
      BASIC(MPI_UINT64_T, std::uint64_t, kUnsigned),
      BASIC(MPI_AINT, MPI_Aint, kFortranInteger),
      BASIC(MPI_COUNT, MPI_Count, kFortranInteger),
      BASIC(MPI_OFFSET, MPI_Offset, kFortranInteger),
      BASIC(MPI_C_FLOAT_COMPLEX, Cx<float>, kComplex),
      BASIC(MPI_C_DOUBLE_COMPLEX, Cx<double>, kComplex),
      BASIC(MPI_C_LONG_DOUBLE_COMPLEX, Cx<long double>, kComplex),
      BASIC(MPI_BYTE, unsigned char, kByte),
      BASIC(MPI_PACKED, unsigned char, kPacked),
      BASIC(MPI_CXX_BOOL, bool, kLogical),
      BASIC(MPI_CXX_FLOAT_COMPLEX, Cx<float>, kComplex),
      BASIC(MPI_CXX_DOUBLE_COMPLEX, Cx<double>, kComplex),
      BASIC(MPI_CXX_LONG_DOUBLE_COMPLEX, Cx<long double>, kComplex),
      BASIC(MPI_INTEGER, int, kFortranInteger),
      BASIC(MPI_REAL, float, kFloat),
      BASIC(MPI_DOUBLE_PRECISION, double, kFloat),
      BASIC(MPI_COMPLEX, Cx<float>, kComplex),
      BASIC(MPI_DOUBLE_COMPLEX, Cx<double>, kComplex),
      BASIC(MPI_LOGICAL, int, kLogical),
      BASIC(MPI_CHARACTER, char, kChar),
      BASIC(MPI_INTEGER1, std::int8_t, kFortranInteger),
      BASIC(MPI_INTEGER2, std::int16_t, kFortranInteger),
      BASIC(MPI_INTEGER4, std::int32_t, kFortranInteger),
      BASIC(MPI_INTEGER8, std::int64_t, kFortranInteger),
      BASIC(MPI_INTEGER16, Int128, kFortranInteger),
      Expected{MPI_REAL2, "MPI_REAL2", 2, 2, 2, TypeClass::kOpaque},
      BASIC(MPI_REAL4, float, kFloat),
      BASIC(MPI_REAL8, double, kFloat),
      BASIC(MPI_REAL16, Quad, kFloat),
      Expected{MPI_COMPLEX4, "MPI_COMPLEX4", 4, 4, 2, TypeClass::kOpaque},
      BASIC(MPI_COMPLEX8, Cx<float>, kComplex),
      BASIC(MPI_COMPLEX16, Cx<double>, kComplex),
      BASIC(MPI_COMPLEX32, Cx<Quad>, kComplex),
      PAIR(MPI_FLOAT_INT, float, int),
      PAIR(MPI_DOUBLE_INT, double, int),
      PAIR(MPI_LONG_INT, long, int),
      PAIR(MPI_2INT, int, int),
      PAIR(MPI_SHORT_INT, short, int),
      PAIR(MPI_LONG_DOUBLE_INT, long double, int),
      PAIR(MPI_2REAL, float, float),
      PAIR(MPI_2DOUBLE_PRECISION, double, double),
      PAIR(MPI_2INTEGER, int, int),
  };
  return types;
}

TEST(Predefined, EveryTypeHasTheSizeExtentAndAlignmentOfItsCType) {
  for (const Expected& e : expected_types()) {
    SCOPED_TRACE(e.name);
    const BasicType* type = find_predefined(value_of(e.handle));
    ASSERT_NE(type, nullptr);
    EXPECT_STREQ(type->name, e.name);
    EXPECT_EQ(type->id, value_of(e.handle));
    EXPECT_EQ(type->size, e.size);
    EXPECT_EQ(type->extent, e.extent);
    EXPECT_EQ(type->alignment, e.alignment);
    EXPECT_EQ(type->cls, e.cls);
  }
  EXPECT_EQ(predefined_types().size(), expected_types().size());
}

TEST(Predefined, PairTypesKeepTheirCStructPadding) {
  const BasicType* double_int = find_predefined(value_of(MPI_DOUBLE_INT));
  ASSERT_NE(double_int, nullptr);
  EXPECT_EQ(double_int->size, 12U);
  EXPECT_EQ(double_int->extent, 16);
  const BasicType* short_int = find_predefined(value_of(MPI_SHORT_INT));
  ASSERT_NE(short_int, nullptr);
  EXPECT_EQ(short_int->size, 6U);
  EXPECT_EQ(short_int->extent, 8);
  const BasicType* long_double_int =
      find_predefined(value_of(MPI_LONG_DOUBLE_INT));
  ASSERT_NE(long_double_int, nullptr);
  EXPECT_EQ(long_double_int->size, 20U);
  EXPECT_EQ(long_double_int->extent, 32);
}

// Exactly the four pairs whose C struct pads are padded(): their packed
// form (the data) is not their memory form.
TEST(Predefined, OnlyFourPairTypesArePadded) {
  std::set<std::uint16_t> expected = {
      static_cast<std::uint16_t>(value_of(MPI_DOUBLE_INT)),
      static_cast<std::uint16_t>(value_of(MPI_LONG_INT)),
      static_cast<std::uint16_t>(value_of(MPI_SHORT_INT)),
      static_cast<std::uint16_t>(value_of(MPI_LONG_DOUBLE_INT))};
  std::set<std::uint16_t> found;
  for (const BasicType& type : predefined_types()) {
    if (padded(type)) {
      found.insert(type.id);
    }
  }
  EXPECT_EQ(found, expected);
}

TEST(Predefined, AliasesFindTheirTarget) {
  EXPECT_EQ(find_predefined(value_of(MPI_LONG_LONG_INT)),
            find_predefined(value_of(MPI_LONG_LONG)));
  EXPECT_EQ(find_predefined(value_of(MPI_C_COMPLEX)),
            find_predefined(value_of(MPI_C_FLOAT_COMPLEX)));
}

TEST(Predefined, NonPredefinedValuesAreNotFound) {
  EXPECT_EQ(find_predefined(value_of(MPI_DATATYPE_NULL)), nullptr);
  EXPECT_EQ(find_predefined(0), nullptr);
  EXPECT_EQ(find_predefined(reinterpret_cast<std::uintptr_t>(MPI_COMM_WORLD)),
            nullptr);
  EXPECT_EQ(find_predefined(reinterpret_cast<std::uintptr_t>(MPI_SUM)),
            nullptr);
  EXPECT_EQ(find_predefined(0x3ff), nullptr);
  EXPECT_EQ(find_predefined(0x400), nullptr);
  int object = 0;  // a derived type's handle is a pointer to an object
  EXPECT_EQ(find_predefined(reinterpret_cast<std::uintptr_t>(&object)),
            nullptr);
  EXPECT_EQ(find_predefined(~std::uintptr_t{0}), nullptr);
}

TEST(Predefined, TableHasDistinctHandlesAndCoherentSizes) {
  std::set<std::uint16_t> ids;
  for (const BasicType& type : predefined_types()) {
    SCOPED_TRACE(type.name);
    EXPECT_TRUE(ids.insert(type.id).second);
    EXPECT_EQ(find_predefined(type.id), &type);
    EXPECT_GE(type.extent, static_cast<std::int64_t>(type.size));
    EXPECT_EQ(type.extent % type.alignment, 0);
    if (type.cls != TypeClass::kPair) {
      EXPECT_EQ(type.extent, static_cast<std::int64_t>(type.size));
    }
  }
}

// mpi.h may gain datatypes: read it and check that every handle of type
// MPI_Datatype it defines (and every alias of one) is in the table.
TEST(Predefined, EveryDatatypeDefinedInMpiHIsFound) {
  std::ifstream file(SHMPI_MPI_H_PATH);
  ASSERT_TRUE(file) << "cannot read " << SHMPI_MPI_H_PATH;
  std::stringstream text;
  text << file.rdbuf();
  const std::string header = text.str();

  const std::regex handle_re(
      R"(#define\s+(MPI\w*)\s+SHMPI_HANDLE\(\s*MPI_Datatype\s*,\s*(0x[0-9a-fA-F]+|\d+)\s*\))");
  std::map<std::string, std::uintptr_t> values;
  for (std::sregex_iterator it(header.begin(), header.end(), handle_re), end;
       it != end; ++it) {
    values[(*it)[1]] = std::stoul((*it)[2], nullptr, 0);
  }
  ASSERT_GT(values.size(), 60U)
      << "mpi.h no longer spells handles SHMPI_HANDLE(MPI_Datatype, v)";

  const std::regex alias_re(R"(#define\s+(MPI\w*)\s+(MPI\w*)\s*\n)");
  std::map<std::string, std::string> aliases;
  for (std::sregex_iterator it(header.begin(), header.end(), alias_re), end;
       it != end; ++it) {
    if (values.count((*it)[2]) != 0) {
      aliases[(*it)[1]] = (*it)[2];
    }
  }

  for (const auto& [name, value] : values) {
    SCOPED_TRACE(name);
    if (name == "MPI_DATATYPE_NULL") {
      EXPECT_EQ(find_predefined(value), nullptr);
      continue;
    }
    const BasicType* type = find_predefined(value);
    ASSERT_NE(type, nullptr);
    EXPECT_EQ(type->name, name);
  }
  for (const auto& [alias, target] : aliases) {
    SCOPED_TRACE(alias);
    EXPECT_NE(find_predefined(values[target]), nullptr);
  }
  EXPECT_EQ(values.size() - 1, predefined_types().size());
}

}  // namespace
}  // namespace shmpi::datatype
