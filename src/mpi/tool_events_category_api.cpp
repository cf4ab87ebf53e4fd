// SPDX-License-Identifier: MIT
// The two category calls about events (MPI 4.0 section 15.3.9):
// MPI_T_category_get_num_events and MPI_T_category_get_events.
#include <mpi.h>

#include "mpi/detail/pmpi.hpp"
#include "mpi/tool.hpp"
#include "mpi/tool_events.hpp"

using namespace shmpi::mpi;

extern "C" int PMPI_T_category_get_num_events(int cat_index,
                                              int* num_events) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (cat_index < 0 || cat_index >= tool::kCategoryCount) {
    return MPI_T_ERR_INVALID_INDEX;
  }
  if (num_events == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  *num_events = tool::events_in_category(cat_index);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_category_get_num_events);

extern "C" int PMPI_T_category_get_events(int cat_index, int len,
                                          int indices[]) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (cat_index < 0 || cat_index >= tool::kCategoryCount) {
    return MPI_T_ERR_INVALID_INDEX;
  }
  if (len < 0 || (len > 0 && indices == nullptr)) {
    return MPI_T_ERR_INVALID;
  }
  // The first len event indices of the category (MPI 4.0: "at most len").
  tool::event_types_in_category(cat_index, len, indices);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_category_get_events);
