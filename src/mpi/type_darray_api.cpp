// SPDX-License-Identifier: MIT
// MPI_Type_create_darray (MPI 4.0 section 5.1.4): the part of a global
// array that one process of a process grid holds, with block, cyclic or no
// distribution in each dimension.
//
// Built as the standard defines it, one dimension at a time from the
// fastest-varying one: the process's blocks along the dimension (blocks of
// darg elements, every psize-th one starting at its grid coordinate; a
// block distribution is a cyclic one with one block each, no distribution
// one block of the whole dimension) as a strided run
// of whole blocks plus a shorter last block, resized to the whole
// dimension (lb 0, extent gsize times the inner extent). So the new type's
// extent is the whole global array. The process grid is row-major
// whatever the array order, as for Cartesian topologies.
//
// mpi.h takes MPI_DISTRIBUTE_DFLT_DARG from the MPI 5.0 ABI, where it is
// 19: an explicit darg of 19 cannot be told from it and means the default.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "mpi/core.hpp"
#include "mpi/datatype.hpp"
#include "mpi/detail/pmpi.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

// One dimension of the distribution, validated.
struct Dimension {
  std::int64_t gsize;
  std::int64_t block;  // elements per block
  std::int64_t psize;
  std::int64_t coord;  // this process's coordinate in the grid
};

// The level of dimension `dim` over `inner` (one element of the dimension).
datatype::DescPtr distribute(const Dimension& dim,
                             const datatype::DescPtr& inner) {
  const std::int64_t unit = inner->extent();
  const std::int64_t blocks = (dim.gsize + dim.block - 1) / dim.block;
  const std::int64_t owned =
      dim.coord < blocks ? (blocks - dim.coord + dim.psize - 1) / dim.psize : 0;
  std::vector<std::uint64_t> lengths;
  std::vector<std::int64_t> displacements;
  std::vector<datatype::DescPtr> parts;
  if (owned > 0) {
    const std::int64_t last_index = dim.coord + (owned - 1) * dim.psize;
    const std::int64_t last_length =
        std::min(dim.block, dim.gsize - last_index * dim.block);
    const std::int64_t whole = last_length == dim.block ? owned : owned - 1;
    if (whole > 0) {
      lengths.push_back(1);
      displacements.push_back(dim.coord * dim.block * unit);
      parts.push_back(
          datatype::make_hvector(static_cast<std::uint64_t>(whole),
                                 static_cast<std::uint64_t>(dim.block),
                                 dim.block * dim.psize * unit, inner));
    }
    if (whole < owned) {
      lengths.push_back(1);
      displacements.push_back(last_index * dim.block * unit);
      parts.push_back(datatype::make_contiguous(
          static_cast<std::uint64_t>(last_length), inner));
    }
  }
  datatype::DescPtr owned_part =
      parts.empty() ? datatype::make_contiguous(0, inner)
                    : datatype::make_struct(lengths, displacements, parts);
  return datatype::make_resized(owned_part, 0, dim.gsize * unit);
}

template <typename C>
int darray_impl(int size, int rank, int ndims, const C* gsizes,
                const int* distribs, const int* dargs, const int* psizes,
                int order, MPI_Datatype oldtype, MPI_Datatype* newtype,
                const char* function) {
  datatype::DescPtr old;
  if (int rc = check_constructor(oldtype, newtype, &old, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (size <= 0) {
    return fail(nullptr, MPI_ERR_ARG, function, "size %d is not positive",
                size);
  }
  if (rank < 0 || rank >= size) {
    return fail(nullptr, MPI_ERR_RANK, function,
                "rank %d is not in a grid of %d processes", rank, size);
  }
  if (int rc = check_array_shape(ndims, order, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (gsizes == nullptr || distribs == nullptr || dargs == nullptr ||
      psizes == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "NULL array argument");
  }
  const auto n = static_cast<std::size_t>(ndims);
  std::vector<Dimension> dims(n);
  std::int64_t processes = 1;
  for (std::size_t i = 0; i < n; ++i) {
    Dimension& d = dims[i];
    d.gsize = static_cast<std::int64_t>(gsizes[i]);
    d.psize = psizes[i];
    if (d.gsize <= 0 || d.psize <= 0) {
      return fail(nullptr, MPI_ERR_ARG, function,
                  "dimension %zu: gsize %lld and psize %d must be positive", i,
                  static_cast<long long>(d.gsize), psizes[i]);
    }
    processes *= d.psize;
    if (processes > size) {
      break;  // reported below
    }
    const bool dflt = dargs[i] == MPI_DISTRIBUTE_DFLT_DARG;
    if (!dflt && dargs[i] <= 0) {
      return fail(nullptr, MPI_ERR_ARG, function,
                  "dimension %zu: darg %d is neither positive nor "
                  "MPI_DISTRIBUTE_DFLT_DARG",
                  i, dargs[i]);
    }
    switch (distribs[i]) {
      case MPI_DISTRIBUTE_NONE:
        // As a cyclic distribution of one block of the whole dimension:
        // coordinate 0 holds it (with psize 1, as intended, everyone).
        d.block = d.gsize;
        break;
      case MPI_DISTRIBUTE_BLOCK:
        d.block = dflt ? (d.gsize + d.psize - 1) / d.psize : dargs[i];
        if (d.block * d.psize < d.gsize) {
          return fail(nullptr, MPI_ERR_ARG, function,
                      "dimension %zu: %d blocks of %d elements do not cover "
                      "%lld",
                      i, psizes[i], dargs[i], static_cast<long long>(d.gsize));
        }
        break;
      case MPI_DISTRIBUTE_CYCLIC:
        d.block = dflt ? 1 : dargs[i];
        break;
      default:
        return fail(nullptr, MPI_ERR_ARG, function,
                    "dimension %zu: distribution %d is not "
                    "MPI_DISTRIBUTE_NONE, _BLOCK or _CYCLIC",
                    i, distribs[i]);
    }
  }
  if (processes != size) {
    return fail(nullptr, MPI_ERR_ARG, function,
                "the process grid's sizes do not multiply to %d", size);
  }
  // Row-major grid coordinates of `rank`.
  std::int64_t rest = rank;
  for (std::size_t i = n; i-- > 0;) {
    dims[i].coord = rest % dims[i].psize;
    rest /= dims[i].psize;
  }

  datatype::DescPtr level = old;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = order == MPI_ORDER_C ? n - 1 - k : k;
    level = distribute(dims[i], level);
  }

  // MPI_Type_get_contents: size, rank, ndims, gsizes (large counts in the
  // _c form), distribs, dargs, psizes, order.
  std::vector<int> ints{size, rank, ndims};
  std::vector<MPI_Count> large;
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<C, MPI_Count>) {
      large.push_back(gsizes[i]);
    } else {
      ints.push_back(gsizes[i]);
    }
  }
  for (const int* array : {distribs, dargs, psizes}) {
    ints.insert(ints.end(), array, array + n);
  }
  ints.push_back(order);
  return make_handle(std::move(level), MPI_COMBINER_DARRAY, std::move(ints), {},
                     std::move(large), {oldtype}, newtype, function);
}

}  // namespace

extern "C" int PMPI_Type_create_darray(int size, int rank, int ndims,
                                       const int array_of_gsizes[],
                                       const int array_of_distribs[],
                                       const int array_of_dargs[],
                                       const int array_of_psizes[], int order,
                                       MPI_Datatype oldtype,
                                       MPI_Datatype* newtype) noexcept {
  return darray_impl(size, rank, ndims, array_of_gsizes, array_of_distribs,
                     array_of_dargs, array_of_psizes, order, oldtype, newtype,
                     "MPI_Type_create_darray");
}
SHMPI_PMPI_ALIAS(MPI_Type_create_darray);

extern "C" int PMPI_Type_create_darray_c(int size, int rank, int ndims,
                                         const MPI_Count array_of_gsizes[],
                                         const int array_of_distribs[],
                                         const int array_of_dargs[],
                                         const int array_of_psizes[], int order,
                                         MPI_Datatype oldtype,
                                         MPI_Datatype* newtype) noexcept {
  return darray_impl(size, rank, ndims, array_of_gsizes, array_of_distribs,
                     array_of_dargs, array_of_psizes, order, oldtype, newtype,
                     "MPI_Type_create_darray_c");
}
SHMPI_PMPI_ALIAS(MPI_Type_create_darray_c);
