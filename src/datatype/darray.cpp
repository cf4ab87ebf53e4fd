// SPDX-License-Identifier: MIT
// Built as the standard defines it, one dimension at a time from the
// fastest-varying one: the process's blocks along the dimension (blocks of
// darg elements, every psize-th one starting at its grid coordinate; a
// block distribution is a cyclic one with one block each, no distribution
// one block of the whole dimension) as a strided run of whole blocks plus a
// shorter last block, resized to the whole dimension (lb 0, extent gsize
// times the inner extent). So the new type's extent is the whole global
// array. The process grid is row-major whatever the array order, as for
// Cartesian topologies.
#include "datatype/darray.hpp"

#include <algorithm>
#include <vector>

namespace shmpi::datatype {

namespace {

// The level of one dimension over `inner` (one element of the dimension),
// for the process at grid coordinate `coord` along it.
DescPtr distribute(const DarrayDimension& dim, std::int64_t coord,
                   const DescPtr& inner) {
  const std::int64_t unit = inner->extent();
  const std::int64_t block = darray_block(dim);
  const std::int64_t blocks = (dim.gsize + block - 1) / block;
  const std::int64_t owned =
      coord < blocks ? (blocks - coord + dim.psize - 1) / dim.psize : 0;
  std::vector<std::uint64_t> lengths;
  std::vector<std::int64_t> displacements;
  std::vector<DescPtr> parts;
  if (owned > 0) {
    const std::int64_t last_index = coord + (owned - 1) * dim.psize;
    const std::int64_t last_length =
        std::min(block, dim.gsize - last_index * block);
    const std::int64_t whole = last_length == block ? owned : owned - 1;
    if (whole > 0) {
      lengths.push_back(1);
      displacements.push_back(coord * block * unit);
      parts.push_back(make_hvector(static_cast<std::uint64_t>(whole),
                                   static_cast<std::uint64_t>(block),
                                   block * dim.psize * unit, inner));
    }
    if (whole < owned) {
      lengths.push_back(1);
      displacements.push_back(last_index * block * unit);
      parts.push_back(
          make_contiguous(static_cast<std::uint64_t>(last_length), inner));
    }
  }
  DescPtr owned_part = parts.empty()
                           ? make_contiguous(0, inner)
                           : make_struct(lengths, displacements, parts);
  return make_resized(owned_part, 0, dim.gsize * unit);
}

}  // namespace

std::int64_t darray_block(const DarrayDimension& dim) noexcept {
  switch (dim.distribution) {
    case Distribution::kNone:
      // As a cyclic distribution of one block of the whole dimension:
      // coordinate 0 holds it (with psize 1, as intended, everyone).
      return dim.gsize;
    case Distribution::kBlock:
      return dim.darg == 0 ? (dim.gsize + dim.psize - 1) / dim.psize : dim.darg;
    case Distribution::kCyclic:
      return dim.darg == 0 ? 1 : dim.darg;
  }
  return dim.gsize;
}

DescPtr make_darray(std::int64_t rank, std::span<const DarrayDimension> dims,
                    bool order_c, const DescPtr& old) {
  const std::size_t n = dims.size();
  // Row-major grid coordinates of `rank`.
  std::vector<std::int64_t> coords(n);
  std::int64_t rest = rank;
  for (std::size_t i = n; i-- > 0;) {
    coords[i] = rest % dims[i].psize;
    rest /= dims[i].psize;
  }
  DescPtr level = old;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = order_c ? n - 1 - k : k;
    level = distribute(dims[i], coords[i], level);
  }
  return level;
}

}  // namespace shmpi::datatype
