// SPDX-License-Identifier: MIT
// MPI_Type_match_size (MPI 4.0 section 19.1.9): the predefined named
// datatype of a type class and size in bytes. As in MPICH, the answers are
// the sized Fortran types a compiler provides (INTEGER*1..8, REAL*4..16,
// COMPLEX*8..32); any other size is refused with MPI_ERR_ARG, the standard
// calling it erroneous.
#include <mpi.h>

#include <array>

#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"

using namespace shmpi::mpi;

namespace {

struct SizedType {
  int size;
  MPI_Datatype type;
};

MPI_Datatype match(int typeclass, int size) {
  const std::array<SizedType, 4> integers = {{{1, MPI_INTEGER1},
                                              {2, MPI_INTEGER2},
                                              {4, MPI_INTEGER4},
                                              {8, MPI_INTEGER8}}};
  const std::array<SizedType, 3> reals = {
      {{4, MPI_REAL4}, {8, MPI_REAL8}, {16, MPI_REAL16}}};
  const std::array<SizedType, 3> complexes = {
      {{8, MPI_COMPLEX8}, {16, MPI_COMPLEX16}, {32, MPI_COMPLEX32}}};
  auto find = [size](const auto& table) {
    for (const SizedType& entry : table) {
      if (entry.size == size) {
        return entry.type;
      }
    }
    return MPI_DATATYPE_NULL;
  };
  switch (typeclass) {
    case MPI_TYPECLASS_INTEGER:
      return find(integers);
    case MPI_TYPECLASS_REAL:
      return find(reals);
    case MPI_TYPECLASS_COMPLEX:
      return find(complexes);
    default:
      return MPI_DATATYPE_NULL;
  }
}

}  // namespace

extern "C" int PMPI_Type_match_size(int typeclass, int size,
                                    MPI_Datatype* datatype) noexcept {
  constexpr const char* kFunction = "MPI_Type_match_size";
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (datatype == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, kFunction, "datatype is NULL");
  }
  if (typeclass != MPI_TYPECLASS_INTEGER && typeclass != MPI_TYPECLASS_REAL &&
      typeclass != MPI_TYPECLASS_COMPLEX) {
    return fail(nullptr, MPI_ERR_ARG, kFunction,
                "typeclass %d is not MPI_TYPECLASS_INTEGER, _REAL or _COMPLEX",
                typeclass);
  }
  const MPI_Datatype found = match(typeclass, size);
  if (found == MPI_DATATYPE_NULL) {
    return fail(nullptr, MPI_ERR_ARG, kFunction,
                "no predefined %s type of %d bytes",
                typeclass == MPI_TYPECLASS_INTEGER ? "integer"
                : typeclass == MPI_TYPECLASS_REAL  ? "real"
                                                   : "complex",
                size);
  }
  *datatype = found;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Type_match_size);
