// SPDX-License-Identifier: MIT
// Reduction dispatch: one constant table of kernels indexed by (Scalar,
// OpKind), and the MPI-4.0 §6.9.2 table of which type classes each operation
// accepts.
#include "datatype/reduce_ops.hpp"

#include <mpi.h>

#include <array>
#include <cstring>
#include <type_traits>

#include "base/assert.hpp"
#include "datatype/detail/element_types.hpp"
#include "datatype/detail/kernels.hpp"
#include "datatype/type_map.hpp"

// mpi.h spells every predefined handle SHMPI_HANDLE(type, value), a cast that
// is not a constant expression. Macros expand where they are used, so from
// here on MPI_SUM means its integer value and can label a case.
#undef SHMPI_HANDLE
#define SHMPI_HANDLE(type, value) (value)

namespace shmpi::datatype {
namespace {

using detail::KernelFn;
using Row = std::array<KernelFn, kOpCount>;
using Table = std::array<Row, kScalarCount>;

constexpr std::size_t index_of(OpKind op) {
  return static_cast<std::size_t>(op);
}
constexpr std::size_t index_of(Scalar scalar) {
  return static_cast<std::size_t>(scalar);
}

template <typename T>
constexpr Row real_row() {
  Row row{};
  row[index_of(OpKind::kMax)] = &detail::kernel<detail::OpMax, T>;
  row[index_of(OpKind::kMin)] = &detail::kernel<detail::OpMin, T>;
  row[index_of(OpKind::kSum)] = &detail::kernel<detail::OpSum, T>;
  row[index_of(OpKind::kProd)] = &detail::kernel<detail::OpProd, T>;
  return row;
}

template <typename T>
constexpr Row integer_row() {
  Row row = real_row<T>();
  row[index_of(OpKind::kLand)] = &detail::kernel<detail::OpLand, T>;
  row[index_of(OpKind::kLor)] = &detail::kernel<detail::OpLor, T>;
  row[index_of(OpKind::kLxor)] = &detail::kernel<detail::OpLxor, T>;
  row[index_of(OpKind::kBand)] = &detail::kernel<detail::OpBand, T>;
  row[index_of(OpKind::kBor)] = &detail::kernel<detail::OpBor, T>;
  row[index_of(OpKind::kBxor)] = &detail::kernel<detail::OpBxor, T>;
  return row;
}

template <typename T>
constexpr Row complex_row() {
  Row row{};
  row[index_of(OpKind::kSum)] =
      &detail::kernel<detail::OpSum, detail::Complex<T>>;
  row[index_of(OpKind::kProd)] =
      &detail::kernel<detail::OpProd, detail::Complex<T>>;
  return row;
}

template <typename P>
constexpr Row pair_row() {
  Row row{};
  row[index_of(OpKind::kMaxloc)] = &detail::pair_kernel<P, true>;
  row[index_of(OpKind::kMinloc)] = &detail::pair_kernel<P, false>;
  return row;
}

constexpr Table make_kernel_table() {
  Table table{};
  table[index_of(Scalar::kInt8)] = integer_row<std::int8_t>();
  table[index_of(Scalar::kInt16)] = integer_row<std::int16_t>();
  table[index_of(Scalar::kInt32)] = integer_row<std::int32_t>();
  table[index_of(Scalar::kInt64)] = integer_row<std::int64_t>();
  table[index_of(Scalar::kInt128)] = integer_row<detail::Int128>();
  table[index_of(Scalar::kUint8)] = integer_row<std::uint8_t>();
  table[index_of(Scalar::kUint16)] = integer_row<std::uint16_t>();
  table[index_of(Scalar::kUint32)] = integer_row<std::uint32_t>();
  table[index_of(Scalar::kUint64)] = integer_row<std::uint64_t>();
  table[index_of(Scalar::kFloat)] = real_row<float>();
  table[index_of(Scalar::kDouble)] = real_row<double>();
  table[index_of(Scalar::kLongDouble)] = real_row<long double>();
  table[index_of(Scalar::kFloat128)] = real_row<detail::Float128>();
  table[index_of(Scalar::kComplexFloat)] = complex_row<float>();
  table[index_of(Scalar::kComplexDouble)] = complex_row<double>();
  table[index_of(Scalar::kComplexLongDouble)] = complex_row<long double>();
  table[index_of(Scalar::kComplexFloat128)] = complex_row<detail::Float128>();
  table[index_of(Scalar::kFloatInt)] = pair_row<detail::FloatInt>();
  table[index_of(Scalar::kDoubleInt)] = pair_row<detail::DoubleInt>();
  table[index_of(Scalar::kLongInt)] = pair_row<detail::LongInt>();
  table[index_of(Scalar::kIntInt)] = pair_row<detail::IntInt>();
  table[index_of(Scalar::kShortInt)] = pair_row<detail::ShortInt>();
  table[index_of(Scalar::kLongDoubleInt)] = pair_row<detail::LongDoubleInt>();
  table[index_of(Scalar::kFloatFloat)] = pair_row<detail::FloatFloat>();
  table[index_of(Scalar::kDoubleDouble)] = pair_row<detail::DoubleDouble>();
  return table;
}

constexpr Table kKernels = make_kernel_table();

// Bytes one element's data spans, excluding tail padding (MPI's true extent).
std::size_t true_extent(const BasicType& type) noexcept {
  return pair_fields(type).index_end;
}

// Which operation families a type class accepts (MPI-4.0 §6.9.2).
struct Accepts {
  bool min_max;
  bool sum_prod;
  bool logical;
  bool bitwise;
  bool loc;
};

constexpr Accepts accepts(TypeClass cls) {
  switch (cls) {
    case TypeClass::kInteger:
    case TypeClass::kUnsigned:
      return {true, true, true, true, false};
    case TypeClass::kFortranInteger:
      return {true, true, false, true, false};
    case TypeClass::kFloat:
      return {true, true, false, false, false};
    case TypeClass::kComplex:
      return {false, true, false, false, false};
    case TypeClass::kLogical:
      return {false, false, true, false, false};
    case TypeClass::kByte:
      return {false, false, false, true, false};
    case TypeClass::kPair:
      return {false, false, false, false, true};
    case TypeClass::kChar:
    case TypeClass::kPacked:
    case TypeClass::kOpaque:
      return {false, false, false, false, false};
  }
  return {false, false, false, false, false};
}

}  // namespace

OpKind op_from_handle(std::uintptr_t handle_value) noexcept {
  switch (handle_value) {
    case MPI_MAX:
      return OpKind::kMax;
    case MPI_MIN:
      return OpKind::kMin;
    case MPI_SUM:
      return OpKind::kSum;
    case MPI_PROD:
      return OpKind::kProd;
    case MPI_LAND:
      return OpKind::kLand;
    case MPI_BAND:
      return OpKind::kBand;
    case MPI_LOR:
      return OpKind::kLor;
    case MPI_BOR:
      return OpKind::kBor;
    case MPI_LXOR:
      return OpKind::kLxor;
    case MPI_BXOR:
      return OpKind::kBxor;
    case MPI_MAXLOC:
      return OpKind::kMaxloc;
    case MPI_MINLOC:
      return OpKind::kMinloc;
    case MPI_REPLACE:
      return OpKind::kReplace;
    case MPI_NO_OP:
      return OpKind::kNoOp;
    default:
      return OpKind::kInvalid;
  }
}

const char* op_name(OpKind op) noexcept {
  switch (op) {
    case OpKind::kMax:
      return "MPI_MAX";
    case OpKind::kMin:
      return "MPI_MIN";
    case OpKind::kSum:
      return "MPI_SUM";
    case OpKind::kProd:
      return "MPI_PROD";
    case OpKind::kLand:
      return "MPI_LAND";
    case OpKind::kBand:
      return "MPI_BAND";
    case OpKind::kLor:
      return "MPI_LOR";
    case OpKind::kBor:
      return "MPI_BOR";
    case OpKind::kLxor:
      return "MPI_LXOR";
    case OpKind::kBxor:
      return "MPI_BXOR";
    case OpKind::kMaxloc:
      return "MPI_MAXLOC";
    case OpKind::kMinloc:
      return "MPI_MINLOC";
    case OpKind::kReplace:
      return "MPI_REPLACE";
    case OpKind::kNoOp:
      return "MPI_NO_OP";
    case OpKind::kInvalid:
      break;
  }
  return "MPI_OP_NULL";
}

int check_op_type(OpKind op, const BasicType& type) noexcept {
  const Accepts ok = accepts(type.cls);
  bool valid = false;
  switch (op) {
    case OpKind::kMax:
    case OpKind::kMin:
      valid = ok.min_max;
      break;
    case OpKind::kSum:
    case OpKind::kProd:
      valid = ok.sum_prod;
      break;
    case OpKind::kLand:
    case OpKind::kLor:
    case OpKind::kLxor:
      valid = ok.logical;
      break;
    case OpKind::kBand:
    case OpKind::kBor:
    case OpKind::kBxor:
      valid = ok.bitwise;
      break;
    case OpKind::kMaxloc:
    case OpKind::kMinloc:
      valid = ok.loc;
      break;
    case OpKind::kReplace:
    case OpKind::kNoOp:
    case OpKind::kInvalid:
      valid = false;
      break;
  }
  return valid ? MPI_SUCCESS : MPI_ERR_OP;
}

int check_accumulate_op_type(OpKind op, const BasicType& type) noexcept {
  if (op == OpKind::kReplace || op == OpKind::kNoOp) {
    return MPI_SUCCESS;
  }
  return check_op_type(op, type);
}

void reduce(OpKind op, const BasicType& type, const void* in, void* inout,
            std::size_t count) noexcept {
  if (count == 0 || op == OpKind::kNoOp) {
    return;
  }
  if (op == OpKind::kReplace) {
    const auto extent = static_cast<std::size_t>(type.extent);
    std::memcpy(inout, in, (count - 1) * extent + true_extent(type));
    return;
  }
  SHMPI_ASSERT(op != OpKind::kInvalid, "reduce: invalid op");
  const KernelFn kernel = kKernels[index_of(type.scalar)][index_of(op)];
  SHMPI_ASSERT(kernel != nullptr, "reduce: op not defined on this datatype");
  kernel(in, inout, count);
}

ReduceFn reduction_kernel(OpKind op, const BasicType& type) noexcept {
  static_assert(std::is_same_v<ReduceFn, KernelFn>);
  if (check_op_type(op, type) != MPI_SUCCESS) {
    return nullptr;
  }
  return kKernels[index_of(type.scalar)][index_of(op)];
}

}  // namespace shmpi::datatype
