// SPDX-License-Identifier: MIT
// MPI_T_source_*: the one event source, CLOCK_MONOTONIC in nanoseconds, the
// clock of MPI_Wtime (MPI 4.0 section 15.3.8, "Event Sources").
#include <mpi.h>

#include <limits>

#include "mpi/detail/pmpi.hpp"
#include "mpi/info.hpp"
#include "mpi/tool.hpp"
#include "mpi/tool_events.hpp"

using namespace shmpi::mpi;

namespace {

constexpr const char* kSourceName = "shmpi_clock";
constexpr const char* kSourceDescription =
    "every shmpi event, stamped in the thread that raises it with "
    "CLOCK_MONOTONIC in nanoseconds: the clock of MPI_Wtime, so "
    "timestamp / ticks_per_second is an MPI_Wtime value, comparable across "
    "the ranks of the machine";

}  // namespace

extern "C" int PMPI_T_source_get_num(int* num_sources) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (num_sources == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  *num_sources = tool::kSourceCount;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_source_get_num);

extern "C" int PMPI_T_source_get_info(int source_index, char* name,
                                      int* name_len, char* desc, int* desc_len,
                                      MPI_T_source_order* ordering,
                                      MPI_Count* ticks_per_second,
                                      MPI_Count* max_ticks,
                                      MPI_Info* info) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (source_index < 0 || source_index >= tool::kSourceCount) {
    return MPI_T_ERR_INVALID_INDEX;
  }
  if (info != nullptr) {
    Info* created = create_info();
    if (created == nullptr) {
      return MPI_T_ERR_MEMORY;
    }
    try {
      created->set("shmpi_clock", "CLOCK_MONOTONIC");
      created->set("shmpi_wtime_compatible", "true");
    } catch (const std::bad_alloc&) {
      destroy_info(created);
      return MPI_T_ERR_MEMORY;
    }
    *info = to_handle(created);  // a new object the program frees
  }
  tool::return_string(kSourceName, name, name_len);
  tool::return_string(kSourceDescription, desc, desc_len);
  if (ordering != nullptr) {
    // Events of one thread come in time order; the callbacks run in the
    // raising thread before the call that raised the event goes on.
    *ordering = MPI_T_SOURCE_ORDERED;
  }
  if (ticks_per_second != nullptr) {
    *ticks_per_second = tool::kTicksPerSecond;
  }
  if (max_ticks != nullptr) {
    // Nanoseconds since boot in 63 bits: no wrap for 292 years.
    *max_ticks = std::numeric_limits<MPI_Count>::max();
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_source_get_info);

extern "C" int PMPI_T_source_get_timestamp(int source_index,
                                           MPI_Count* timestamp) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (source_index < 0 || source_index >= tool::kSourceCount) {
    return MPI_T_ERR_INVALID_INDEX;
  }
  if (timestamp == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  *timestamp = tool::source_timestamp();
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_source_get_timestamp);
