// SPDX-License-Identifier: MIT
// The type MPI_Type_create_darray builds (MPI 4.0 §5.1.4), from its old
// type's description: kept apart from the MPI entry point so that MPI-IO can
// rebuild a darray over another old type (the file form of a filetype,
// mpi/file_type.hpp).
#pragma once

#include <cstdint>
#include <span>

#include "datatype/type_map.hpp"

namespace shmpi::datatype {

enum class Distribution : std::uint8_t { kNone, kBlock, kCyclic };

// One dimension of the global array as the program gave it, validated by
// the caller: gsize and psize positive, darg positive or 0 for the default
// (MPI_DISTRIBUTE_DFLT_DARG), and a block distribution's blocks cover the
// dimension.
struct DarrayDimension {
  std::int64_t gsize = 1;
  Distribution distribution = Distribution::kNone;
  std::int64_t darg = 0;
  std::int64_t psize = 1;
};

// Elements per block along `dim`: a block distribution's darg (default: the
// dimension split evenly, rounded up), a cyclic one's (default 1), or the
// whole dimension when it is not distributed.
[[nodiscard]] std::int64_t darray_block(const DarrayDimension& dim) noexcept;

// The part of the global array `dims` (in argument order) that process
// `rank` of the row-major process grid holds, in elements of `old`.
// order_c: MPI_ORDER_C (the last dimension varies fastest). The extent is
// the whole global array's.
DescPtr make_darray(std::int64_t rank, std::span<const DarrayDimension> dims,
                    bool order_c, const DescPtr& old);

}  // namespace shmpi::datatype
