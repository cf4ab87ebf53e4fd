// SPDX-License-Identifier: MIT
// The MPI_T_category_* calls on variables and categories (MPI 4.0 section
// 15.3.8): tool.hpp's fixed list of categories, each holding the control
// and performance variables whose tables name it (tool_cvars.cpp,
// tool_pvars.cpp). Categories have no subcategories, and the set never
// changes, so MPI_T_category_changed's number stays 0. The events' side
// (MPI_T_category_get_num_events, _get_events) is in the events' files.
#include <mpi.h>

#include <cstring>
#include <span>

#include "mpi/detail/pmpi.hpp"
#include "mpi/tool.hpp"
#include "mpi/tool_strings.hpp"
#include "mpi/tool_vars.hpp"

namespace shmpi::mpi::tool {
namespace {

bool valid_category(int index) { return index >= 0 && index < kCategoryCount; }

// Indices of the entries of `table` in category `cat_index`: how many
// there are, and the first `len` of them in `indices`.
template <typename Info>
int members(std::span<const Info> table, int cat_index, int len, int* indices) {
  const auto category = static_cast<Category>(cat_index);
  int found = 0;
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (table[i].category == category) {
      if (found < len && indices != nullptr) {
        indices[found] = static_cast<int>(i);
      }
      ++found;
    }
  }
  return found;
}

// MPI_T_category_get_cvars and _get_pvars.
template <typename Info>
int get_members(std::span<const Info> table, int cat_index, int len,
                int* indices) {
  if (const int rc = check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (!valid_category(cat_index)) {
    return MPI_T_ERR_INVALID_INDEX;
  }
  if (len < 0 || (len > 0 && indices == nullptr)) {
    return MPI_T_ERR_INVALID;
  }
  members(table, cat_index, len, indices);
  return MPI_SUCCESS;
}

}  // namespace
}  // namespace shmpi::mpi::tool

using namespace shmpi::mpi;

extern "C" int PMPI_T_category_get_num(int* num_cat) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (num_cat == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  *num_cat = tool::kCategoryCount;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_category_get_num);

extern "C" int PMPI_T_category_get_info(int cat_index, char* name,
                                        int* name_len, char* desc,
                                        int* desc_len, int* num_cvars,
                                        int* num_pvars,
                                        int* num_categories) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (!tool::valid_category(cat_index)) {
    return MPI_T_ERR_INVALID_INDEX;
  }
  const tool::CategoryInfo& info =
      tool::kCategories[static_cast<std::size_t>(cat_index)];
  tool::return_string(info.name, name, name_len);
  tool::return_string(info.description, desc, desc_len);
  if (num_cvars != nullptr) {
    *num_cvars = tool::members(tool::cvars(), cat_index, 0, nullptr);
  }
  if (num_pvars != nullptr) {
    *num_pvars = tool::members(tool::pvars(), cat_index, 0, nullptr);
  }
  if (num_categories != nullptr) {
    *num_categories = 0;
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_category_get_info);

extern "C" int PMPI_T_category_get_index(const char* name,
                                         int* cat_index) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (name == nullptr || cat_index == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  for (int i = 0; i < tool::kCategoryCount; ++i) {
    if (std::strcmp(tool::kCategories[static_cast<std::size_t>(i)].name,
                    name) == 0) {
      *cat_index = i;
      return MPI_SUCCESS;
    }
  }
  return MPI_T_ERR_INVALID_NAME;
}
SHMPI_PMPI_ALIAS(MPI_T_category_get_index);

extern "C" int PMPI_T_category_get_cvars(int cat_index, int len,
                                         int indices[]) noexcept {
  return tool::get_members(tool::cvars(), cat_index, len, indices);
}
SHMPI_PMPI_ALIAS(MPI_T_category_get_cvars);

extern "C" int PMPI_T_category_get_pvars(int cat_index, int len,
                                         int indices[]) noexcept {
  return tool::get_members(tool::pvars(), cat_index, len, indices);
}
SHMPI_PMPI_ALIAS(MPI_T_category_get_pvars);

extern "C" int PMPI_T_category_get_categories(int cat_index, int len,
                                              int indices[]) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (!tool::valid_category(cat_index)) {
    return MPI_T_ERR_INVALID_INDEX;
  }
  if (len < 0 || (len > 0 && indices == nullptr)) {
    return MPI_T_ERR_INVALID;
  }
  return MPI_SUCCESS;  // no category has subcategories
}
SHMPI_PMPI_ALIAS(MPI_T_category_get_categories);

extern "C" int PMPI_T_category_changed(int* update_number) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (update_number == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  *update_number = 0;  // the categories never change
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_category_changed);
