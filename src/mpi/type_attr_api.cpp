// SPDX-License-Identifier: MIT
// Attribute caching on datatypes (MPI 4.0 section 7.7.4):
// MPI_Type_create_keyval, MPI_Type_free_keyval, MPI_Type_set_attr,
// MPI_Type_get_attr and MPI_Type_delete_attr. The keyvals and the callback
// rules are the communicators' (mpi/keyval.hpp); MPI_Type_dup copies the
// attributes and MPI_Type_free deletes them (mpi/type_api.cpp).
#include <mpi.h>

#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "mpi/core.hpp"
#include "mpi/datatype.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/keyval.hpp"

using namespace shmpi::mpi;

namespace shmpi::mpi {

std::vector<Attribute>& type_attributes(MPI_Datatype type) {
  if (Datatype* derived = find_derived(type)) {
    return derived->attributes;
  }
  // Predefined types: one list each, made on first use. Map nodes never
  // move, so a list stays where it is while callbacks run unlocked.
  struct Predefined {
    std::mutex mutex;
    std::map<MPI_Datatype, std::vector<Attribute>> lists;
  };
  static auto* predefined = new Predefined();  // used until exit
  std::lock_guard lock(predefined->mutex);
  return predefined->lists[type];
}

}  // namespace shmpi::mpi

namespace {

// A valid datatype, and a keyval for datatypes that the program may still
// use (`live`: also one it freed while attributes still use it, which
// MPI 4.0 section 7.7.2 lets it read and delete).
int check_type_and_keyval(MPI_Datatype type, int keyval, bool live,
                          const char* function) {
  shmpi::datatype::DescPtr desc;
  if (int rc = check_any_type(type, &desc, function); rc != MPI_SUCCESS) {
    return rc;
  }
  const bool valid = live ? is_live_keyval(keyval, AttrKind::kType)
                          : is_keyval(keyval, AttrKind::kType);
  if (!valid) {
    return fail(nullptr, MPI_ERR_KEYVAL, function,
                "keyval %d is not a datatype keyval", keyval);
  }
  return MPI_SUCCESS;
}

AttrHost host_of(MPI_Datatype type) {
  return AttrHost{type, type_attributes(type)};
}

}  // namespace

extern "C" int PMPI_Type_create_keyval(
    MPI_Type_copy_attr_function* type_copy_attr_fn,
    MPI_Type_delete_attr_function* type_delete_attr_fn, int* type_keyval,
    void* extra_state) noexcept {
  constexpr const char* kFunction = "MPI_Type_create_keyval";
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (type_keyval == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, kFunction, "type_keyval is NULL");
  }
  // NULL callbacks are accepted, as for communicators.
  if (create_type_keyval(type_copy_attr_fn, type_delete_attr_fn, extra_state,
                         type_keyval) != MPI_SUCCESS) {
    return fail(nullptr, MPI_ERR_NO_MEM, kFunction, "out of keyvals");
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Type_create_keyval);

extern "C" int PMPI_Type_free_keyval(int* type_keyval) noexcept {
  constexpr const char* kFunction = "MPI_Type_free_keyval";
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (type_keyval == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, kFunction, "type_keyval is NULL");
  }
  if (!is_keyval(*type_keyval, AttrKind::kType)) {
    return fail(nullptr, MPI_ERR_KEYVAL, kFunction,
                "keyval %d is not a datatype keyval", *type_keyval);
  }
  if (free_type_keyval(*type_keyval) != MPI_SUCCESS) {
    return fail(nullptr, MPI_ERR_NO_MEM, kFunction, "out of memory");
  }
  *type_keyval = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Type_free_keyval);

extern "C" int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval,
                                  void* attribute_val) noexcept {
  constexpr const char* kFunction = "MPI_Type_set_attr";
  if (int rc = check_type_and_keyval(datatype, type_keyval, false, kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = set_attr(host_of(datatype), type_keyval, attribute_val);
      rc != MPI_SUCCESS) {
    return raise_code(nullptr, rc, kFunction);  // the delete callback's code
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Type_set_attr);

extern "C" int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval,
                                  void* attribute_val, int* flag) noexcept {
  constexpr const char* kFunction = "MPI_Type_get_attr";
  if (int rc = check_type_and_keyval(datatype, type_keyval, true, kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (attribute_val == nullptr || flag == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, kFunction, "%s is NULL",
                attribute_val == nullptr ? "attribute_val" : "flag");
  }
  void* found = nullptr;
  const bool present = get_attr(type_attributes(datatype), type_keyval, &found);
  if (present) {
    // attribute_val is really a void**.
    std::memcpy(attribute_val, &found, sizeof found);
  }
  *flag = present ? 1 : 0;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Type_get_attr);

extern "C" int PMPI_Type_delete_attr(MPI_Datatype datatype,
                                     int type_keyval) noexcept {
  constexpr const char* kFunction = "MPI_Type_delete_attr";
  if (int rc = check_type_and_keyval(datatype, type_keyval, true, kFunction);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = delete_attr(host_of(datatype), type_keyval); rc != MPI_SUCCESS) {
    return raise_code(nullptr, rc, kFunction);  // the delete callback's code
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Type_delete_attr);
