// SPDX-License-Identifier: MIT
// MPI_T_enum_get_info and MPI_T_enum_get_item (MPI 4.0 section 15.3.5).
#include <mpi.h>

#include "mpi/detail/pmpi.hpp"
#include "mpi/tool.hpp"
#include "mpi/tool_enums.hpp"
#include "mpi/tool_strings.hpp"

using namespace shmpi::mpi;

extern "C" int PMPI_T_enum_get_info(MPI_T_enum enumtype, int* num, char* name,
                                    int* name_len) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  const tool::EnumType* type = tool::find_enum(enumtype);
  if (type == nullptr) {
    return MPI_T_ERR_INVALID_HANDLE;
  }
  if (num == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  *num = static_cast<int>(type->items.size());
  tool::return_string(type->name, name, name_len);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_enum_get_info);

extern "C" int PMPI_T_enum_get_item(MPI_T_enum enumtype, int indx, int* value,
                                    char* name, int* name_len) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  const tool::EnumType* type = tool::find_enum(enumtype);
  if (type == nullptr) {
    return MPI_T_ERR_INVALID_HANDLE;
  }
  if (indx < 0 || static_cast<std::size_t>(indx) >= type->items.size()) {
    return MPI_T_ERR_INVALID_INDEX;
  }
  if (value == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  const tool::EnumItem& item = type->items[static_cast<std::size_t>(indx)];
  *value = item.value;
  tool::return_string(item.name, name, name_len);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_enum_get_item);
