// SPDX-License-Identifier: MIT
// external32 conversions of the predefined datatypes (external32.hpp).
#include "datatype/external32.hpp"

#include <mpi.h>

#include <array>
#include <bit>
#include <cstring>

namespace shmpi::datatype {
namespace {

static_assert(std::endian::native == std::endian::little,
              "external32 conversion assumes a little-endian host");

// How one field of an element is converted.
enum class Kind : std::uint8_t {
  kRaw,         // bytes as they are (characters, MPI_BYTE, MPI_PACKED)
  kSigned,      // two's complement integer, byte order swapped
  kUnsigned,    // unsigned integer (also IEEE floats: only the order swaps)
  kLongDouble,  // x87 80-bit extended in 16 bytes <-> IEEE binary128
};

struct Field {
  Kind kind;
  std::uint8_t native;    // bytes in the packed form
  std::uint8_t external;  // bytes in external32
};

// At most two fields: complex numbers and value-index pairs.
struct Fields {
  std::array<Field, 2> field;
  int count;
};

constexpr Field swapped(std::uint32_t bytes) {
  return {Kind::kUnsigned, static_cast<std::uint8_t>(bytes),
          static_cast<std::uint8_t>(bytes)};
}

constexpr Field signed_int(std::uint32_t native, std::uint32_t external) {
  return {Kind::kSigned, static_cast<std::uint8_t>(native),
          static_cast<std::uint8_t>(external)};
}

bool is(const BasicType& type, MPI_Datatype handle) {
  return type.id == reinterpret_cast<std::uintptr_t>(handle);
}

Fields fields_of(const BasicType& type) {
  constexpr Field kInt = signed_int(4, 4);
  constexpr Field kLongDouble{Kind::kLongDouble, 16, 16};
  // The sizes the native C long has; external32 has 4.
  constexpr auto kLong = static_cast<std::uint32_t>(sizeof(long));
  switch (type.scalar) {
    case Scalar::kFloatInt:
      return {{swapped(4), kInt}, 2};
    case Scalar::kDoubleInt:
      return {{swapped(8), kInt}, 2};
    case Scalar::kLongInt:
      return {{signed_int(kLong, 4), kInt}, 2};
    case Scalar::kIntInt:
      return {{kInt, kInt}, 2};
    case Scalar::kShortInt:
      return {{signed_int(2, 2), kInt}, 2};
    case Scalar::kLongDoubleInt:
      return {{kLongDouble, kInt}, 2};
    case Scalar::kFloatFloat:
      return {{swapped(4), swapped(4)}, 2};
    case Scalar::kDoubleDouble:
      return {{swapped(8), swapped(8)}, 2};
    case Scalar::kComplexFloat:
      return {{swapped(4), swapped(4)}, 2};
    case Scalar::kComplexDouble:
      return {{swapped(8), swapped(8)}, 2};
    case Scalar::kComplexFloat128:
      return {{swapped(16), swapped(16)}, 2};
    case Scalar::kComplexLongDouble:
      return {{kLongDouble, kLongDouble}, 2};
    case Scalar::kLongDouble:
      return {{kLongDouble, {}}, 1};
    default:
      break;
  }
  if (is(type, MPI_LONG)) {
    return {{signed_int(kLong, 4), {}}, 1};
  }
  if (is(type, MPI_UNSIGNED_LONG)) {
    return {{Field{Kind::kUnsigned, kLong, 4}, {}}, 1};
  }
  if (is(type, MPI_WCHAR)) {
    return {{Field{Kind::kUnsigned, sizeof(wchar_t), 2}, {}}, 1};
  }
  if (type.cls == TypeClass::kByte || type.cls == TypeClass::kPacked ||
      (type.cls == TypeClass::kChar && type.size == 1)) {
    return {{Field{Kind::kRaw, 1, 1}, {}}, 1};
  }
  if (type.cls == TypeClass::kComplex || is(type, MPI_COMPLEX4)) {
    return {{swapped(type.size / 2), swapped(type.size / 2)}, 2};
  }
  if (type.cls == TypeClass::kInteger) {
    return {{signed_int(type.size, type.size), {}}, 1};
  }
  return {{swapped(type.size), {}}, 1};  // unsigned, floats, logicals, ...
}

// Copies `n` bytes from `in` to `out` in reverse order.
void reverse_copy(const std::byte* in, std::byte* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = in[n - 1 - i];
  }
}

void put_big_endian(std::uint64_t value, std::byte* out) {
  for (int i = 0; i < 8; ++i) {
    out[i] = static_cast<std::byte>(value >> (56 - 8 * i));
  }
}

std::uint64_t get_big_endian(const std::byte* in) {
  std::uint64_t value = 0;
  for (int i = 0; i < 8; ++i) {
    value = (value << 8) | std::to_integer<std::uint64_t>(in[i]);
  }
  return value;
}

// x87 extended: a 64-bit significand with an explicit integer bit (bytes
// 0..7), then the sign and a 15-bit exponent (bytes 8..9). binary128: the
// sign, the same 15-bit exponent with the same bias, and a 112-bit
// fraction with an implicit integer bit. The 63 fraction bits become the
// fraction's top bits, so the conversion is exact this way round.
void long_double_out(const std::byte* native, std::byte* out) {
  std::uint64_t significand = 0;
  std::uint16_t sign_exponent = 0;
  std::memcpy(&significand, native, 8);
  std::memcpy(&sign_exponent, native + 8, 2);
  const std::uint64_t fraction = significand & ~(std::uint64_t{1} << 63);
  const std::uint64_t high =
      (std::uint64_t{sign_exponent} << 48) | (fraction >> 15);
  const std::uint64_t low = fraction << 49;
  put_big_endian(high, out);
  put_big_endian(low, out + 8);
}

void long_double_in(const std::byte* in, std::byte* native) {
  const std::uint64_t high = get_big_endian(in);
  const std::uint64_t low = get_big_endian(in + 8);
  const auto sign_exponent = static_cast<std::uint16_t>(high >> 48);
  const std::uint64_t fraction =
      ((high & ((std::uint64_t{1} << 48) - 1)) << 15) | (low >> 49);
  // The integer bit is 1 but for zeros and subnormals (exponent 0).
  const std::uint64_t integer_bit =
      (sign_exponent & 0x7fff) != 0 ? std::uint64_t{1} << 63 : std::uint64_t{0};
  const std::uint64_t significand = integer_bit | fraction;
  std::memset(native, 0, 16);
  std::memcpy(native, &significand, 8);
  std::memcpy(native + 8, &sign_exponent, 2);
}

void field_out(const Field& f, const std::byte* native, std::byte* out) {
  switch (f.kind) {
    case Kind::kRaw:
      std::memcpy(out, native, f.native);
      return;
    case Kind::kLongDouble:
      long_double_out(native, out);
      return;
    case Kind::kSigned:
    case Kind::kUnsigned:
      // Little-endian: the low `external` bytes come first.
      reverse_copy(native, out, f.external);
      return;
  }
}

void field_in(const Field& f, const std::byte* in, std::byte* native) {
  switch (f.kind) {
    case Kind::kRaw:
      std::memcpy(native, in, f.native);
      return;
    case Kind::kLongDouble:
      long_double_in(in, native);
      return;
    case Kind::kSigned:
    case Kind::kUnsigned: {
      reverse_copy(in, native, f.external);
      // Widen: the sign bit of a signed value, else zeros.
      const bool negative = f.kind == Kind::kSigned &&
                            (std::to_integer<unsigned>(in[0]) & 0x80) != 0;
      std::memset(native + f.external, negative ? 0xff : 0,
                  static_cast<std::size_t>(f.native - f.external));
      return;
    }
  }
}

}  // namespace

std::size_t external32_size(const BasicType& type) noexcept {
  const Fields fields = fields_of(type);
  std::size_t bytes = 0;
  for (int i = 0; i < fields.count; ++i) {
    bytes += fields.field[static_cast<std::size_t>(i)].external;
  }
  return bytes;
}

std::size_t external32_native_size(const BasicType& type) noexcept {
  const Fields fields = fields_of(type);
  std::size_t bytes = 0;
  for (int i = 0; i < fields.count; ++i) {
    bytes += fields.field[static_cast<std::size_t>(i)].native;
  }
  return bytes;
}

void to_external32(const BasicType& type, const std::byte* native,
                   std::byte* out) noexcept {
  const Fields fields = fields_of(type);
  for (int i = 0; i < fields.count; ++i) {
    const Field& f = fields.field[static_cast<std::size_t>(i)];
    field_out(f, native, out);
    native += f.native;
    out += f.external;
  }
}

void from_external32(const BasicType& type, const std::byte* in,
                     std::byte* native) noexcept {
  const Fields fields = fields_of(type);
  for (int i = 0; i < fields.count; ++i) {
    const Field& f = fields.field[static_cast<std::size_t>(i)];
    field_in(f, in, native);
    in += f.external;
    native += f.native;
  }
}

}  // namespace shmpi::datatype
