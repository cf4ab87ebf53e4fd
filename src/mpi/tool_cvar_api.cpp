// SPDX-License-Identifier: MIT
// The MPI_T_cvar_* calls (MPI 4.0 section 15.3.6): the table in
// tool_cvars.cpp, and handles that name one of its entries. Handles are
// heap objects listed under tool::state_mutex(), so a stale or foreign
// pointer is recognised instead of followed.
#include <mpi.h>

#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "mpi/detail/pmpi.hpp"
#include "mpi/tool.hpp"
#include "mpi/tool_live_objects.hpp"
#include "mpi/tool_strings.hpp"
#include "mpi/tool_vars.hpp"

namespace shmpi::mpi::tool {
namespace {

struct CvarHandle {
  int index;
};

using CvarHandles = LiveObjects<CvarHandle, MPI_T_cvar_handle>;

// Live handles. Guarded by state_mutex().
CvarHandles& cvar_handles() {
  static auto* handles = new CvarHandles();
  return *handles;
}

const CvarInfo* cvar_at(int index) {
  const std::span<const CvarInfo> all = cvars();
  if (index < 0 || static_cast<std::size_t>(index) >= all.size()) {
    return nullptr;
  }
  return &all[static_cast<std::size_t>(index)];
}

// The entry a live handle names, or nullptr. Takes the lock.
const CvarInfo* cvar_of(MPI_T_cvar_handle handle) {
  const std::lock_guard lock(state_mutex());
  const CvarHandle* live = cvar_handles().find(handle);
  return live != nullptr ? cvar_at(live->index) : nullptr;
}

}  // namespace
}  // namespace shmpi::mpi::tool

using namespace shmpi::mpi;

extern "C" int PMPI_T_cvar_get_num(int* num_cvar) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (num_cvar == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  *num_cvar = static_cast<int>(tool::cvars().size());
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_cvar_get_num);

extern "C" int PMPI_T_cvar_get_info(int cvar_index, char* name, int* name_len,
                                    int* verbosity, MPI_Datatype* datatype,
                                    MPI_T_enum* enumtype, char* desc,
                                    int* desc_len, int* bind,
                                    int* scope) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  const tool::CvarInfo* info = tool::cvar_at(cvar_index);
  if (info == nullptr) {
    return MPI_T_ERR_INVALID_INDEX;
  }
  // Every output may be NULL: the caller asks for what it wants.
  tool::return_string(info->name, name, name_len);
  tool::return_string(info->description, desc, desc_len);
  if (verbosity != nullptr) {
    *verbosity = info->verbosity;
  }
  if (datatype != nullptr) {
    *datatype = tool::datatype_of(info->type);
  }
  if (enumtype != nullptr) {
    *enumtype = info->enumtype == nullptr ? MPI_T_ENUM_NULL
                                          : tool::enum_handle(*info->enumtype);
  }
  if (bind != nullptr) {
    *bind = MPI_T_BIND_NO_OBJECT;
  }
  if (scope != nullptr) {
    *scope = info->scope;
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_cvar_get_info);

extern "C" int PMPI_T_cvar_get_index(const char* name,
                                     int* cvar_index) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (name == nullptr || cvar_index == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  const std::span<const tool::CvarInfo> all = tool::cvars();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (std::strcmp(all[i].name, name) == 0) {
      *cvar_index = static_cast<int>(i);
      return MPI_SUCCESS;
    }
  }
  return MPI_T_ERR_INVALID_NAME;
}
SHMPI_PMPI_ALIAS(MPI_T_cvar_get_index);

extern "C" int PMPI_T_cvar_handle_alloc(int cvar_index, void* /*obj_handle*/,
                                        MPI_T_cvar_handle* handle,
                                        int* count) noexcept {
  // obj_handle is ignored: every variable binds MPI_T_BIND_NO_OBJECT.
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (tool::cvar_at(cvar_index) == nullptr) {
    return MPI_T_ERR_INVALID_INDEX;
  }
  if (handle == nullptr || count == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  try {
    std::unique_ptr<tool::CvarHandle> object(new tool::CvarHandle{cvar_index});
    const std::lock_guard lock(tool::state_mutex());
    *handle = tool::cvar_handles().add(std::move(object));
  } catch (const std::bad_alloc&) {
    return MPI_T_ERR_MEMORY;
  }
  *count = 1;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_cvar_handle_alloc);

extern "C" int PMPI_T_cvar_handle_free(MPI_T_cvar_handle* handle) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (handle == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  const std::lock_guard lock(tool::state_mutex());
  if (!tool::cvar_handles().erase(*handle)) {
    return MPI_T_ERR_INVALID_HANDLE;
  }
  *handle = MPI_T_CVAR_HANDLE_NULL;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_cvar_handle_free);

extern "C" int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void* buf) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  const tool::CvarInfo* info = tool::cvar_of(handle);
  if (info == nullptr) {
    return MPI_T_ERR_INVALID_HANDLE;
  }
  if (buf == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  tool::store_value(info->type, info->read(), buf);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_cvar_read);

extern "C" int PMPI_T_cvar_write(MPI_T_cvar_handle handle,
                                 const void* buf) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  const tool::CvarInfo* info = tool::cvar_of(handle);
  if (info == nullptr) {
    return MPI_T_ERR_INVALID_HANDLE;
  }
  if (info->write == nullptr) {
    return MPI_T_ERR_CVAR_SET_NEVER;
  }
  if (buf == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  // Serialised with other writes, so two writers cannot interleave.
  const std::lock_guard lock(tool::state_mutex());
  return info->write(tool::load_value(info->type, buf));
}
SHMPI_PMPI_ALIAS(MPI_T_cvar_write);
