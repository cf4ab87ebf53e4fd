// SPDX-License-Identifier: MIT
// MPI_Type_create_f90_real, _complex and _integer (MPI 4.0 §19.1.9): the
// datatype of a Fortran REAL, COMPLEX or INTEGER of the kind
// SELECTED_REAL_KIND(p, r) / SELECTED_INT_KIND(r) selects
// (datatype/fortran_kinds.hpp). The standard makes them predefined: each
// (combiner, p, r) gets one handle, made at its first call and kept until
// the runtime ends, that the program cannot free; it describes the kind's
// predefined type, so it moves and reduces as that type does, and its
// envelope and contents give the arguments back.
#include <mpi.h>

#include <map>
#include <mutex>
#include <optional>
#include <tuple>
#include <vector>

#include "datatype/fortran_kinds.hpp"
#include "mpi/core.hpp"
#include "mpi/datatype.hpp"
#include "mpi/detail/pmpi.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

// (combiner, p, r) -> the handle made for it. The cache holds one reference
// on each, which release_f90_types() drops.
struct F90Cache {
  std::mutex mutex;
  std::map<std::tuple<int, int, int>, MPI_Datatype> handles;
};
F90Cache& cache() {
  static auto* instance = new F90Cache();  // never freed: no static dtors
  return *instance;
}

std::optional<int> given(int value) {
  return value == MPI_UNDEFINED ? std::nullopt : std::optional<int>(value);
}

// The cached handle of `combiner` with `integers` (the arguments as given,
// MPI_UNDEFINED included) over the predefined type `type`.
int f90_handle(int combiner, std::vector<int> integers, std::uintptr_t type,
               MPI_Datatype* newtype, const char* function) {
  const auto key = std::make_tuple(combiner, integers[0],
                                   integers.size() > 1 ? integers[1] : 0);
  F90Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (auto it = c.handles.find(key); it != c.handles.end()) {
    *newtype = it->second;
    return MPI_SUCCESS;
  }
  MPI_Datatype made = MPI_DATATYPE_NULL;
  if (int rc =
          make_handle(describe(reinterpret_cast<MPI_Datatype>(type)), combiner,
                      std::move(integers), {}, {}, {}, &made, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  find_derived(made)->committed = true;  // predefined: usable at once
  c.handles.emplace(key, made);
  *newtype = made;
  return MPI_SUCCESS;
}

int check_common(MPI_Datatype* newtype, const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (newtype == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "newtype is NULL");
  }
  return MPI_SUCCESS;
}

int real_or_complex(int p, int r, bool complex, MPI_Datatype* newtype,
                    const char* function) {
  if (int rc = check_common(newtype, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (p == MPI_UNDEFINED && r == MPI_UNDEFINED) {
    return fail(nullptr, MPI_ERR_ARG, function,
                "p and r are both MPI_UNDEFINED");
  }
  const datatype::FortranKind* kind =
      datatype::selected_real_kind(given(p), given(r));
  if (kind == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function,
                "no Fortran %s kind has precision %d and range %d",
                complex ? "COMPLEX" : "REAL", p, r);
  }
  return f90_handle(complex ? MPI_COMBINER_F90_COMPLEX : MPI_COMBINER_F90_REAL,
                    {p, r}, complex ? kind->complex_type : kind->type, newtype,
                    function);
}

}  // namespace

namespace shmpi::mpi {

void release_f90_types() noexcept {
  F90Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  for (const auto& entry : c.handles) {
    release(find_derived(entry.second));
  }
  c.handles.clear();
}

}  // namespace shmpi::mpi

extern "C" int PMPI_Type_create_f90_real(int p, int r,
                                         MPI_Datatype* newtype) noexcept {
  return real_or_complex(p, r, false, newtype, "MPI_Type_create_f90_real");
}
SHMPI_PMPI_ALIAS(MPI_Type_create_f90_real);

extern "C" int PMPI_Type_create_f90_complex(int p, int r,
                                            MPI_Datatype* newtype) noexcept {
  return real_or_complex(p, r, true, newtype, "MPI_Type_create_f90_complex");
}
SHMPI_PMPI_ALIAS(MPI_Type_create_f90_complex);

extern "C" int PMPI_Type_create_f90_integer(int r,
                                            MPI_Datatype* newtype) noexcept {
  constexpr const char* kFunction = "MPI_Type_create_f90_integer";
  if (int rc = check_common(newtype, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (r == MPI_UNDEFINED) {
    return fail(nullptr, MPI_ERR_ARG, kFunction, "r is MPI_UNDEFINED");
  }
  const datatype::FortranKind* kind = datatype::selected_int_kind(r);
  if (kind == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, kFunction,
                "no Fortran INTEGER kind has range %d", r);
  }
  return f90_handle(MPI_COMBINER_F90_INTEGER, {r}, kind->type, newtype,
                    kFunction);
}
SHMPI_PMPI_ALIAS(MPI_Type_create_f90_integer);
