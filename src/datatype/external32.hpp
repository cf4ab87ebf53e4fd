// SPDX-License-Identifier: MIT
// The "external32" data representation (MPI 4.0 section 13.5.2) of the
// predefined datatypes, for MPI_Pack_external and MPI_Unpack_external:
// big-endian, IEEE formats, and fixed sizes that can differ from this
// machine's (MPI_LONG and MPI_UNSIGNED_LONG take 4 bytes, MPI_WCHAR 2,
// MPI_LONG_DOUBLE the 16 bytes of IEEE binary128).
//
// Each function works on one element of a predefined type in its packed
// form (pack.hpp: the data only, for a pair the value then the index).
#pragma once

#include <cstddef>
#include <cstdint>

#include "datatype/predefined.hpp"

namespace shmpi::datatype {

// Bytes of one element of `type` in external32.
[[nodiscard]] std::size_t external32_size(const BasicType& type) noexcept;

// Bytes of one element of `type` in its packed form, which the
// conversions below read or write (basic_desc(type)->packed).
[[nodiscard]] std::size_t external32_native_size(
    const BasicType& type) noexcept;

// Converts one element from its packed form at `native` (packed size
// bytes) to external32 at `out` (external32_size bytes). Integers narrowed
// to 4 bytes keep their low 32 bits (MPI leaves out-of-range values to the
// implementation).
void to_external32(const BasicType& type, const std::byte* native,
                   std::byte* out) noexcept;

// The inverse: external32 at `in` to the packed form at `native`; narrowed
// integers are sign- or zero-extended, and a binary128 long double is
// rounded toward zero to the 64-bit significand of x87 extended precision.
void from_external32(const BasicType& type, const std::byte* in,
                     std::byte* native) noexcept;

}  // namespace shmpi::datatype
