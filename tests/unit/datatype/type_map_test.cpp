// SPDX-License-Identifier: MIT
// Derived datatypes: each constructor against a naive reference that expands
// the type map byte by byte from the standard's definitions; pack/unpack at
// arbitrary offset windows against that reference; bounds and extents.
#include "datatype/type_map.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "datatype/pack.hpp"

namespace shmpi::datatype {
namespace {

const BasicType& basic(MPI_Datatype handle) {
  return *find_predefined(reinterpret_cast<std::uintptr_t>(handle));
}

// The reference: the memory offset of every packed byte of one element, in
// packed order, and the bounds.
struct Ref {
  std::vector<std::int64_t> bytes;
  std::int64_t lb = 0;
  std::int64_t ub = 0;
  bool bounded = false;
  std::int64_t extent() const { return ub - lb; }
};

Ref ref_basic(const BasicType& t) {
  Ref r;
  for (std::int64_t i = 0; i < t.extent; ++i) {
    r.bytes.push_back(i);
  }
  r.ub = t.extent;
  r.bounded = true;
  return r;
}

// Appends a copy of `child` at `disp`.
void ref_place(Ref& into, const Ref& child, std::int64_t disp) {
  for (std::int64_t b : child.bytes) {
    into.bytes.push_back(disp + b);
  }
  if (!child.bounded) {
    return;
  }
  if (!into.bounded) {
    into.lb = disp + child.lb;
    into.ub = disp + child.ub;
    into.bounded = true;
  } else {
    into.lb = std::min(into.lb, disp + child.lb);
    into.ub = std::max(into.ub, disp + child.ub);
  }
}

Ref ref_hindexed(const std::vector<std::uint64_t>& lengths,
                 const std::vector<std::int64_t>& disps, const Ref& old) {
  Ref r;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    for (std::uint64_t k = 0; k < lengths[i]; ++k) {
      ref_place(r, old, disps[i] + static_cast<std::int64_t>(k) * old.extent());
    }
  }
  return r;
}

Ref ref_hvector(std::uint64_t count, std::uint64_t len, std::int64_t stride,
                const Ref& old) {
  std::vector<std::uint64_t> lengths(count, len);
  std::vector<std::int64_t> disps;
  for (std::uint64_t i = 0; i < count; ++i) {
    disps.push_back(static_cast<std::int64_t>(i) * stride);
  }
  return ref_hindexed(lengths, disps, old);
}

Ref ref_resized(Ref r, std::int64_t lb, std::int64_t extent) {
  r.lb = lb;
  r.ub = lb + extent;
  r.bounded = true;
  return r;
}

// A buffer with room on both sides of the origin (negative displacements).
struct Buffer {
  explicit Buffer(std::size_t n, std::uint32_t seed) : data(n) {
    std::mt19937 rng(seed);
    for (auto& b : data) {
      b = static_cast<std::byte>(rng());
    }
  }
  std::byte* origin() { return data.data() + data.size() / 2; }
  std::vector<std::byte> data;
};

void expect_matches(const DescPtr& desc, const Ref& ref, std::size_t count) {
  SCOPED_TRACE(testing::Message() << "count " << count);
  ASSERT_EQ(desc->packed, ref.bytes.size());
  EXPECT_EQ(desc->lb, ref.lb);
  EXPECT_EQ(desc->ub, ref.ub);
  if (!ref.bytes.empty()) {
    EXPECT_EQ(desc->true_lb,
              *std::min_element(ref.bytes.begin(), ref.bytes.end()));
    EXPECT_EQ(desc->true_ub,
              *std::max_element(ref.bytes.begin(), ref.bytes.end()) + 1);
  }
  std::int64_t reach = 64;
  for (std::int64_t b : ref.bytes) {
    reach = std::max(reach, b < 0 ? -b : b);
  }
  reach += static_cast<std::int64_t>(count) *
           (ref.extent() < 0 ? -ref.extent() : ref.extent());
  const auto room = static_cast<std::size_t>(2 * reach + 64);
  Buffer source(room, 1);
  std::vector<std::byte> expected;
  for (std::size_t e = 0; e < count; ++e) {
    for (std::int64_t b : ref.bytes) {
      expected.push_back(
          source.origin()[static_cast<std::int64_t>(e) * ref.extent() + b]);
    }
  }
  const Layout from = layout_of(*desc, source.origin(), count);
  ASSERT_EQ(from.bytes, expected.size());
  // Windows of several sizes, each packing the whole stream piecewise.
  for (std::size_t window : {std::size_t{1}, std::size_t{3}, std::size_t{7},
                             std::size_t{60}, expected.size() + 1}) {
    if (window == 0) {
      continue;
    }
    std::vector<std::byte> packed(expected.size());
    for (std::size_t at = 0; at < packed.size(); at += window) {
      pack(from, at, packed.data() + at, std::min(window, packed.size() - at));
    }
    ASSERT_EQ(packed, expected) << "window " << window;
    // Unpack into a fresh buffer, piecewise; then the bytes the type map
    // covers equal the source and nothing else changed.
    Buffer target(room, 2);
    const std::vector<std::byte> before = target.data;
    const Layout to = layout_of(*desc, target.origin(), count);
    for (std::size_t at = 0; at < packed.size(); at += window) {
      unpack(to, at, packed.data() + at, std::min(window, packed.size() - at));
    }
    std::vector<bool> covered(target.data.size());
    for (std::size_t e = 0; e < count; ++e) {
      for (std::int64_t b : ref.bytes) {
        const std::int64_t at = static_cast<std::int64_t>(e) * ref.extent() + b;
        covered[static_cast<std::size_t>(target.origin() + at -
                                         target.data.data())] = true;
        ASSERT_EQ(target.origin()[at], source.origin()[at]);
      }
    }
    for (std::size_t i = 0; i < covered.size(); ++i) {
      if (!covered[i]) {
        ASSERT_EQ(target.data[i], before[i]) << "byte " << i << " clobbered";
      }
    }
  }
}

void expect_matches(const DescPtr& desc, const Ref& ref) {
  for (std::size_t count : {1, 2, 5}) {
    expect_matches(desc, ref, count);
  }
}

const BasicType& kDouble = basic(MPI_DOUBLE);
const BasicType& kInt = basic(MPI_INT);
const BasicType& kChar = basic(MPI_CHAR);

TEST(TypeMap, ContiguousOfBasicIsContiguous) {
  const DescPtr d = make_contiguous(10, basic_desc(kDouble));
  EXPECT_EQ(d->map, nullptr);
  EXPECT_EQ(d->packed, 80u);
  EXPECT_EQ(d->size, 80u);
  EXPECT_EQ(d->element, &kDouble);
  EXPECT_EQ(d->element_count, 10u);
  Ref ref;
  for (int k = 0; k < 10; ++k) {
    ref_place(ref, ref_basic(kDouble), k * 8);
  }
  expect_matches(d, ref);
}

TEST(TypeMap, VectorIsOneSegment) {
  const DescPtr d = make_hvector(1000, 1, 16, basic_desc(kDouble));
  ASSERT_NE(d->map, nullptr);
  EXPECT_EQ(d->map->segments.size(), 1u);
  EXPECT_EQ(d->extent(), 999 * 16 + 8);
  expect_matches(d, ref_hvector(1000, 1, 16, ref_basic(kDouble)));
}

TEST(TypeMap, VectorBlocksAndNegativeStride) {
  expect_matches(make_hvector(4, 3, 40, basic_desc(kInt)),
                 ref_hvector(4, 3, 40, ref_basic(kInt)));
  expect_matches(make_hvector(4, 2, -24, basic_desc(kDouble)),
                 ref_hvector(4, 2, -24, ref_basic(kDouble)));
  // A vector whose stride equals the block is contiguous.
  EXPECT_EQ(make_hvector(4, 2, 16, basic_desc(kDouble))->map, nullptr);
}

TEST(TypeMap, Hindexed) {
  const std::vector<std::uint64_t> lengths = {2, 0, 1, 3, 1};
  const std::vector<std::int64_t> disps = {40, 0, -8, 100, 4};
  expect_matches(make_hindexed(lengths, disps, basic_desc(kInt)),
                 ref_hindexed(lengths, disps, ref_basic(kInt)));
}

TEST(TypeMap, StructMixedAndPadded) {
  const std::vector<std::uint64_t> lengths = {1, 3};
  const std::vector<std::int64_t> disps = {0, 8};
  const std::vector<DescPtr> types = {basic_desc(kDouble), basic_desc(kChar)};
  const DescPtr d = make_struct(lengths, disps, types);
  EXPECT_EQ(d->element, nullptr);
  EXPECT_EQ(d->size, 11u);
  EXPECT_EQ(d->extent(), 16);  // padded to the double's alignment
  EXPECT_EQ(d->true_ub - d->true_lb, 11);
  Ref ref;
  ref_place(ref, ref_basic(kDouble), 0);
  for (int k = 0; k < 3; ++k) {
    ref_place(ref, ref_basic(kChar), 8 + k);
  }
  ref.ub = 16;
  expect_matches(d, ref);
  EXPECT_EQ(count_basic_elements(*d, 8), 1);
  EXPECT_EQ(count_basic_elements(*d, 10), 3);
  EXPECT_EQ(count_basic_elements(*d, 11 + 8), 5);
  EXPECT_EQ(count_basic_elements(*d, 5), -1);
}

TEST(TypeMap, NestedVectorOfStruct) {
  const std::vector<std::uint64_t> lengths = {2, 1};
  const std::vector<std::int64_t> disps = {4, 16};
  const std::vector<DescPtr> types = {basic_desc(kInt), basic_desc(kDouble)};
  const DescPtr s = make_struct(lengths, disps, types);
  Ref rs;
  ref_place(rs, ref_basic(kInt), 4);
  ref_place(rs, ref_basic(kInt), 8);
  ref_place(rs, ref_basic(kDouble), 16);
  rs.lb = 4;
  rs.ub = 28;  // extent 20 padded to the double's alignment
  expect_matches(s, rs);
  const DescPtr v = make_hvector(3, 2, 64, s);
  expect_matches(v, ref_hvector(3, 2, 64, rs));
  const DescPtr c = make_contiguous(2, v);
  Ref rc;
  ref_place(rc, ref_hvector(3, 2, 64, rs), 0);
  ref_place(rc, ref_hvector(3, 2, 64, rs), ref_hvector(3, 2, 64, rs).extent());
  expect_matches(c, rc);
  EXPECT_EQ(count_basic_elements(*c, c->packed), 2 * 3 * 2 * 3);
  EXPECT_EQ(count_basic_elements(*c, 4), 1);
  EXPECT_EQ(count_basic_elements(*c, 16 + 8), 5);
}

TEST(TypeMap, ResizedAndNegativeLowerBound) {
  const DescPtr r = make_resized(basic_desc(kInt), -4, 12);
  EXPECT_EQ(r->lb, -4);
  EXPECT_EQ(r->extent(), 12);
  EXPECT_EQ(r->true_lb, 0);
  EXPECT_EQ(r->true_ub, 4);
  expect_matches(r, ref_resized(ref_basic(kInt), -4, 12));
  // Resized to its own extent again is contiguous.
  EXPECT_EQ(make_resized(basic_desc(kInt), 0, 4)->map, nullptr);
  // A struct of a resized type keeps the explicit extent (no padding).
  const std::vector<std::uint64_t> one = {1};
  const std::vector<std::int64_t> zero = {0};
  const std::vector<DescPtr> types = {make_resized(basic_desc(kDouble), 0, 12)};
  EXPECT_EQ(make_struct(one, zero, types)->extent(), 12);
  // Negative displacements: the element starts before the buffer address.
  const DescPtr v = make_hvector(3, 1, -16, r);
  expect_matches(v,
                 ref_hvector(3, 1, -16, ref_resized(ref_basic(kInt), -4, 12)));
}

TEST(TypeMap, Subarray) {
  const std::vector<std::uint64_t> sizes = {4, 5, 6};
  const std::vector<std::uint64_t> subsizes = {2, 3, 2};
  const std::vector<std::uint64_t> starts = {1, 2, 3};
  for (bool order_c : {true, false}) {
    SCOPED_TRACE(order_c ? "C order" : "Fortran order");
    Ref ref;
    const std::int64_t e = 8;
    // Element (i, j, k) in the order the type map lists them.
    auto index = [&](std::uint64_t i, std::uint64_t j, std::uint64_t k) {
      return order_c ? static_cast<std::int64_t>((i * 5 + j) * 6 + k)
                     : static_cast<std::int64_t>(i + 4 * (j + 5 * k));
    };
    if (order_c) {
      for (std::uint64_t i = 1; i < 3; ++i) {
        for (std::uint64_t j = 2; j < 5; ++j) {
          for (std::uint64_t k = 3; k < 5; ++k) {
            ref_place(ref, ref_basic(kDouble), index(i, j, k) * e);
          }
        }
      }
    } else {
      for (std::uint64_t k = 3; k < 5; ++k) {
        for (std::uint64_t j = 2; j < 5; ++j) {
          for (std::uint64_t i = 1; i < 3; ++i) {
            ref_place(ref, ref_basic(kDouble), index(i, j, k) * e);
          }
        }
      }
    }
    ref.lb = 0;
    ref.ub = 4 * 5 * 6 * e;
    expect_matches(
        make_subarray(sizes, subsizes, starts, order_c, basic_desc(kDouble)),
        ref);
  }
}

TEST(TypeMap, EmptyTypes) {
  const DescPtr d = make_contiguous(0, basic_desc(kInt));
  EXPECT_EQ(d->packed, 0u);
  EXPECT_EQ(d->extent(), 0);
  EXPECT_EQ(d->map, nullptr);
  EXPECT_EQ(count_basic_elements(*d, 0), 0);
  const DescPtr v = make_hvector(5, 0, 16, basic_desc(kInt));
  EXPECT_EQ(v->packed, 0u);
  EXPECT_EQ(v->extent(), 0);
}

TEST(TypeMap, PairTypesCountTwoBasicElements) {
  const DescPtr d = make_contiguous(3, basic_desc(basic(MPI_DOUBLE_INT)));
  EXPECT_EQ(d->packed, 36u);
  EXPECT_EQ(d->size, 36u);
  EXPECT_EQ(count_basic_elements(*d, 36), 6);
  EXPECT_EQ(count_basic_elements(*d, 20), 3);  // ends after a value
  EXPECT_EQ(count_basic_elements(*d, 22), -1);
  EXPECT_EQ(bytes_of_basic_elements(*d, 3), 20u);
}

// MPI 4.0 §6.9.4: a pair type is the struct {(value, 0), (int, offset)} with
// the C struct's extent, so its packed form is the data only (no padding)
// and its true extent ends with the index.
TEST(TypeMap, PaddedPairTypesPackTheirDataOnly) {
  struct Expect {
    MPI_Datatype handle;
    std::uint64_t packed;
    std::int64_t true_extent;
    std::int64_t extent;
  };
  for (const Expect& e :
       {Expect{MPI_DOUBLE_INT, 12, 12, 16}, Expect{MPI_LONG_INT, 12, 12, 16},
        Expect{MPI_SHORT_INT, 6, 8, 8}, Expect{MPI_LONG_DOUBLE_INT, 20, 20, 32},
        Expect{MPI_FLOAT_INT, 8, 8, 8}, Expect{MPI_2INT, 8, 8, 8}}) {
    const DescPtr d = basic_desc(basic(e.handle));
    SCOPED_TRACE(d->basic->name);
    EXPECT_EQ(d->packed, e.packed);
    EXPECT_EQ(d->size, e.packed);
    EXPECT_EQ(d->true_lb, 0);
    EXPECT_EQ(d->true_ub - d->true_lb, e.true_extent);
    EXPECT_EQ(d->extent(), e.extent);
    EXPECT_EQ(d->map == nullptr,
              e.packed == static_cast<std::uint64_t>(e.extent));
    EXPECT_EQ(padded(*d->basic),
              e.packed != static_cast<std::uint64_t>(e.extent));
  }
  // Packing two MPI_SHORT_INT elements: value, index, value, index.
  struct ShortInt {
    short value;
    int index;
  };
  const ShortInt in[2] = {{1, 2}, {3, 4}};
  const DescPtr d = basic_desc(basic(MPI_SHORT_INT));
  std::array<std::byte, 12> packed{};
  pack(layout_of(*d, in, 2), 0, packed.data(), packed.size());
  short s = 0;
  int i = 0;
  std::memcpy(&s, packed.data() + 6, sizeof s);
  std::memcpy(&i, packed.data() + 8, sizeof i);
  EXPECT_EQ(s, 3);
  EXPECT_EQ(i, 4);
  ShortInt out[2] = {};
  unpack(layout_of(*d, out, 2), 0, packed.data(), packed.size());
  EXPECT_EQ(out[0].value, 1);
  EXPECT_EQ(out[0].index, 2);
  EXPECT_EQ(out[1].value, 3);
  EXPECT_EQ(out[1].index, 4);
}

// A padded pair's map names its type (TypeMap::pair_id), by which another
// process finds the same map; derived types' maps name none.
TEST(TypeMap, PaddedPairMapsCarryTheirType) {
  for (MPI_Datatype handle :
       {MPI_DOUBLE_INT, MPI_LONG_INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT}) {
    const BasicType& type = basic(handle);
    const DescPtr d = basic_desc(type);
    ASSERT_NE(d->map, nullptr) << type.name;
    EXPECT_EQ(d->map->pair_id, type.id);
    EXPECT_EQ(padded_pair_map(type.id), d->map.get());
    const Layout three = layout_of(*d, nullptr, 3);
    EXPECT_EQ(memory_span(three), 3 * static_cast<std::uint64_t>(type.extent));
  }
  EXPECT_EQ(padded_pair_map(basic(MPI_2INT).id), nullptr);
  EXPECT_EQ(padded_pair_map(basic(MPI_INT).id), nullptr);
  EXPECT_EQ(padded_pair_map(0), nullptr);
  const DescPtr v = make_hvector(2, 1, 16, basic_desc(basic(MPI_INT)));
  ASSERT_NE(v->map, nullptr);
  EXPECT_EQ(v->map->pair_id, 0);
}

// copy() between two layouts of the same map: whole elements memory to
// memory. A padded pair's C structs go whole (their padding is
// unspecified in C) but never past the last index; another map's gaps are
// left alone; a window that starts mid-element still gives the bytes.
TEST(TypeMap, CopyBetweenTheSameMap) {
  struct DoubleInt {
    double value;
    int index;
  };
  const DescPtr pair = basic_desc(basic(MPI_DOUBLE_INT));
  constexpr std::size_t kCount = 5;
  std::array<DoubleInt, kCount + 1> from{};
  std::array<DoubleInt, kCount + 1> to{};
  std::memset(to.data(), 0xee, sizeof to);
  for (std::size_t i = 0; i < kCount; ++i) {
    from[i] = DoubleInt{static_cast<double>(i) + 0.5, static_cast<int>(i)};
  }
  copy(layout_of(*pair, from.data(), kCount), 0,
       layout_of(*pair, to.data(), kCount), 0, kCount * 12);
  for (std::size_t i = 0; i < kCount; ++i) {
    EXPECT_EQ(to[i].value, from[i].value) << i;
    EXPECT_EQ(to[i].index, from[i].index) << i;
  }
  // Nothing from the last element's tail padding on.
  const auto* after = reinterpret_cast<const unsigned char*>(to.data()) +
                      (kCount - 1) * sizeof(DoubleInt) + 12;
  for (std::size_t b = 0; b < sizeof(DoubleInt) + 4; ++b) {
    EXPECT_EQ(after[b], 0xee) << b;
  }
  // A window from the middle of element 1 to the middle of element 3.
  std::memset(to.data(), 0, sizeof to);
  copy(layout_of(*pair, from.data(), kCount), 18,
       layout_of(*pair, to.data(), kCount), 18, 20);
  EXPECT_EQ(to[0].index, 0);
  EXPECT_EQ(to[1].index, from[1].index);
  EXPECT_EQ(to[2].value, from[2].value);
  EXPECT_EQ(to[2].index, from[2].index);
  EXPECT_EQ(to[3].index, 0);
  EXPECT_EQ(to[4].value, 0.0);

  // Every other int of 8: the gaps keep their bytes.
  const DescPtr v = make_hvector(4, 1, 8, basic_desc(basic(MPI_INT)));
  std::array<int, 8> ints{1, 2, 3, 4, 5, 6, 7, 8};
  std::array<int, 8> out{};
  out.fill(-1);
  copy(layout_of(*v, ints.data(), 1), 0, layout_of(*v, out.data(), 1), 0, 16);
  EXPECT_EQ(out, (std::array<int, 8>{1, -1, 3, -1, 5, -1, 7, -1}));
}

// A struct of the pair's fields with its extent has the pair's type map:
// same packed bytes, same map.
// Reductions take every padded pair as its C struct, in the pair type and in
// a derived type made of pairs alone; other types have no reduction form.
TEST(TypeMap, PaddedPairsReduceAsStructs) {
  const DescPtr pair = basic_desc(basic(MPI_DOUBLE_INT));
  EXPECT_EQ(pair->reduction_packed, 16u);
  EXPECT_EQ(pair->reduction_map, nullptr);
  const DescPtr three = make_contiguous(3, pair);
  EXPECT_EQ(three->packed, 36u);
  EXPECT_EQ(three->reduction_packed, 48u);
  EXPECT_EQ(three->reduction_map, nullptr);  // the C array itself
  const DescPtr spaced = make_hvector(2, 1, 40, pair);
  EXPECT_EQ(spaced->reduction_packed, 32u);
  ASSERT_NE(spaced->reduction_map, nullptr);
  std::vector<std::byte> memory(56);
  for (std::size_t i = 0; i < memory.size(); ++i) {
    memory[i] = static_cast<std::byte>(i);
  }
  std::vector<std::byte> stream(32);
  pack(Layout{memory.data(), 32, spaced->reduction_map.get()}, 0, stream.data(),
       32);
  EXPECT_EQ(std::memcmp(stream.data(), memory.data(), 16), 0);
  EXPECT_EQ(std::memcmp(stream.data() + 16, memory.data() + 40, 16), 0);
  const DescPtr short_pairs =
      make_contiguous(2, basic_desc(basic(MPI_SHORT_INT)));
  EXPECT_EQ(short_pairs->packed, 12u);
  EXPECT_EQ(short_pairs->reduction_packed, 16u);
  EXPECT_EQ(make_resized(three, 0, 64)->reduction_packed, 48u);
  EXPECT_EQ(make_contiguous(3, basic_desc(kInt))->reduction_packed, 0u);
  const std::vector<std::uint64_t> lengths = {1, 1};
  const std::vector<std::int64_t> disps = {0, 16};
  const std::vector<DescPtr> types = {pair, basic_desc(kInt)};
  EXPECT_EQ(make_struct(lengths, disps, types)->reduction_packed, 0u);
}

TEST(TypeMap, PaddedPairMatchesTheStructOfItsFields) {
  const DescPtr pair = basic_desc(basic(MPI_DOUBLE_INT));
  const std::uint64_t lengths[2] = {1, 1};
  const std::int64_t disps[2] = {0, 8};
  const DescPtr types[2] = {basic_desc(basic(MPI_DOUBLE)),
                            basic_desc(basic(MPI_INT))};
  const DescPtr user = make_struct(lengths, disps, types);
  EXPECT_EQ(user->packed, pair->packed);
  EXPECT_EQ(user->extent(), pair->extent());
  EXPECT_EQ(user->true_ub, pair->true_ub);
  ASSERT_NE(user->map, nullptr);
  ASSERT_NE(pair->map, nullptr);
  ASSERT_EQ(user->map->segments.size(), pair->map->segments.size());
  for (std::size_t k = 0; k < user->map->segments.size(); ++k) {
    EXPECT_EQ(user->map->segments[k].disp, pair->map->segments[k].disp);
    EXPECT_EQ(user->map->segments[k].length, pair->map->segments[k].length);
  }
}

// A type with one block per element (a resized contiguous type, a struct
// of one data block and tail padding) packs whole runs of elements in one
// pass of the walker: windows that start and end inside blocks, over many
// elements, still give the reference's bytes. 12-byte blocks take a
// fixed-size copy; 4- and 20-byte ones the others.
TEST(TypeMap, OneBlockPerElementRuns) {
  for (std::uint64_t ints : {1, 3, 5}) {
    for (std::int64_t lb : {0, -4}) {
      const std::int64_t extent = static_cast<std::int64_t>(ints) * 4 + 4;
      const DescPtr d =
          make_resized(make_contiguous(ints, basic_desc(kInt)), lb, extent);
      Ref inner;
      for (std::uint64_t k = 0; k < ints; ++k) {
        ref_place(inner, ref_basic(kInt), static_cast<std::int64_t>(k) * 4);
      }
      const Ref r = ref_resized(inner, lb, extent);
      SCOPED_TRACE(testing::Message() << ints << " ints, lb " << lb);
      ASSERT_NE(d->map, nullptr);
      for (std::size_t count : {1, 2, 5, 300}) {
        expect_matches(d, r, count);
      }
    }
  }
}

// Random nested types against the reference, with random windows.
TEST(TypeMap, RandomNested) {
  std::mt19937 rng(7);
  auto pick = [&](int n) { return static_cast<int>(rng() % n); };
  for (int round = 0; round < 200; ++round) {
    DescPtr d = basic_desc(pick(2) ? kInt : kDouble);
    Ref r = ref_basic(*d->basic);
    for (int depth = 0; depth < 2; ++depth) {
      switch (pick(4)) {
        case 0: {
          const auto n = static_cast<std::uint64_t>(1 + pick(4));
          Ref next;
          for (std::uint64_t k = 0; k < n; ++k) {
            ref_place(next, r, static_cast<std::int64_t>(k) * r.extent());
          }
          d = make_contiguous(n, d);
          r = next;
          break;
        }
        case 1: {
          const auto count = static_cast<std::uint64_t>(1 + pick(4));
          const auto len = static_cast<std::uint64_t>(1 + pick(3));
          const std::int64_t stride = (pick(9) - 4) * 8;
          d = make_hvector(count, len, stride, d);
          r = ref_hvector(count, len, stride, r);
          break;
        }
        case 2: {
          std::vector<std::uint64_t> lengths;
          std::vector<std::int64_t> disps;
          for (int i = 0, n = 1 + pick(4); i < n; ++i) {
            lengths.push_back(static_cast<std::uint64_t>(pick(3)));
            disps.push_back((pick(21) - 10) * 4);
          }
          d = make_hindexed(lengths, disps, d);
          r = ref_hindexed(lengths, disps, r);
          break;
        }
        default: {
          const std::int64_t lb = (pick(5) - 2) * 4;
          const std::int64_t extent = r.extent() + pick(3) * 4;
          d = make_resized(d, lb, extent);
          r = ref_resized(r, lb, extent);
          break;
        }
      }
    }
    SCOPED_TRACE(round);
    expect_matches(d, r, 3);
    const auto count = count_basic_elements(*d, d->packed * 3);
    EXPECT_EQ(count, static_cast<std::int64_t>(r.bytes.size() * 3) /
                         (d->element != nullptr ? d->element->extent : 1));
  }
}

}  // namespace
}  // namespace shmpi::datatype

namespace shmpi::datatype {
namespace {

// copy() between every pair of contiguous / non-contiguous layouts, at
// offsets, over more than its bounce buffer: the bytes land where pack and
// unpack through a full temporary would put them.
TEST(TypeMap, CopyBetweenLayouts) {
  const DescPtr vec = make_hvector(3000, 2, 24, basic_desc(kInt));  // 8 of 24
  constexpr std::size_t kCount = 4;
  const std::size_t packed = vec->packed * kCount;  // 96000 bytes
  for (bool from_strided : {false, true}) {
    for (bool to_strided : {false, true}) {
      SCOPED_TRACE(testing::Message() << from_strided << to_strided);
      Buffer source(4 * 24 * 3000 * kCount, 3);
      Buffer target(4 * 24 * 3000 * kCount, 4);
      Buffer reference = target;
      const Layout from = from_strided
                              ? layout_of(*vec, source.origin(), kCount)
                              : Layout{source.origin(), packed, nullptr};
      const Layout to = to_strided ? layout_of(*vec, target.origin(), kCount)
                                   : Layout{target.origin(), packed, nullptr};
      const Layout ref_to = to_strided
                                ? layout_of(*vec, reference.origin(), kCount)
                                : Layout{reference.origin(), packed, nullptr};
      const std::size_t from_at = 40;
      const std::size_t to_at = 1000;
      const std::size_t bytes = packed - to_at;
      std::vector<std::byte> tmp(bytes);
      pack(from, from_at, tmp.data(), bytes);
      unpack(ref_to, to_at, tmp.data(), bytes);
      copy(from, from_at, to, to_at, bytes);
      EXPECT_EQ(target.data, reference.data);
    }
  }
}

}  // namespace
}  // namespace shmpi::datatype
