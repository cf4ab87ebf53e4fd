// SPDX-License-Identifier: MIT
// The predefined reduction operations: the op/type validity table of
// MPI-4.0 §6.9.2, and every valid (op, type) pair against a scalar reference
// for counts around every vector width, on aligned and misaligned buffers.
#include "datatype/reduce_ops.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "datatype/predefined.hpp"

namespace shmpi::datatype {
namespace {

__extension__ using Int128 = __int128;
__extension__ using Uint128 = unsigned __int128;
__extension__ using Quad = __float128;

template <typename F>
struct Cx {
  F re;
  F im;
  bool operator==(const Cx&) const = default;
};

template <typename T>
inline constexpr bool kIsCx = false;
template <typename F>
inline constexpr bool kIsCx<Cx<F>> = true;

template <typename T>
inline constexpr bool kIsReal =
    std::is_floating_point_v<T> || std::is_same_v<T, Quad>;

std::uintptr_t value_of(MPI_Datatype handle) {
  return reinterpret_cast<std::uintptr_t>(handle);
}
std::uintptr_t value_of(MPI_Op handle) {
  return reinterpret_cast<std::uintptr_t>(handle);
}

constexpr std::array kReductionOps = {
    OpKind::kMax,  OpKind::kMin,  OpKind::kSum,    OpKind::kProd,
    OpKind::kLand, OpKind::kBand, OpKind::kLor,    OpKind::kBor,
    OpKind::kLxor, OpKind::kBxor, OpKind::kMaxloc, OpKind::kMinloc,
};

// Counts below, at and above every vector width (16 and 32 bytes, unrolled),
// so that both the vector body and the scalar remainder run.
std::vector<std::size_t> test_counts() {
  std::vector<std::size_t> counts;
  for (std::size_t n = 0; n <= 40; ++n) {
    counts.push_back(n);
  }
  for (std::size_t n : {63, 64, 65, 127, 128, 129, 255, 256, 257, 1000, 1001}) {
    counts.push_back(n);
  }
  return counts;
}

TEST(OpFromHandle, MapsEveryPredefinedOp) {
  EXPECT_EQ(op_from_handle(value_of(MPI_MAX)), OpKind::kMax);
  EXPECT_EQ(op_from_handle(value_of(MPI_MIN)), OpKind::kMin);
  EXPECT_EQ(op_from_handle(value_of(MPI_SUM)), OpKind::kSum);
  EXPECT_EQ(op_from_handle(value_of(MPI_PROD)), OpKind::kProd);
  EXPECT_EQ(op_from_handle(value_of(MPI_LAND)), OpKind::kLand);
  EXPECT_EQ(op_from_handle(value_of(MPI_BAND)), OpKind::kBand);
  EXPECT_EQ(op_from_handle(value_of(MPI_LOR)), OpKind::kLor);
  EXPECT_EQ(op_from_handle(value_of(MPI_BOR)), OpKind::kBor);
  EXPECT_EQ(op_from_handle(value_of(MPI_LXOR)), OpKind::kLxor);
  EXPECT_EQ(op_from_handle(value_of(MPI_BXOR)), OpKind::kBxor);
  EXPECT_EQ(op_from_handle(value_of(MPI_MAXLOC)), OpKind::kMaxloc);
  EXPECT_EQ(op_from_handle(value_of(MPI_MINLOC)), OpKind::kMinloc);
  EXPECT_EQ(op_from_handle(value_of(MPI_REPLACE)), OpKind::kReplace);
  EXPECT_EQ(op_from_handle(value_of(MPI_NO_OP)), OpKind::kNoOp);
}

TEST(OpFromHandle, OtherValuesAreInvalid) {
  EXPECT_EQ(op_from_handle(value_of(MPI_OP_NULL)), OpKind::kInvalid);
  EXPECT_EQ(op_from_handle(0), OpKind::kInvalid);
  EXPECT_EQ(op_from_handle(value_of(MPI_INT)), OpKind::kInvalid);
  int object = 0;  // a user-defined op's handle points to an object
  EXPECT_EQ(op_from_handle(reinterpret_cast<std::uintptr_t>(&object)),
            OpKind::kInvalid);
  EXPECT_STREQ(op_name(OpKind::kInvalid), "MPI_OP_NULL");
  EXPECT_STREQ(op_name(OpKind::kMaxloc), "MPI_MAXLOC");
}

// The categories of MPI-4.0 §6.9.2, written out by handle. MPI_REAL2 and
// MPI_COMPLEX4 are "if available" types this implementation has no arithmetic
// for, so they belong to no category.
const std::set<std::uintptr_t>& c_integer() {
  static const std::set<std::uintptr_t> set = {value_of(MPI_INT),
                                               value_of(MPI_LONG),
                                               value_of(MPI_SHORT),
                                               value_of(MPI_UNSIGNED_SHORT),
                                               value_of(MPI_UNSIGNED),
                                               value_of(MPI_UNSIGNED_LONG),
                                               value_of(MPI_LONG_LONG_INT),
                                               value_of(MPI_LONG_LONG),
                                               value_of(MPI_UNSIGNED_LONG_LONG),
                                               value_of(MPI_SIGNED_CHAR),
                                               value_of(MPI_UNSIGNED_CHAR),
                                               value_of(MPI_INT8_T),
                                               value_of(MPI_INT16_T),
                                               value_of(MPI_INT32_T),
                                               value_of(MPI_INT64_T),
                                               value_of(MPI_UINT8_T),
                                               value_of(MPI_UINT16_T),
                                               value_of(MPI_UINT32_T),
                                               value_of(MPI_UINT64_T)};
  return set;
}
const std::set<std::uintptr_t>& fortran_integer() {
  static const std::set<std::uintptr_t> set = {
      value_of(MPI_INTEGER),  value_of(MPI_AINT),     value_of(MPI_OFFSET),
      value_of(MPI_COUNT),    value_of(MPI_INTEGER1), value_of(MPI_INTEGER2),
      value_of(MPI_INTEGER4), value_of(MPI_INTEGER8), value_of(MPI_INTEGER16)};
  return set;
}
const std::set<std::uintptr_t>& floating_point() {
  static const std::set<std::uintptr_t> set = {
      value_of(MPI_FLOAT),       value_of(MPI_DOUBLE),
      value_of(MPI_REAL),        value_of(MPI_DOUBLE_PRECISION),
      value_of(MPI_LONG_DOUBLE), value_of(MPI_REAL4),
      value_of(MPI_REAL8),       value_of(MPI_REAL16)};
  return set;
}
const std::set<std::uintptr_t>& logical() {
  static const std::set<std::uintptr_t> set = {
      value_of(MPI_LOGICAL), value_of(MPI_C_BOOL), value_of(MPI_CXX_BOOL)};
  return set;
}
const std::set<std::uintptr_t>& complex() {
  static const std::set<std::uintptr_t> set = {
      value_of(MPI_COMPLEX),
      value_of(MPI_C_COMPLEX),
      value_of(MPI_C_FLOAT_COMPLEX),
      value_of(MPI_C_DOUBLE_COMPLEX),
      value_of(MPI_C_LONG_DOUBLE_COMPLEX),
      value_of(MPI_CXX_FLOAT_COMPLEX),
      value_of(MPI_CXX_DOUBLE_COMPLEX),
      value_of(MPI_CXX_LONG_DOUBLE_COMPLEX),
      value_of(MPI_DOUBLE_COMPLEX),
      value_of(MPI_COMPLEX8),
      value_of(MPI_COMPLEX16),
      value_of(MPI_COMPLEX32)};
  return set;
}
const std::set<std::uintptr_t>& byte() {
  static const std::set<std::uintptr_t> set = {value_of(MPI_BYTE)};
  return set;
}
const std::set<std::uintptr_t>& pairs() {
  static const std::set<std::uintptr_t> set = {
      value_of(MPI_FLOAT_INT), value_of(MPI_DOUBLE_INT),
      value_of(MPI_LONG_INT),  value_of(MPI_2INT),
      value_of(MPI_SHORT_INT), value_of(MPI_LONG_DOUBLE_INT),
      value_of(MPI_2REAL),     value_of(MPI_2DOUBLE_PRECISION),
      value_of(MPI_2INTEGER)};
  return set;
}

bool standard_allows(OpKind op, std::uintptr_t type) {
  const auto in = [type](const std::set<std::uintptr_t>& set) {
    return set.count(type) != 0;
  };
  switch (op) {
    case OpKind::kMax:
    case OpKind::kMin:
      return in(c_integer()) || in(fortran_integer()) || in(floating_point());
    case OpKind::kSum:
    case OpKind::kProd:
      return in(c_integer()) || in(fortran_integer()) || in(floating_point()) ||
             in(complex());
    case OpKind::kLand:
    case OpKind::kLor:
    case OpKind::kLxor:
      return in(c_integer()) || in(logical());
    case OpKind::kBand:
    case OpKind::kBor:
    case OpKind::kBxor:
      return in(c_integer()) || in(fortran_integer()) || in(byte());
    case OpKind::kMaxloc:
    case OpKind::kMinloc:
      return in(pairs());
    default:
      return false;
  }
}

TEST(CheckOpType, FollowsTheStandardTableForEveryTypeAndOp) {
  for (const BasicType& type : predefined_types()) {
    for (OpKind op : kReductionOps) {
      SCOPED_TRACE(std::string(op_name(op)) + " on " + type.name);
      EXPECT_EQ(check_op_type(op, type),
                standard_allows(op, type.id) ? MPI_SUCCESS : MPI_ERR_OP);
    }
  }
}

TEST(CheckOpType, ReplaceAndNoOpAreForAccumulateOnly) {
  for (const BasicType& type : predefined_types()) {
    SCOPED_TRACE(type.name);
    EXPECT_EQ(check_op_type(OpKind::kReplace, type), MPI_ERR_OP);
    EXPECT_EQ(check_op_type(OpKind::kNoOp, type), MPI_ERR_OP);
    EXPECT_EQ(check_op_type(OpKind::kInvalid, type), MPI_ERR_OP);
    EXPECT_EQ(check_accumulate_op_type(OpKind::kReplace, type), MPI_SUCCESS);
    EXPECT_EQ(check_accumulate_op_type(OpKind::kNoOp, type), MPI_SUCCESS);
    EXPECT_EQ(check_accumulate_op_type(OpKind::kInvalid, type), MPI_ERR_OP);
    for (OpKind op : kReductionOps) {
      EXPECT_EQ(check_accumulate_op_type(op, type), check_op_type(op, type));
    }
  }
}

TEST(CheckOpType, CharactersPackedAndUnsupportedSizesTakeNoOp) {
  for (MPI_Datatype handle : {MPI_CHAR, MPI_WCHAR, MPI_CHARACTER, MPI_PACKED,
                              MPI_REAL2, MPI_COMPLEX4}) {
    const BasicType* type = find_predefined(value_of(handle));
    ASSERT_NE(type, nullptr);
    for (OpKind op : kReductionOps) {
      EXPECT_EQ(check_op_type(op, *type), MPI_ERR_OP)
          << op_name(op) << " on " << type->name;
    }
  }
}

// ---- Scalar reference ------------------------------------------------------

template <typename T>
T random_value(std::mt19937_64& rng) {
  if constexpr (std::is_same_v<T, bool>) {
    return (rng() & 1U) != 0;
  } else if constexpr (kIsCx<T>) {
    using F = decltype(T::re);
    return T{random_value<F>(rng), random_value<F>(rng)};
  } else if constexpr (kIsReal<T>) {
    // Halves in [-10, 10]: every sum and product of two is exact, so the
    // reference and the kernels agree bit for bit whatever the instruction.
    return static_cast<T>(static_cast<int>(rng() % 41) - 20) / 2;
  } else {
    // Zeros and ones exercise the logical operations; the rest is any bits.
    switch (rng() % 4) {
      case 0:
        return T{0};
      case 1:
        return T{1};
      default:
        return static_cast<T>((static_cast<Uint128>(rng()) << 64U) | rng());
    }
  }
}

template <typename T>
T reference(OpKind op, T a, T b) {
  if constexpr (kIsCx<T>) {
    if (op == OpKind::kSum) {
      return T{a.re + b.re, a.im + b.im};
    }
    return T{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  } else if constexpr (kIsReal<T>) {
    switch (op) {
      case OpKind::kMax:
        return b < a ? a : b;
      case OpKind::kMin:
        return a < b ? a : b;
      case OpKind::kSum:
        return a + b;
      default:
        return a * b;
    }
  } else {
    // Integers: compute modulo 2^128 and keep the low bits, which is what
    // two's complement wrap-around means for every narrower type.
    const auto ua = static_cast<Uint128>(a);
    const auto ub = static_cast<Uint128>(b);
    const bool la = a != T{0};
    const bool lb = b != T{0};
    switch (op) {
      case OpKind::kMax:
        return b < a ? a : b;
      case OpKind::kMin:
        return a < b ? a : b;
      case OpKind::kSum:
        return static_cast<T>(ua + ub);
      case OpKind::kProd:
        return static_cast<T>(ua * ub);
      case OpKind::kLand:
        return static_cast<T>(la && lb);
      case OpKind::kLor:
        return static_cast<T>(la || lb);
      case OpKind::kLxor:
        return static_cast<T>(la != lb);
      case OpKind::kBand:
        return static_cast<T>(ua & ub);
      case OpKind::kBor:
        return static_cast<T>(ua | ub);
      case OpKind::kBxor:
        return static_cast<T>(ua ^ ub);
      default:
        ADD_FAILURE() << "no reference for " << op_name(op);
        return a;
    }
  }
}

// An array of T that, unlike std::vector<bool>, stores bool as bytes.
template <typename T>
struct Array {
  explicit Array(std::size_t n) : size(n), data(std::make_unique<T[]>(n)) {}
  std::size_t size;
  std::unique_ptr<T[]> data;
};

// Runs reduce() on copies of in/inout placed `offset` bytes into byte buffers
// (offset 1 makes every multi-byte type misaligned).
template <typename T>
Array<T> run_reduce(OpKind op, const BasicType& type, const Array<T>& in,
                    const Array<T>& inout, std::size_t offset) {
  const std::size_t bytes = in.size * sizeof(T);
  // vector<std::byte> storage comes from operator new: aligned for any T.
  std::vector<std::byte> in_buf(bytes + offset + 1);
  std::vector<std::byte> inout_buf(bytes + offset + 1);
  if (bytes != 0) {
    std::memcpy(in_buf.data() + offset, in.data.get(), bytes);
    std::memcpy(inout_buf.data() + offset, inout.data.get(), bytes);
  }
  reduce(op, type, in_buf.data() + offset, inout_buf.data() + offset, in.size);
  Array<T> out(in.size);
  if (bytes != 0) {
    std::memcpy(out.data.get(), inout_buf.data() + offset, bytes);
  }
  return out;
}

template <typename T>
void check_type(MPI_Datatype handle) {
  const BasicType* type = find_predefined(value_of(handle));
  ASSERT_NE(type, nullptr);
  ASSERT_EQ(static_cast<std::int64_t>(sizeof(T)), type->extent) << type->name;
  std::mt19937_64 rng(type->id);
  int ops_run = 0;
  for (OpKind op : kReductionOps) {
    if (check_op_type(op, *type) != MPI_SUCCESS) {
      continue;
    }
    ++ops_run;
    for (std::size_t count : test_counts()) {
      Array<T> in(count);
      Array<T> inout(count);
      Array<T> expected(count);
      for (std::size_t i = 0; i < count; ++i) {
        in.data[i] = random_value<T>(rng);
        inout.data[i] = random_value<T>(rng);
        expected.data[i] = reference(op, in.data[i], inout.data[i]);
      }
      for (std::size_t offset : {0, 1}) {
        const Array<T> got = run_reduce(op, *type, in, inout, offset);
        for (std::size_t i = 0; i < count; ++i) {
          if (!(got.data[i] == expected.data[i])) {
            ADD_FAILURE() << op_name(op) << " on " << type->name << ": count "
                          << count << ", offset " << offset
                          << ", first wrong element " << i;
            break;
          }
        }
      }
    }
  }
  EXPECT_GT(ops_run, 0) << type->name;
}

template <typename V, typename I>
struct Pair {
  V value;
  I index;
};

// MAXLOC/MINLOC: expected bytes computed from the definition, with 0xa5 in
// every padding byte of inout, which must survive.
template <typename V, typename I>
void check_pair(MPI_Datatype handle) {
  using P = Pair<V, I>;
  constexpr std::size_t kIndexOffset = offsetof(P, index);
  const BasicType* type = find_predefined(value_of(handle));
  ASSERT_NE(type, nullptr);
  ASSERT_EQ(static_cast<std::int64_t>(sizeof(P)), type->extent) << type->name;
  std::mt19937_64 rng(type->id);
  for (OpKind op : {OpKind::kMaxloc, OpKind::kMinloc}) {
    ASSERT_EQ(check_op_type(op, *type), MPI_SUCCESS);
    for (std::size_t count : test_counts()) {
      std::vector<std::byte> in(count * sizeof(P) + 1, std::byte{0x5a});
      std::vector<std::byte> inout(count * sizeof(P) + 1, std::byte{0xa5});
      for (std::size_t i = 0; i < count; ++i) {
        // Few distinct values and indices, so that ties are frequent.
        const auto put = [&](std::vector<std::byte>& buf) {
          const V value = static_cast<V>(rng() % 4);
          const I index = static_cast<I>(rng() % 8);
          std::memcpy(buf.data() + i * sizeof(P), &value, sizeof(V));
          std::memcpy(buf.data() + i * sizeof(P) + kIndexOffset, &index,
                      sizeof(I));
        };
        put(in);
        put(inout);
      }
      std::vector<std::byte> expected = inout;
      for (std::size_t i = 0; i < count; ++i) {
        V a_value;
        V b_value;
        I a_index;
        I b_index;
        std::memcpy(&a_value, in.data() + i * sizeof(P), sizeof(V));
        std::memcpy(&b_value, inout.data() + i * sizeof(P), sizeof(V));
        std::memcpy(&a_index, in.data() + i * sizeof(P) + kIndexOffset,
                    sizeof(I));
        std::memcpy(&b_index, inout.data() + i * sizeof(P) + kIndexOffset,
                    sizeof(I));
        const bool in_better =
            op == OpKind::kMaxloc ? b_value < a_value : a_value < b_value;
        const bool tie = !(a_value < b_value) && !(b_value < a_value);
        if (in_better || (tie && a_index < b_index)) {
          std::memcpy(expected.data() + i * sizeof(P), &a_value, sizeof(V));
          std::memcpy(expected.data() + i * sizeof(P) + kIndexOffset, &a_index,
                      sizeof(I));
        }
      }
      reduce(op, *type, in.data(), inout.data(), count);
      ASSERT_EQ(inout, expected)
          << op_name(op) << " on " << type->name << ": count " << count;
    }
  }
}

struct Runner {
  MPI_Datatype handle;
  void (*run)(MPI_Datatype);
};

// Each predefined type with at least one valid operation, with its C type.
const std::vector<Runner>& runners() {
  static const std::vector<Runner> list = {
      {MPI_SHORT, &check_type<short>},
      {MPI_INT, &check_type<int>},
      {MPI_LONG, &check_type<long>},
      {MPI_LONG_LONG, &check_type<long long>},
      {MPI_SIGNED_CHAR, &check_type<signed char>},
      {MPI_UNSIGNED_CHAR, &check_type<unsigned char>},
      {MPI_UNSIGNED_SHORT, &check_type<unsigned short>},
      {MPI_UNSIGNED, &check_type<unsigned>},
      {MPI_UNSIGNED_LONG, &check_type<unsigned long>},
      {MPI_UNSIGNED_LONG_LONG, &check_type<unsigned long long>},
      {MPI_INT8_T, &check_type<std::int8_t>},
      {MPI_INT16_T, &check_type<std::int16_t>},
      {MPI_INT32_T, &check_type<std::int32_t>},
      {MPI_INT64_T, &check_type<std::int64_t>},
      {MPI_UINT8_T, &check_type<std::uint8_t>},
      {MPI_UINT16_T, &check_type<std::uint16_t>},
      {MPI_UINT32_T, &check_type<std::uint32_t>},
      {MPI_UINT64_T, &check_type<std::uint64_t>},
      {MPI_AINT, &check_type<MPI_Aint>},
      {MPI_COUNT, &check_type<MPI_Count>},
      {MPI_OFFSET, &check_type<MPI_Offset>},
      {MPI_INTEGER, &check_type<int>},
      {MPI_INTEGER1, &check_type<std::int8_t>},
      {MPI_INTEGER2, &check_type<std::int16_t>},
      {MPI_INTEGER4, &check_type<std::int32_t>},
      {MPI_INTEGER8, &check_type<std::int64_t>},
      {MPI_INTEGER16, &check_type<Int128>},
      {MPI_FLOAT, &check_type<float>},
      {MPI_DOUBLE, &check_type<double>},
      {MPI_LONG_DOUBLE, &check_type<long double>},
      {MPI_REAL, &check_type<float>},
      {MPI_DOUBLE_PRECISION, &check_type<double>},
      {MPI_REAL4, &check_type<float>},
      {MPI_REAL8, &check_type<double>},
      {MPI_REAL16, &check_type<Quad>},
      {MPI_C_FLOAT_COMPLEX, &check_type<Cx<float>>},
      {MPI_C_DOUBLE_COMPLEX, &check_type<Cx<double>>},
      {MPI_C_LONG_DOUBLE_COMPLEX, &check_type<Cx<long double>>},
      {MPI_CXX_FLOAT_COMPLEX, &check_type<Cx<float>>},
      {MPI_CXX_DOUBLE_COMPLEX, &check_type<Cx<double>>},
      {MPI_CXX_LONG_DOUBLE_COMPLEX, &check_type<Cx<long double>>},
      {MPI_COMPLEX, &check_type<Cx<float>>},
      {MPI_DOUBLE_COMPLEX, &check_type<Cx<double>>},
      {MPI_COMPLEX8, &check_type<Cx<float>>},
      {MPI_COMPLEX16, &check_type<Cx<double>>},
      {MPI_COMPLEX32, &check_type<Cx<Quad>>},
      {MPI_LOGICAL, &check_type<int>},
      {MPI_C_BOOL, &check_type<bool>},
      {MPI_CXX_BOOL, &check_type<bool>},
      {MPI_BYTE, &check_type<unsigned char>},
      {MPI_FLOAT_INT, &check_pair<float, int>},
      {MPI_DOUBLE_INT, &check_pair<double, int>},
      {MPI_LONG_INT, &check_pair<long, int>},
      {MPI_2INT, &check_pair<int, int>},
      {MPI_SHORT_INT, &check_pair<short, int>},
      {MPI_LONG_DOUBLE_INT, &check_pair<long double, int>},
      {MPI_2REAL, &check_pair<float, float>},
      {MPI_2DOUBLE_PRECISION, &check_pair<double, double>},
      {MPI_2INTEGER, &check_pair<int, int>},
  };
  return list;
}

TEST(Reduce, RunnersCoverEveryTypeThatTakesAnOp) {
  std::set<std::uintptr_t> covered;
  for (const Runner& runner : runners()) {
    covered.insert(value_of(runner.handle));
  }
  for (const BasicType& type : predefined_types()) {
    bool takes_an_op = false;
    for (OpKind op : kReductionOps) {
      takes_an_op = takes_an_op || check_op_type(op, type) == MPI_SUCCESS;
    }
    EXPECT_EQ(takes_an_op, covered.count(type.id) != 0) << type.name;
  }
}

TEST(Reduce, EveryValidOpOnEveryTypeMatchesScalarReference) {
  for (const Runner& runner : runners()) {
    runner.run(runner.handle);
  }
}

TEST(Reduce, LogicalOpsTreatAnyNonzeroAsTrueAndYieldZeroOrOne) {
  const BasicType* logical = find_predefined(value_of(MPI_LOGICAL));
  ASSERT_NE(logical, nullptr);
  const std::array<int, 4> in = {2, 0, -1, 0};
  std::array<int, 4> inout = {-7, 5, 0, 0};
  reduce(OpKind::kLand, *logical, in.data(), inout.data(), in.size());
  EXPECT_EQ(inout, (std::array<int, 4>{1, 0, 0, 0}));
  inout = {-7, 5, 0, 0};
  reduce(OpKind::kLor, *logical, in.data(), inout.data(), in.size());
  EXPECT_EQ(inout, (std::array<int, 4>{1, 1, 1, 0}));
  inout = {-7, 5, 0, 0};
  reduce(OpKind::kLxor, *logical, in.data(), inout.data(), in.size());
  EXPECT_EQ(inout, (std::array<int, 4>{0, 1, 1, 0}));
}

TEST(Reduce, SignedSumWrapsAround) {
  const BasicType* int_type = find_predefined(value_of(MPI_INT));
  ASSERT_NE(int_type, nullptr);
  const std::array<int, 1> in = {INT32_MAX};
  std::array<int, 1> inout = {1};
  reduce(OpKind::kSum, *int_type, in.data(), inout.data(), 1);
  EXPECT_EQ(inout[0], INT32_MIN);
}

TEST(Reduce, ComplexProductUsesComplexMultiplication) {
  const BasicType* type = find_predefined(value_of(MPI_C_DOUBLE_COMPLEX));
  ASSERT_NE(type, nullptr);
  const std::array<Cx<double>, 1> in = {{{1.0, 2.0}}};
  std::array<Cx<double>, 1> inout = {{{3.0, -1.0}}};
  reduce(OpKind::kProd, *type, in.data(), inout.data(),
         1);  // (1+2i)(3-i) = 5+5i
  EXPECT_EQ(inout[0], (Cx<double>{5.0, 5.0}));
}

TEST(Reduce, MaxlocAndMinlocTakeTheSmallerIndexOnTies) {
  const BasicType* type = find_predefined(value_of(MPI_DOUBLE_INT));
  ASSERT_NE(type, nullptr);
  using P = Pair<double, int>;
  const std::array<P, 4> in = {{{5.0, 3}, {5.0, 1}, {7.0, 9}, {2.0, 9}}};
  std::array<P, 4> inout = {{{5.0, 1}, {5.0, 3}, {5.0, 0}, {5.0, 0}}};
  reduce(OpKind::kMaxloc, *type, in.data(), inout.data(), in.size());
  EXPECT_EQ(inout[0].index, 1);
  EXPECT_EQ(inout[1].index, 1);
  EXPECT_EQ(inout[2].value, 7.0);
  EXPECT_EQ(inout[2].index, 9);
  EXPECT_EQ(inout[3].value, 5.0);
  EXPECT_EQ(inout[3].index, 0);

  inout = {{{5.0, 1}, {5.0, 3}, {5.0, 0}, {5.0, 0}}};
  reduce(OpKind::kMinloc, *type, in.data(), inout.data(), in.size());
  EXPECT_EQ(inout[0].index, 1);
  EXPECT_EQ(inout[1].index, 1);
  EXPECT_EQ(inout[2].value, 5.0);
  EXPECT_EQ(inout[2].index, 0);
  EXPECT_EQ(inout[3].value, 2.0);
  EXPECT_EQ(inout[3].index, 9);
}

TEST(Reduce, ReplaceCopiesWithoutTouchingTrailingPadding) {
  for (const BasicType& type : predefined_types()) {
    SCOPED_TRACE(type.name);
    constexpr std::size_t kCount = 5;
    const auto extent = static_cast<std::size_t>(type.extent);
    std::vector<std::byte> in(kCount * extent);
    for (std::size_t i = 0; i < in.size(); ++i) {
      in[i] = static_cast<std::byte>(i * 7 + 1);
    }
    std::vector<std::byte> inout(kCount * extent, std::byte{0xa5});
    reduce(OpKind::kReplace, type, in.data(), inout.data(), kCount);
    // Everything up to the last element's data is copied; a pair type's tail
    // padding (4 bytes for MPI_DOUBLE_INT) after the last element is not.
    const std::size_t tail =
        type.cls == TypeClass::kPair ? extent - type.size : 0;
    const std::size_t copied =
        kCount * extent - (type.id == value_of(MPI_SHORT_INT) ? 0 : tail);
    EXPECT_EQ(std::memcmp(inout.data(), in.data(), copied), 0);
    for (std::size_t i = copied; i < inout.size(); ++i) {
      EXPECT_EQ(inout[i], std::byte{0xa5}) << "byte " << i;
    }

    std::vector<std::byte> unchanged = inout;
    reduce(OpKind::kNoOp, type, in.data(), inout.data(), kCount);
    EXPECT_EQ(inout, unchanged);
  }
}

TEST(Reduce, ZeroCountTouchesNothing) {
  for (const BasicType& type : predefined_types()) {
    for (OpKind op : kReductionOps) {
      if (check_op_type(op, type) == MPI_SUCCESS) {
        reduce(op, type, nullptr, nullptr, 0);
      }
    }
  }
}

}  // namespace
}  // namespace shmpi::datatype
