// SPDX-License-Identifier: MIT
// MPI_T_pvar_get_num, _get_info and _get_index (MPI 4.0 section 15.3.7):
// the table in tool_pvars.cpp. Sessions and handles are in
// tool_pvar_session_api.cpp.
#include <mpi.h>

#include <cstring>

#include "mpi/detail/pmpi.hpp"
#include "mpi/tool.hpp"
#include "mpi/tool_strings.hpp"
#include "mpi/tool_vars.hpp"

using namespace shmpi::mpi;

extern "C" int PMPI_T_pvar_get_num(int* num_pvar) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (num_pvar == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  *num_pvar = static_cast<int>(tool::pvars().size());
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_pvar_get_num);

extern "C" int PMPI_T_pvar_get_info(int pvar_index, char* name, int* name_len,
                                    int* verbosity, int* var_class,
                                    MPI_Datatype* datatype,
                                    MPI_T_enum* enumtype, char* desc,
                                    int* desc_len, int* bind, int* readonly,
                                    int* continuous, int* atomic) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  const std::span<const tool::PvarInfo> all = tool::pvars();
  if (pvar_index < 0 || static_cast<std::size_t>(pvar_index) >= all.size()) {
    return MPI_T_ERR_INVALID_INDEX;
  }
  const tool::PvarInfo& info = all[static_cast<std::size_t>(pvar_index)];
  // Every output may be NULL: the caller asks for what it wants.
  tool::return_string(info.name, name, name_len);
  tool::return_string(info.description, desc, desc_len);
  const auto set = [](int* out, int value) {
    if (out != nullptr) {
      *out = value;
    }
  };
  set(verbosity, info.verbosity);
  set(var_class, info.var_class);
  set(bind, MPI_T_BIND_NO_OBJECT);
  set(readonly, info.readonly ? 1 : 0);
  set(continuous, info.continuous ? 1 : 0);
  set(atomic, info.atomic ? 1 : 0);
  if (datatype != nullptr) {
    *datatype = tool::datatype_of(tool::ValueType::kUnsignedLongLong);
  }
  if (enumtype != nullptr) {
    *enumtype = MPI_T_ENUM_NULL;
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_pvar_get_info);

extern "C" int PMPI_T_pvar_get_index(const char* name, int var_class,
                                     int* pvar_index) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (name == nullptr || pvar_index == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  // Names are unique within a class (MPI 4.0 section 15.3.7).
  const std::span<const tool::PvarInfo> all = tool::pvars();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i].var_class == var_class && std::strcmp(all[i].name, name) == 0) {
      *pvar_index = static_cast<int>(i);
      return MPI_SUCCESS;
    }
  }
  return MPI_T_ERR_INVALID_NAME;
}
SHMPI_PMPI_ALIAS(MPI_T_pvar_get_index);
