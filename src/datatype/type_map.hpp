// SPDX-License-Identifier: MIT
// Derived datatypes, independent of MPI handles: TypeDesc describes one
// datatype (bounds, sizes, the elements it is made of) and TypeMap is its
// flattened form that pack()/unpack() walk. The MPI layer composes TypeDescs
// with the constructors below (one per MPI type constructor) and keeps one
// per derived handle.
//
// Flattening: every derived element is a list of Segments, each a run of
// equal blocks at a constant stride, in packed (type map) order. Adjacent
// blocks merge and regular runs stay one Segment, so a vector of a million
// doubles is one Segment, and a type whose data is contiguous gets no map at
// all (the memcpy fast path).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "datatype/pack.hpp"
#include "datatype/predefined.hpp"

namespace shmpi::datatype {

// `count` blocks of `length` bytes; block k starts at disp + k * stride. The
// blocks are copied byte for byte: packed form and memory form agree inside
// a block.
struct Segment {
  std::int64_t disp = 0;  // TypeMap: from the element's true lower bound
  std::int64_t stride = 0;
  std::uint64_t length = 0;
  std::uint64_t count = 1;
};

// What the walker needs: one derived element's segments and where each
// starts in the packed form. Element i of a buffer lies at base + i * extent.
struct TypeMap {
  std::vector<Segment> segments;
  std::vector<std::uint64_t> starts;  // packed offset of each segment
  std::uint64_t packed = 0;           // packed bytes per element (> 0)
  std::int64_t extent = 0;
  // A padded pair type's map (predefined.hpp): its handle value, which
  // names the same map in every process (padded_pair_map()); 0 for a
  // derived type's.
  std::uint16_t pair_id = 0;
};

// The TypeMap of the padded pair type with handle value `pair_id` (a
// TypeMap::pair_id), or nullptr when it names none. Point to point sends it
// across processes by this id, since the map's address differs in each.
[[nodiscard]] const TypeMap* padded_pair_map(std::uint16_t pair_id) noexcept;

// Bytes of memory that `layout`'s data spans from layout.base, trailing
// padding of the last element included: layout.bytes when contiguous.
// Contiguous layouts and padded pairs' (pair_id != 0) only.
[[nodiscard]] std::uint64_t memory_span(const Layout& layout) noexcept;

struct TypeDesc;
using DescPtr = std::shared_ptr<const TypeDesc>;

// A stretch of a type's packed form: `copies` consecutive copies of `child`.
// MPI_Get_elements walks these to count basic elements in a partial element.
struct Part {
  DescPtr child;
  std::uint64_t copies = 0;
};

struct TypeDesc {
  const BasicType* basic = nullptr;  // set for a predefined type only
  std::vector<Segment> segments;     // displacements from the buffer address
  std::vector<Part> parts;           // derived types: the data in packed order
  std::uint64_t packed = 0;          // packed bytes per element
  std::uint64_t size = 0;            // MPI_Type_size
  std::uint64_t basic_count = 0;     // basic elements (MPI_Get_elements)
  std::int64_t lb = 0;
  std::int64_t ub = 0;
  std::int64_t true_lb = 0;
  std::int64_t true_ub = 0;
  // The one predefined type all data is made of (nullptr if none or mixed)
  // and how many of it one element holds.
  const BasicType* element = nullptr;
  std::uint64_t element_count = 0;
  bool mixed = false;
  std::uint32_t alignment = 1;   // largest alignment of any basic element
  bool explicit_bounds = false;  // resized somewhere: struct does not pad
  bool bounded = false;          // lb/ub mean something (false: empty type map)
  std::shared_ptr<const TypeMap> map;  // nullptr: data contiguous at true_lb
  // A type made of padded pairs alone (element padded, predefined.hpp): its
  // form in reductions, each pair as its C struct, padding included, as the
  // pair type itself is reduced (so that members passing the pair type and
  // members passing a derived type of pairs agree). Segments, packed bytes
  // per element, and the map (nullptr: contiguous at true_lb). Empty for
  // every other type.
  std::vector<Segment> reduction_segments;
  std::uint64_t reduction_packed = 0;
  std::shared_ptr<const TypeMap> reduction_map;

  std::int64_t extent() const { return ub - lb; }
};

// The description of a predefined type (cached; lives for the process).
const DescPtr& basic_desc(const BasicType& type);

// The MPI type constructors, with byte displacements and strides (the MPI
// layer multiplies by the old type's extent where the standard says so).
// Counts are validated by the caller (non-negative).
DescPtr make_contiguous(std::uint64_t count, const DescPtr& old);
DescPtr make_hvector(std::uint64_t count, std::uint64_t blocklength,
                     std::int64_t stride, const DescPtr& old);
DescPtr make_hindexed(std::span<const std::uint64_t> blocklengths,
                      std::span<const std::int64_t> displacements,
                      const DescPtr& old);
DescPtr make_struct(std::span<const std::uint64_t> blocklengths,
                    std::span<const std::int64_t> displacements,
                    std::span<const DescPtr> types);
DescPtr make_resized(const DescPtr& old, std::int64_t lb, std::int64_t extent);
// order_c: MPI_ORDER_C (last dimension varies fastest). Arguments validated
// by the caller (0 < subsizes, starts + subsizes <= sizes).
DescPtr make_subarray(std::span<const std::uint64_t> sizes,
                      std::span<const std::uint64_t> subsizes,
                      std::span<const std::uint64_t> starts, bool order_c,
                      const DescPtr& old);

// Where the two fields of a value-index pair lie in memory (the C struct):
// the value ends at `value_end`, the index fills [index_begin, index_end),
// and index_end is the pair's true extent. In packed form the index follows
// the value directly (value_end == index_begin but for the padded pairs,
// predefined.hpp). Any other predefined type is one field of `size` bytes.
struct PairFields {
  std::uint64_t value_end;
  std::uint64_t index_begin;
  std::uint64_t index_end;
};
[[nodiscard]] PairFields pair_fields(const BasicType& type) noexcept;

// Basic elements in the first `bytes` packed bytes of `count` elements of
// `type`, or -1 when `bytes` ends inside a basic element.
std::int64_t count_basic_elements(const TypeDesc& type, std::uint64_t bytes);

// The shortest prefix of the packed form of elements of `type` that holds
// `elements` basic elements: the inverse of count_basic_elements, for
// MPI_Status_set_elements. Walks the parts, not the bytes.
std::uint64_t bytes_of_basic_elements(const TypeDesc& type,
                                      std::uint64_t elements);

// Where `count` elements of `type` at `buffer` are, for pack()/unpack().
inline Layout layout_of(const TypeDesc& type, const void* buffer,
                        std::size_t count) {
  return Layout{offset_address(buffer, type.true_lb), count * type.packed,
                type.map.get()};
}

}  // namespace shmpi::datatype
