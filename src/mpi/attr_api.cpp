// SPDX-License-Identifier: MIT
// Attribute caching on communicators: MPI_Comm_create_keyval and friends,
// their deprecated MPI-1 forms (MPI_Keyval_create, MPI_Attr_put, ...), and
// the predefined attributes (MPI_TAG_UB and friends). The semantics live in
// mpi/keyval.cpp; this file checks arguments and raises errors.
#include <mpi.h>

#include <cstring>

#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/errors.hpp"
#include "mpi/keyval.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

// The attribute values live as long as the process; callers get pointers.
struct PredefinedAttributes {
  int tag_ub = kTagUpperBound;
  int host = MPI_PROC_NULL;  // no process is "the host"
  int io = MPI_ANY_SOURCE;   // every rank can do I/O
  int wtime_is_global = 1;   // one machine, one CLOCK_MONOTONIC
  int universe_size = 1;
  int appnum = 0;
  int lastusedcode = MPI_ERR_LASTCODE;  // refreshed when read
};

PredefinedAttributes& predefined() {
  static PredefinedAttributes values;
  return values;
}

int* predefined_value(int keyval) {
  PredefinedAttributes& values = predefined();
  switch (keyval) {
    case MPI_TAG_UB:
      return &values.tag_ub;
    case MPI_HOST:
      return &values.host;
    case MPI_IO:
      return &values.io;
    case MPI_WTIME_IS_GLOBAL:
      return &values.wtime_is_global;
    case MPI_UNIVERSE_SIZE:
      values.universe_size =
          static_cast<int>(state().runtime->segment().layout().config.capacity);
      return &values.universe_size;
    case MPI_APPNUM:
      values.appnum = static_cast<int>(state().runtime->world().appnum);
      return &values.appnum;
    case MPI_LASTUSEDCODE:
      values.lastusedcode = last_used_code();
      return &values.lastusedcode;
    default:
      return nullptr;
  }
}

// A keyval the program may set, delete or free: not predefined, and
// created and not yet freed by the program.
int check_user_keyval(Comm* comm, int keyval, const char* function) {
  if (is_predefined_comm_keyval(keyval)) {
    return fail(comm, MPI_ERR_KEYVAL, function,
                "keyval %d is predefined and cannot be changed", keyval);
  }
  if (!is_comm_keyval(keyval)) {
    return fail(comm, MPI_ERR_KEYVAL, function, "invalid keyval %d", keyval);
  }
  return MPI_SUCCESS;
}

int check_comm_and_keyval(MPI_Comm comm, int keyval, Comm** out,
                          const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_comm(comm, out, function); rc != MPI_SUCCESS) {
    return rc;
  }
  return check_user_keyval(*out, keyval, function);
}

int create_keyval(MPI_Comm_copy_attr_function* copy,
                  MPI_Comm_delete_attr_function* del, int* keyval,
                  void* extra_state, const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (keyval == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "keyval is NULL");
  }
  // NULL callbacks are accepted as MPICH does: never copied, nothing to
  // call on deletion (the standard asks for MPI_COMM_NULL_COPY_FN etc.).
  if (create_comm_keyval(copy, del, extra_state, keyval) != MPI_SUCCESS) {
    return fail(nullptr, MPI_ERR_NO_MEM, function, "out of keyvals");
  }
  return MPI_SUCCESS;
}

int free_keyval(int* keyval, const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (keyval == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "keyval is NULL");
  }
  if (int rc = check_user_keyval(nullptr, *keyval, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (free_comm_keyval(*keyval) != MPI_SUCCESS) {
    return fail(nullptr, MPI_ERR_NO_MEM, function, "out of memory");
  }
  *keyval = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

int set_attr(MPI_Comm comm, int keyval, void* value, const char* function) {
  Comm* c = nullptr;
  if (int rc = check_comm_and_keyval(comm, keyval, &c, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = set_comm_attr(*c, keyval, value); rc != MPI_SUCCESS) {
    return raise_code(c, rc, function);  // the delete callback's code
  }
  return MPI_SUCCESS;
}

int get_attr(MPI_Comm comm, int keyval, void* value, int* flag,
             const char* function) {
  Comm* c = nullptr;
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_comm(comm, &c, function); rc != MPI_SUCCESS) {
    return rc;
  }
  int* predefined_address = predefined_value(keyval);
  // A keyval the program freed may still have attributes (MPI 4.0 section
  // 7.7.2): those stay readable until deleted.
  if (predefined_address == nullptr && !is_live_comm_keyval(keyval)) {
    return fail(c, MPI_ERR_KEYVAL, function, "invalid keyval %d", keyval);
  }
  if (value == nullptr || flag == nullptr) {
    return fail(c, MPI_ERR_ARG, function, "%s is NULL",
                value == nullptr ? "attribute_val" : "flag");
  }
  // `value` is really a void**: the C binding passes the address where the
  // attribute (a pointer) is stored, hence memcpy instead of a cast.
  void* found = predefined_address;
  // Predefined attributes answer on every communicator, not only on
  // MPI_COMM_WORLD where MPI 4.0 section 9.1 caches them: MPICH 4.0.2 does
  // the same, and programs query MPI_TAG_UB on their own communicators.
  const bool present =
      predefined_address != nullptr || get_comm_attr(*c, keyval, &found);
  if (present) {
    std::memcpy(value, &found, sizeof found);
  }
  *flag = present ? 1 : 0;
  return MPI_SUCCESS;
}

int delete_attr(MPI_Comm comm, int keyval, const char* function) {
  Comm* c = nullptr;
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_comm(comm, &c, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (is_predefined_comm_keyval(keyval)) {
    return fail(c, MPI_ERR_KEYVAL, function,
                "keyval %d is predefined and cannot be changed", keyval);
  }
  // Not check_user_keyval: MPI 4.0 section 7.7.2 (MPI_COMM_FREE_KEYVAL)
  // has the program free the attributes of a keyval it already freed "via
  // calls to MPI_COMM_DELETE_ATTR", so such a keyval is valid here as long
  // as attributes still use it.
  if (!is_live_comm_keyval(keyval)) {
    return fail(c, MPI_ERR_KEYVAL, function, "invalid keyval %d", keyval);
  }
  if (int rc = delete_comm_attr(*c, keyval); rc != MPI_SUCCESS) {
    return raise_code(c, rc, function);  // the delete callback's code
  }
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Comm_create_keyval(
    MPI_Comm_copy_attr_function* comm_copy_attr_fn,
    MPI_Comm_delete_attr_function* comm_delete_attr_fn, int* comm_keyval,
    void* extra_state) noexcept {
  return create_keyval(comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval,
                       extra_state, "MPI_Comm_create_keyval");
}
SHMPI_PMPI_ALIAS(MPI_Comm_create_keyval);

extern "C" int PMPI_Comm_free_keyval(int* comm_keyval) noexcept {
  return free_keyval(comm_keyval, "MPI_Comm_free_keyval");
}
SHMPI_PMPI_ALIAS(MPI_Comm_free_keyval);

extern "C" int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval,
                                  void* attribute_val) noexcept {
  return set_attr(comm, comm_keyval, attribute_val, "MPI_Comm_set_attr");
}
SHMPI_PMPI_ALIAS(MPI_Comm_set_attr);

extern "C" int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval,
                                  void* attribute_val, int* flag) noexcept {
  return get_attr(comm, comm_keyval, attribute_val, flag, "MPI_Comm_get_attr");
}
SHMPI_PMPI_ALIAS(MPI_Comm_get_attr);

extern "C" int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval) noexcept {
  return delete_attr(comm, comm_keyval, "MPI_Comm_delete_attr");
}
SHMPI_PMPI_ALIAS(MPI_Comm_delete_attr);

// ---- deprecated MPI-1 forms (still in MPI 4.0): same semantics in C, where
// MPI_Copy_function and MPI_Comm_copy_attr_function have one signature.

extern "C" int PMPI_Keyval_create(MPI_Copy_function* copy_fn,
                                  MPI_Delete_function* delete_fn, int* keyval,
                                  void* extra_state) noexcept {
  return create_keyval(copy_fn, delete_fn, keyval, extra_state,
                       "MPI_Keyval_create");
}
SHMPI_PMPI_ALIAS(MPI_Keyval_create);

extern "C" int PMPI_Keyval_free(int* keyval) noexcept {
  return free_keyval(keyval, "MPI_Keyval_free");
}
SHMPI_PMPI_ALIAS(MPI_Keyval_free);

extern "C" int PMPI_Attr_put(MPI_Comm comm, int keyval,
                             void* attribute_val) noexcept {
  return set_attr(comm, keyval, attribute_val, "MPI_Attr_put");
}
SHMPI_PMPI_ALIAS(MPI_Attr_put);

extern "C" int PMPI_Attr_get(MPI_Comm comm, int keyval, void* attribute_val,
                             int* flag) noexcept {
  return get_attr(comm, keyval, attribute_val, flag, "MPI_Attr_get");
}
SHMPI_PMPI_ALIAS(MPI_Attr_get);

extern "C" int PMPI_Attr_delete(MPI_Comm comm, int keyval) noexcept {
  return delete_attr(comm, keyval, "MPI_Attr_delete");
}
SHMPI_PMPI_ALIAS(MPI_Attr_delete);
