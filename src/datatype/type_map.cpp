// SPDX-License-Identifier: MIT
// The derived-datatype constructors: each composes TypeDescs by placing
// copies of the old type at displacements, merging the segments as they are
// appended (see type_map.hpp), then flattens the result into a TypeMap.
#include "datatype/type_map.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

#include "base/assert.hpp"
#include "datatype/detail/element_types.hpp"

namespace shmpi::datatype {

namespace {

// Appends `s` to `segs`, merging it into the last segment when it continues
// it: adjacent single blocks join, equal blocks at a constant stride become
// one run, and a run whose stride equals its length becomes one block.
void append(std::vector<Segment>& segs, Segment s) {
  if (s.length == 0 || s.count == 0) {
    return;
  }
  if (s.count > 1 && s.stride == static_cast<std::int64_t>(s.length)) {
    s.length *= s.count;
    s.count = 1;
  }
  if (!segs.empty()) {
    Segment& p = segs.back();
    const auto len = static_cast<std::int64_t>(p.length);
    if (p.count == 1 && s.count == 1 && s.disp == p.disp + len) {
      p.length += s.length;
      return;
    }
    if (s.length == p.length) {
      bool merged = false;
      if (p.count == 1 && s.count == 1) {
        p.stride = s.disp - p.disp;
        p.count = 2;
        merged = true;
      } else if (p.count > 1 && (s.count == 1 || s.stride == p.stride) &&
                 s.disp ==
                     p.disp + static_cast<std::int64_t>(p.count) * p.stride) {
        p.count += s.count;
        merged = true;
      } else if (p.count == 1 && s.count > 1 && s.disp - p.disp == s.stride) {
        p.stride = s.stride;
        p.count = s.count + 1;
        merged = true;
      }
      if (merged) {
        if (p.stride == len) {
          p.length *= p.count;
          p.count = 1;
        }
        return;
      }
    }
  }
  segs.push_back(s);
}

void add_part(TypeDesc& into, const DescPtr& child, std::uint64_t copies) {
  if (copies == 0) {
    return;
  }
  if (!into.parts.empty() && into.parts.back().child == child) {
    into.parts.back().copies += copies;
  } else {
    into.parts.push_back(Part{child, copies});
  }
}

// Appends `copies` copies of `child` segments to `into`, copy k at disp + k *
// stride: a child that is one run repeats as one longer run when the copies
// continue its pattern; otherwise copy by copy.
void place_segments(std::vector<Segment>& into,
                    const std::vector<Segment>& child, std::int64_t disp,
                    std::uint64_t copies, std::int64_t stride) {
  if (child.size() == 1) {
    const Segment& s = child[0];
    if (s.count == 1) {
      append(into, Segment{disp + s.disp, stride, s.length, copies});
      return;
    }
    if (copies == 1 ||
        static_cast<std::int64_t>(s.count) * s.stride == stride) {
      append(into,
             Segment{disp + s.disp, s.stride, s.length, s.count * copies});
      return;
    }
  }
  for (std::uint64_t k = 0; k < copies; ++k) {
    const std::int64_t at = disp + static_cast<std::int64_t>(k) * stride;
    for (const Segment& s : child) {
      append(into, Segment{at + s.disp, s.stride, s.length, s.count});
    }
  }
}

// Places `copies` copies of `child` into `into`, copy k at disp + k * stride:
// bounds, sizes, element bookkeeping and segments (not parts).
void place(TypeDesc& into, const TypeDesc& child, std::int64_t disp,
           std::uint64_t copies, std::int64_t stride) {
  if (copies == 0) {
    return;
  }
  const std::int64_t last =
      disp + static_cast<std::int64_t>(copies - 1) * stride;
  const std::int64_t lo = std::min(disp, last);
  const std::int64_t hi = std::max(disp, last);
  if (child.bounded) {
    if (!into.bounded) {
      into.lb = lo + child.lb;
      into.ub = hi + child.ub;
      into.bounded = true;
    } else {
      into.lb = std::min(into.lb, lo + child.lb);
      into.ub = std::max(into.ub, hi + child.ub);
    }
  }
  into.explicit_bounds |= child.explicit_bounds;
  into.alignment = std::max(into.alignment, child.alignment);
  if (child.packed == 0) {
    return;
  }
  if (into.packed == 0) {
    into.true_lb = lo + child.true_lb;
    into.true_ub = hi + child.true_ub;
    into.element = child.element;
    into.mixed = child.mixed;
  } else {
    into.true_lb = std::min(into.true_lb, lo + child.true_lb);
    into.true_ub = std::max(into.true_ub, hi + child.true_ub);
    if (child.mixed || child.element != into.element) {
      into.mixed = true;
      into.element = nullptr;
    }
  }
  into.packed += copies * child.packed;
  into.size += copies * child.size;
  into.basic_count += copies * child.basic_count;
  into.element_count += copies * child.element_count;

  place_segments(into.segments, child.segments, disp, copies, stride);
  // The C-struct form of padded pairs, for reductions (finish() drops it
  // unless the result is made of one padded pair type alone).
  if (child.element != nullptr && padded(*child.element)) {
    place_segments(into.reduction_segments, child.reduction_segments, disp,
                   copies, stride);
    into.reduction_packed += copies * child.reduction_packed;
  }
}

// The TypeMap of `segments` (`packed` bytes an element) in `desc`, or
// nullptr when they are contiguous at desc.true_lb.
std::shared_ptr<const TypeMap> flatten(const TypeDesc& desc,
                                       const std::vector<Segment>& segments,
                                       std::uint64_t packed,
                                       std::uint16_t pair_id) {
  const std::int64_t extent = desc.extent();
  const bool contiguous =
      packed == 0 || (segments.size() == 1 && segments[0].count == 1 &&
                      segments[0].disp == desc.true_lb &&
                      static_cast<std::int64_t>(packed) == extent);
  if (contiguous) {
    return nullptr;
  }
  auto map = std::make_shared<TypeMap>();
  map->packed = packed;
  map->extent = extent;
  map->pair_id = pair_id;
  map->segments = segments;
  std::uint64_t at = 0;
  for (Segment& s : map->segments) {
    s.disp -= desc.true_lb;
    if (s.count == 1) {
      s.stride = static_cast<std::int64_t>(s.length);
    }
    map->starts.push_back(at);
    at += s.length * s.count;
  }
  return map;
}

// Flattens a composed description into its TypeMap (for a padded pair type:
// with its handle value, TypeMap::pair_id).
DescPtr finish(TypeDesc&& desc, std::uint16_t pair_id = 0) {
  if (desc.mixed) {
    desc.element = nullptr;
  }
  if (desc.packed == 0) {
    desc.true_lb = desc.true_ub = desc.lb;
    desc.segments.clear();
  }
  desc.map = flatten(desc, desc.segments, desc.packed, pair_id);
  if (desc.packed == 0 || desc.element == nullptr || !padded(*desc.element)) {
    desc.reduction_segments.clear();
    desc.reduction_packed = 0;
    desc.reduction_map = nullptr;
  } else {
    desc.reduction_map =
        flatten(desc, desc.reduction_segments, desc.reduction_packed, 0);
  }
  return std::make_shared<const TypeDesc>(std::move(desc));
}

// How many basic elements one predefined element counts as: the value-index
// pairs are structs of two (MPI 4.0 §6.9.4).
std::uint64_t basic_elements_of(const BasicType& type) {
  return type.cls == TypeClass::kPair ? 2 : 1;
}

}  // namespace

namespace {

DescPtr describe_basic(const BasicType& type) {
  TypeDesc d;
  d.basic = &type;
  d.size = type.size;
  d.basic_count = basic_elements_of(type);
  d.ub = type.extent;
  d.element = &type;
  d.element_count = 1;
  d.alignment = type.alignment;
  d.bounded = true;
  if (padded(type)) {
    // MPI 4.0 §6.9.4 defines a pair type by the type map of the struct of
    // its two fields, {(value, 0), (MPI_INT, offsetof(index))}, with the C
    // struct's extent: its packed form is the two fields' bytes, as for a
    // user struct of the same fields, and its true extent ends with the
    // index. finish() gives it a TypeMap, since packed != extent.
    const PairFields f = pair_fields(type);
    append(d.segments, Segment{0, 0, f.value_end, 1});
    append(d.segments, Segment{static_cast<std::int64_t>(f.index_begin), 0,
                               f.index_end - f.index_begin, 1});
    d.packed = type.size;
    d.true_ub = static_cast<std::int64_t>(f.index_end);
    // In reductions: the C struct, padding included (TypeDesc).
    d.reduction_segments.push_back(
        Segment{0, type.extent, static_cast<std::uint64_t>(type.extent), 1});
    d.reduction_packed = static_cast<std::uint64_t>(type.extent);
    return finish(std::move(d), type.id);
  }
  // Contiguous: packed form and memory agree.
  d.segments.push_back(
      Segment{0, type.extent, static_cast<std::uint64_t>(type.extent), 1});
  d.packed = static_cast<std::uint64_t>(type.extent);
  d.true_ub = type.extent;
  return std::make_shared<const TypeDesc>(std::move(d));
}

}  // namespace

const DescPtr& basic_desc(const BasicType& type) {
  // Built once for every predefined type (thread-safe static
  // initialization), then only read: no lock on the query paths.
  static const auto* const table = [] {
    auto* all = new std::array<DescPtr, 0x400>();  // never freed
    for (const BasicType& t : predefined_types()) {
      all->at(t.id) = describe_basic(t);
    }
    return all;
  }();
  return table->at(type.id);
}

const TypeMap* padded_pair_map(std::uint16_t pair_id) noexcept {
  const BasicType* type = find_predefined(pair_id);
  if (type == nullptr || !padded(*type)) {
    return nullptr;
  }
  return basic_desc(*type)->map.get();
}

std::uint64_t memory_span(const Layout& layout) noexcept {
  if (layout.map == nullptr) {
    return layout.bytes;
  }
  const TypeMap& map = *layout.map;
  SHMPI_ASSERT(map.pair_id != 0, "memory_span: not a padded pair's layout");
  const std::uint64_t elements = (layout.bytes + map.packed - 1) / map.packed;
  return elements * static_cast<std::uint64_t>(map.extent);
}

DescPtr make_contiguous(std::uint64_t count, const DescPtr& old) {
  TypeDesc d;
  place(d, *old, 0, count, old->extent());
  add_part(d, old, count);
  return finish(std::move(d));
}

DescPtr make_hvector(std::uint64_t count, std::uint64_t blocklength,
                     std::int64_t stride, const DescPtr& old) {
  TypeDesc block;
  place(block, *old, 0, blocklength, old->extent());
  TypeDesc d;
  place(d, block, 0, count, stride);
  add_part(d, old, count * blocklength);
  return finish(std::move(d));
}

DescPtr make_hindexed(std::span<const std::uint64_t> blocklengths,
                      std::span<const std::int64_t> displacements,
                      const DescPtr& old) {
  TypeDesc d;
  for (std::size_t i = 0; i < blocklengths.size(); ++i) {
    place(d, *old, displacements[i], blocklengths[i], old->extent());
    add_part(d, old, blocklengths[i]);
  }
  return finish(std::move(d));
}

DescPtr make_struct(std::span<const std::uint64_t> blocklengths,
                    std::span<const std::int64_t> displacements,
                    std::span<const DescPtr> types) {
  TypeDesc d;
  for (std::size_t i = 0; i < blocklengths.size(); ++i) {
    place(d, *types[i], displacements[i], blocklengths[i], types[i]->extent());
    add_part(d, types[i], blocklengths[i]);
  }
  // As MPICH does (MPI 4.0 §5.1.6 "epsilon"): round the extent up to the
  // largest alignment of the members, unless bounds were set explicitly.
  if (d.bounded && !d.explicit_bounds && d.alignment > 1) {
    const std::int64_t align = d.alignment;
    const std::int64_t rest = ((d.extent() % align) + align) % align;
    if (rest != 0) {
      d.ub += align - rest;
    }
  }
  return finish(std::move(d));
}

DescPtr make_resized(const DescPtr& old, std::int64_t lb, std::int64_t extent) {
  TypeDesc d = *old;
  d.basic = nullptr;
  d.parts.clear();
  add_part(d, old, 1);
  d.lb = lb;
  d.ub = lb + extent;
  d.bounded = true;
  d.explicit_bounds = true;
  d.map = nullptr;
  if (d.packed == 0) {
    d.true_lb = d.true_ub = 0;
  }
  return finish(std::move(d));
}

DescPtr make_subarray(std::span<const std::uint64_t> sizes,
                      std::span<const std::uint64_t> subsizes,
                      std::span<const std::uint64_t> starts, bool order_c,
                      const DescPtr& old) {
  const std::size_t n = sizes.size();
  // Dimension i from the fastest-varying one: its index in the arguments.
  auto dim = [&](std::size_t i) { return order_c ? n - 1 - i : i; };
  std::int64_t stride = old->extent();
  std::int64_t offset = 0;
  TypeDesc inner;
  place(inner, *old, 0, 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t d = dim(i);
    TypeDesc next;
    place(next, inner, 0, subsizes[d], stride);
    offset += static_cast<std::int64_t>(starts[d]) * stride;
    stride *= static_cast<std::int64_t>(sizes[d]);
    inner = std::move(next);
  }
  TypeDesc d;
  place(d, inner, offset, 1, 0);
  std::uint64_t total = 1;
  for (std::uint64_t s : subsizes) {
    total *= s;
  }
  add_part(d, old, total);
  // The subarray's extent is the whole array's (MPI 4.0 §5.1.3).
  d.lb = 0;
  d.ub = stride;
  d.bounded = true;
  d.explicit_bounds = true;
  return finish(std::move(d));
}

namespace {

template <typename P>
constexpr PairFields fields_of() {
  return {sizeof(P::value), offsetof(P, index),
          offsetof(P, index) + sizeof(P::index)};
}

}  // namespace

PairFields pair_fields(const BasicType& type) noexcept {
  switch (type.scalar) {
    case Scalar::kFloatInt:
      return fields_of<detail::FloatInt>();
    case Scalar::kDoubleInt:
      return fields_of<detail::DoubleInt>();
    case Scalar::kLongInt:
      return fields_of<detail::LongInt>();
    case Scalar::kIntInt:
      return fields_of<detail::IntInt>();
    case Scalar::kShortInt:
      return fields_of<detail::ShortInt>();
    case Scalar::kLongDoubleInt:
      return fields_of<detail::LongDoubleInt>();
    case Scalar::kFloatFloat:
      return fields_of<detail::FloatFloat>();
    case Scalar::kDoubleDouble:
      return fields_of<detail::DoubleDouble>();
    default:
      break;
  }
  // Not a pair: one indivisible element.
  return {type.size, type.size, type.size};
}

std::int64_t count_basic_elements(const TypeDesc& type, std::uint64_t bytes) {
  if (type.packed == 0) {
    return 0;
  }
  const std::uint64_t whole = bytes / type.packed;
  std::uint64_t rest = bytes % type.packed;
  auto count = static_cast<std::int64_t>(whole * type.basic_count);
  if (rest == 0) {
    return count;
  }
  if (type.basic != nullptr) {
    // A pair is two basic elements (MPI 4.0 §6.9.4 defines it as a struct
    // of its value and its index): a message with the value alone (a
    // prefix of the pair's signature), or MPI_Status_set_elements with an
    // odd count, ends after the value.
    // In packed form the index follows the value directly (describe_basic).
    if (type.basic->cls == TypeClass::kPair &&
        rest == pair_fields(*type.basic).value_end) {
      return count + 1;
    }
    return -1;  // ends inside a basic element
  }
  for (const Part& part : type.parts) {
    const TypeDesc& child = *part.child;
    const std::uint64_t span = part.copies * child.packed;
    if (rest >= span) {
      count += static_cast<std::int64_t>(part.copies * child.basic_count);
      rest -= span;
      continue;
    }
    const std::int64_t inner = count_basic_elements(child, rest);
    return inner < 0 ? -1 : count + inner;
  }
  return count;
}

std::uint64_t bytes_of_basic_elements(const TypeDesc& type,
                                      std::uint64_t elements) {
  if (type.basic_count == 0) {
    return 0;
  }
  std::uint64_t bytes = elements / type.basic_count * type.packed;
  std::uint64_t rest = elements % type.basic_count;
  if (rest == 0) {
    return bytes;
  }
  if (type.basic != nullptr) {
    // Only a pair has more than one basic element: `rest` is its value.
    return bytes + pair_fields(*type.basic).value_end;
  }
  for (const Part& part : type.parts) {
    const TypeDesc& child = *part.child;
    const std::uint64_t held = part.copies * child.basic_count;
    if (rest >= held) {
      bytes += part.copies * child.packed;
      rest -= held;
      continue;
    }
    return bytes + bytes_of_basic_elements(child, rest);
  }
  return bytes;
}

}  // namespace shmpi::datatype
