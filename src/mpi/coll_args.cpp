// SPDX-License-Identifier: MIT
// The collectives' shared argument checks (coll_args.hpp).
#include "mpi/coll_args.hpp"

namespace shmpi::mpi {

int check_counts(Comm* c, CountArray counts, int n, const char* what,
                 const char* function) {
  if (counts.is_null() && n > 0) {
    return fail(c, MPI_ERR_ARG, function, "%s is NULL", what);
  }
  for (int i = 0; i < n; ++i) {
    if (counts[i] < 0) {
      return fail(c, MPI_ERR_COUNT, function, "%s[%d] = %lld is negative", what,
                  i, static_cast<long long>(counts[i]));
    }
  }
  return MPI_SUCCESS;
}

int check_blocks(Comm* c, const void* buffer, CountArray counts,
                 CountArray displs, MPI_Datatype type, int n,
                 const char* buffer_name, const char* counts_name, TypeArg* arg,
                 datatype::Blocks* blocks, const char* function) {
  if (int rc = check_counts(c, counts, n, counts_name, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (displs.is_null() && n > 0) {
    return fail(c, MPI_ERR_ARG, function, "displs is NULL");
  }
  if (int rc = check_datatype(c, type, arg, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_in_place(c, buffer, buffer_name, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (blocks != nullptr) {
    blocks->reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      blocks->push_back(block(*arg, buffer, counts[i], displs[i]));
    }
  }
  return MPI_SUCCESS;
}

}  // namespace shmpi::mpi
