// SPDX-License-Identifier: MIT
// Error classes, codes and strings the program adds (MPI 4.0 section 9.5):
// MPI_Add_error_class, MPI_Add_error_code, MPI_Add_error_string. The
// numbering and the strings live in mpi/errors.cpp; MPI_Error_class,
// MPI_Error_string and the MPI_LASTUSEDCODE attribute see them.
#include <mpi.h>

#include <cstring>

#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/errors.hpp"

using namespace shmpi::mpi;

extern "C" int PMPI_Add_error_class(int* errorclass) noexcept {
  constexpr const char* kFunction = "MPI_Add_error_class";
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (errorclass == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, kFunction, "errorclass is NULL");
  }
  if (add_error_class(errorclass) != MPI_SUCCESS) {
    return fail(nullptr, MPI_ERR_NO_MEM, kFunction,
                "no room for another error class or code (%d in use)",
                kMaxUserCodes);
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Add_error_class);

extern "C" int PMPI_Add_error_code(int errorclass, int* errorcode) noexcept {
  constexpr const char* kFunction = "MPI_Add_error_code";
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (errorcode == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, kFunction, "errorcode is NULL");
  }
  switch (add_error_code(errorclass, errorcode)) {
    case MPI_SUCCESS:
      return MPI_SUCCESS;
    case MPI_ERR_ARG:
      return fail(nullptr, MPI_ERR_ARG, kFunction,
                  "%d is not an error class (predefined or added)", errorclass);
    default:
      return fail(nullptr, MPI_ERR_NO_MEM, kFunction,
                  "no room for another error class or code (%d in use)",
                  kMaxUserCodes);
  }
}
SHMPI_PMPI_ALIAS(MPI_Add_error_code);

extern "C" int PMPI_Add_error_string(int errorcode,
                                     const char* string) noexcept {
  constexpr const char* kFunction = "MPI_Add_error_string";
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (string == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, kFunction, "string is NULL");
  }
  // "No more than MPI_MAX_ERROR_STRING characters long"; MPI_Error_string
  // returns at most MPI_MAX_ERROR_STRING - 1 of them and the NUL.
  const std::size_t length = strnlen(string, MPI_MAX_ERROR_STRING + 1);
  if (length > MPI_MAX_ERROR_STRING) {
    return fail(nullptr, MPI_ERR_ARG, kFunction,
                "the string is longer than MPI_MAX_ERROR_STRING (%d)",
                MPI_MAX_ERROR_STRING);
  }
  if (errorcode <= MPI_ERR_LASTCODE) {
    return fail(nullptr, MPI_ERR_ARG, kFunction,
                "%d is a predefined error class or code, whose string cannot "
                "change",
                errorcode);
  }
  if (add_error_string(errorcode, std::string_view(string, length)) !=
      MPI_SUCCESS) {
    return fail(nullptr, MPI_ERR_ARG, kFunction,
                "%d is not an error class or code added by the program",
                errorcode);
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Add_error_string);
