// SPDX-License-Identifier: MIT
// Weak fallback for shmpi_mpi_unsupported, so that libshmpi links and its
// stubs work before (and without) the runtime's error-handler version.
#include <mpi.h>

#include <cstdio>

#include "base/log.hpp"
#include "mpi/detail/unsupported.hpp"
#include "mpi/errors.hpp"

extern "C" [[gnu::weak]] int shmpi_mpi_unsupported(
    const char* function_name) noexcept {
  if (function_name == nullptr) {
    function_name = "this MPI function";
  }
  shmpi::base::log_error("%s is not supported by shmpi yet", function_name);
  char detail[128];
  std::snprintf(detail, sizeof detail, "%s is not supported by shmpi",
                function_name);
  return shmpi::mpi::make_error_code(MPI_ERR_UNSUPPORTED_OPERATION, detail);
}
