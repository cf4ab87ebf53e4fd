// SPDX-License-Identifier: MIT
// MPI_Type_create_darray (MPI 4.0 section 5.1.4): the part of a global
// array that one process of a process grid holds, with block, cyclic or no
// distribution in each dimension. This file checks the arguments and
// records them; datatype/darray.hpp builds the type.
//
// mpi.h takes MPI_DISTRIBUTE_DFLT_DARG from the MPI 5.0 ABI, where it is
// 19: an explicit darg of 19 cannot be told from it and means the default.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "datatype/darray.hpp"
#include "mpi/core.hpp"
#include "mpi/datatype.hpp"
#include "mpi/detail/pmpi.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace shmpi::mpi {

datatype::DarrayDimension darray_dimension(std::int64_t gsize, int distrib,
                                           int darg, int psize) {
  datatype::DarrayDimension d;
  d.gsize = gsize;
  d.distribution =
      distrib == MPI_DISTRIBUTE_BLOCK    ? datatype::Distribution::kBlock
      : distrib == MPI_DISTRIBUTE_CYCLIC ? datatype::Distribution::kCyclic
                                         : datatype::Distribution::kNone;
  d.darg = darg == MPI_DISTRIBUTE_DFLT_DARG ? 0 : darg;
  d.psize = psize;
  return d;
}

}  // namespace shmpi::mpi

namespace {

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
  std::vector<datatype::DarrayDimension> dims(n);
  std::int64_t processes = 1;
  for (std::size_t i = 0; i < n; ++i) {
    const auto gsize = static_cast<std::int64_t>(gsizes[i]);
    if (gsize <= 0 || psizes[i] <= 0) {
      return fail(nullptr, MPI_ERR_ARG, function,
                  "dimension %zu: gsize %lld and psize %d must be positive", i,
                  static_cast<long long>(gsize), psizes[i]);
    }
    processes *= psizes[i];
    if (processes > size) {
      break;  // reported below
    }
    if (dargs[i] != MPI_DISTRIBUTE_DFLT_DARG && dargs[i] <= 0) {
      return fail(nullptr, MPI_ERR_ARG, function,
                  "dimension %zu: darg %d is neither positive nor "
                  "MPI_DISTRIBUTE_DFLT_DARG",
                  i, dargs[i]);
    }
    if (distribs[i] != MPI_DISTRIBUTE_NONE &&
        distribs[i] != MPI_DISTRIBUTE_BLOCK &&
        distribs[i] != MPI_DISTRIBUTE_CYCLIC) {
      return fail(nullptr, MPI_ERR_ARG, function,
                  "dimension %zu: distribution %d is not "
                  "MPI_DISTRIBUTE_NONE, _BLOCK or _CYCLIC",
                  i, distribs[i]);
    }
    dims[i] = darray_dimension(gsize, distribs[i], dargs[i], psizes[i]);
    if (dims[i].distribution == datatype::Distribution::kBlock &&
        datatype::darray_block(dims[i]) * psizes[i] < gsize) {
      return fail(nullptr, MPI_ERR_ARG, function,
                  "dimension %zu: %d blocks of %d elements do not cover %lld",
                  i, psizes[i], dargs[i], static_cast<long long>(gsize));
    }
  }
  if (processes != size) {
    return fail(nullptr, MPI_ERR_ARG, function,
                "the process grid's sizes do not multiply to %d", size);
  }
  datatype::DescPtr level =
      datatype::make_darray(rank, dims, order == MPI_ORDER_C, old);

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
