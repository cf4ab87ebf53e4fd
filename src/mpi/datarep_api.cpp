// SPDX-License-Identifier: MIT
// MPI_Register_datarep and MPI_Register_datarep_c (MPI 4.0 §14.5.3): a
// local call that adds a data representation to this process, for
// MPI_File_set_view. Errors go to MPI_FILE_NULL's handler (§14.7: errors
// tied to no file).
#include <mpi.h>

#include <cstring>
#include <type_traits>
#include <utility>

#include "mpi/core.hpp"
#include "mpi/datarep.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/file.hpp"

using namespace shmpi::mpi;

namespace {

template <typename Fn>
int register_impl(const char* datarep, Fn* read, Fn* write,
                  MPI_Datarep_extent_function* file_extent, void* extra_state,
                  const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (datarep == nullptr) {
    return fail_file(nullptr, MPI_ERR_ARG, function, "datarep is NULL");
  }
  const std::size_t length = ::strnlen(datarep, MPI_MAX_DATAREP_STRING);
  if (length == 0) {
    return fail_file(nullptr, MPI_ERR_ARG, function, "datarep is empty");
  }
  if (length == MPI_MAX_DATAREP_STRING) {
    return fail_file(nullptr, MPI_ERR_ARG, function,
                     "datarep \"%.32s...\" is longer than "
                     "MPI_MAX_DATAREP_STRING - 1 (%d) characters",
                     datarep, MPI_MAX_DATAREP_STRING - 1);
  }
  if (file_extent == nullptr) {
    return fail_file(nullptr, MPI_ERR_ARG, function,
                     "dtype_file_extent_fn is NULL");
  }
  Datarep rep;
  rep.name = datarep;
  rep.file_extent = file_extent;
  rep.extra_state = extra_state;
  if constexpr (std::is_same_v<Fn, MPI_Datarep_conversion_function_c>) {
    rep.large = true;
    rep.read_fn_c = read;
    rep.write_fn_c = write;
  } else {
    rep.read_fn = read;
    rep.write_fn = write;
  }
  if (!register_datarep(std::move(rep))) {
    return fail_file(nullptr, MPI_ERR_DUP_DATAREP, function,
                     "a data representation called \"%s\" exists already",
                     datarep);
  }
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Register_datarep(
    const char* datarep, MPI_Datarep_conversion_function* read_conversion_fn,
    MPI_Datarep_conversion_function* write_conversion_fn,
    MPI_Datarep_extent_function* dtype_file_extent_fn,
    void* extra_state) noexcept {
  return register_impl(datarep, read_conversion_fn, write_conversion_fn,
                       dtype_file_extent_fn, extra_state,
                       "MPI_Register_datarep");
}
SHMPI_PMPI_ALIAS(MPI_Register_datarep);

extern "C" int PMPI_Register_datarep_c(
    const char* datarep, MPI_Datarep_conversion_function_c* read_conversion_fn,
    MPI_Datarep_conversion_function_c* write_conversion_fn,
    MPI_Datarep_extent_function* dtype_file_extent_fn,
    void* extra_state) noexcept {
  return register_impl(datarep, read_conversion_fn, write_conversion_fn,
                       dtype_file_extent_fn, extra_state,
                       "MPI_Register_datarep_c");
}
SHMPI_PMPI_ALIAS(MPI_Register_datarep_c);
