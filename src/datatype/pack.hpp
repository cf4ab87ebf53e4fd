// SPDX-License-Identifier: MIT
// The one pack/unpack interface every protocol copies through. A Layout is
// what a protocol needs to know about (buffer, count, datatype): where the
// data starts, how many packed bytes it holds, and whether it is contiguous.
// Contiguous layouts (every predefined type, and derived types whose data is
// contiguous) take an inline memcpy; other derived datatypes provide a
// TypeMap (type_map.hpp) and take the out-of-line walker, which starts at
// any offset without walking from the beginning.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "base/small_vector.hpp"

namespace shmpi::datatype {

struct TypeMap;  // a derived datatype's flattened form (type_map.hpp)

// `buffer` + `offset` bytes, computed on the integer address. A user buffer
// may be MPI_BOTTOM (a null pointer) with a datatype whose displacements are
// absolute addresses (MPI_Get_address), and adding an offset to a null
// pointer is undefined behaviour; the sum is the data's real address.
inline std::byte* offset_address(const void* buffer,
                                 std::int64_t offset) noexcept {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): see above
  return reinterpret_cast<std::byte*>(reinterpret_cast<std::uintptr_t>(buffer) +
                                      static_cast<std::uintptr_t>(offset));
}

struct Layout {
  std::byte* base =
      nullptr;            // address of the first byte (buf + true lower bound)
  std::size_t bytes = 0;  // packed size: count * type size
  const TypeMap* map = nullptr;  // nullptr: the bytes are contiguous at base
};

// One Layout per member, as the v-collectives take them: inline for up to
// 8 members, so that a call on a small communicator does not allocate.
using Blocks = boost::container::small_vector<Layout, 8>;
// Per-member counts (a reduce-scatter's blocks), likewise.
using Counts = boost::container::small_vector<std::size_t, 8>;

void pack_noncontiguous(const Layout& layout, std::size_t offset,
                        void* destination, std::size_t bytes) noexcept;
void unpack_noncontiguous(const Layout& layout, std::size_t offset,
                          const void* source, std::size_t bytes) noexcept;

// Copies packed bytes [offset, offset + bytes) of `layout` to destination.
inline void pack(const Layout& layout, std::size_t offset, void* destination,
                 std::size_t bytes) noexcept {
  if (layout.map == nullptr) [[likely]] {
    if (bytes != 0) {  // a zero-length message may have a null buffer
      std::memcpy(destination, layout.base + offset, bytes);
    }
  } else {
    pack_noncontiguous(layout, offset, destination, bytes);
  }
}

// Copies `bytes` packed bytes from source into packed positions
// [offset, offset + bytes) of `layout`.
inline void unpack(const Layout& layout, std::size_t offset, const void* source,
                   std::size_t bytes) noexcept {
  if (layout.map == nullptr) [[likely]] {
    if (bytes != 0) {
      std::memcpy(layout.base + offset, source, bytes);
    }
  } else {
    unpack_noncontiguous(layout, offset, source, bytes);
  }
}

// Copies packed bytes [from_at, from_at + bytes) of `from` to packed
// positions [to_at, to_at + bytes) of `to` (the two must not overlap unless
// they are the same contiguous bytes): straight when either side is
// contiguous, memory to memory for whole elements when both have the same
// map at the same offset, else through a bounded stack buffer, never a full
// temporary.
void copy(const Layout& from, std::size_t from_at, const Layout& to,
          std::size_t to_at, std::size_t bytes) noexcept;

}  // namespace shmpi::datatype
