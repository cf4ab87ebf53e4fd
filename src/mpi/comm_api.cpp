// SPDX-License-Identifier: MIT
// Communicator management: dup, idup, split, split_type, free, compare,
// names, and the intercommunicator queries.
#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>

#include "mpi/comm.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/info.hpp"
#include "mpi/keyval.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

int check_comm_call(MPI_Comm comm, const char* function, Comm** out) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  return check_comm(comm, out, function);
}

int check_out(Comm* c, const void* out, const char* function) {
  if (out == nullptr) {
    return fail(c, MPI_ERR_ARG, function, "NULL output argument");
  }
  return MPI_SUCCESS;
}

// What every new communicator takes from its parent besides its group.
void inherit(const Comm& parent, Comm& child) {
  child.errhandler = parent.errhandler;
}

int dup_common(Comm* c, const Hints* hints, MPI_Comm* newcomm,
               const char* function) {
  Comm* fresh = nullptr;
  const char* why = "";
  int rc = c->is_inter ? dup_intercomm(*c, &fresh, &why)
                       : dup_intracomm(*c, &fresh, &why);
  if (rc != MPI_SUCCESS) {
    *newcomm = MPI_COMM_NULL;
    return fail_static(c, rc, function, why);
  }
  if (int copied = finish_dup(*c, fresh, hints, newcomm);
      copied != MPI_SUCCESS) {
    *newcomm = MPI_COMM_NULL;
    return raise_code(c, copied, function);
  }
  return MPI_SUCCESS;
}

}  // namespace

namespace shmpi::mpi {

int finish_dup(Comm& parent, Comm* fresh, const Hints* hints,
               MPI_Comm* newcomm) {
  fresh->errhandler = parent.errhandler;
  fresh->hints = hints != nullptr ? *hints : parent.hints;
  fresh->topology = parent.topology;  // a dup keeps the topology (7.4.2)
  if (int copied = copy_comm_attributes(parent, *fresh);
      copied != MPI_SUCCESS) {
    destroy_comm(fresh);
    return copied;
  }
  *newcomm = fresh->handle;
  return MPI_SUCCESS;
}

int release_comm(Comm* c, MPI_Comm* handle, const char* function) {
  // A failing delete callback is reported, but the communicator is freed
  // all the same: its attributes are gone either way, and keeping a
  // half-freed object would only leak it.
  const int deleted = delete_comm_attributes(*c);
  const MPI_Errhandler handler = c->errhandler;
  if (c->handle == state().parent) {
    state().parent = MPI_COMM_NULL;  // MPI 4.0 §11.8.2: get_parent says so
  }
  destroy_comm(c);
  *handle = MPI_COMM_NULL;
  if (deleted != MPI_SUCCESS) {
    Comm reporter;  // the freed communicator's handler, for the report
    reporter.errhandler = handler;
    return raise_code(&reporter, deleted, function);
  }
  return MPI_SUCCESS;
}

void finish_staged_dup(Comm& parent, Comm* fresh, const Hints* hints,
                       std::vector<Attribute>& staged, MPI_Comm* newcomm) {
  fresh->errhandler = parent.errhandler;
  fresh->hints = hints != nullptr ? *hints : parent.hints;
  fresh->topology = parent.topology;
  // The references the copies hold on their keyvals move with them.
  fresh->attributes = std::move(staged);
  staged.clear();
  *newcomm = fresh->handle;
}

}  // namespace shmpi::mpi

extern "C" int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) noexcept {
  Comm* c = nullptr;
  if (int rc = check_comm_call(comm, "MPI_Comm_dup", &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_out(c, newcomm, "MPI_Comm_dup"); rc != MPI_SUCCESS) {
    return rc;
  }
  return dup_common(c, nullptr, newcomm, "MPI_Comm_dup");
}
SHMPI_PMPI_ALIAS(MPI_Comm_dup);

extern "C" int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info,
                                       MPI_Comm* newcomm) noexcept {
  constexpr const char* kFn = "MPI_Comm_dup_with_info";
  Comm* c = nullptr;
  if (int rc = check_comm_call(comm, kFn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_out(c, newcomm, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  // The new communicator's hints are the info's, not the parent's (MPI
  // 4.0 section 7.4.2); only hints shmpi understands are kept.
  Hints hints;
  if (int rc = hints_from_info(info, &hints); rc != MPI_SUCCESS) {
    return fail(c, rc, kFn, "invalid info object");
  }
  return dup_common(c, &hints, newcomm, kFn);
}
SHMPI_PMPI_ALIAS(MPI_Comm_dup_with_info);

extern "C" int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info,
                                        MPI_Comm* newcomm,
                                        MPI_Request* request) noexcept {
  constexpr const char* kFn = "MPI_Comm_idup_with_info";
  Comm* c = nullptr;
  if (int rc = check_comm_call(comm, kFn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (newcomm == nullptr || request == nullptr) {
    return fail(c, MPI_ERR_ARG, kFn, "NULL argument");
  }
  Hints hints;
  if (int rc = hints_from_info(info, &hints); rc != MPI_SUCCESS) {
    return fail(c, rc, kFn, "invalid info object");
  }
  return idup_common(c, &hints, newcomm, request, kFn);
}
SHMPI_PMPI_ALIAS(MPI_Comm_idup_with_info);

extern "C" int PMPI_Comm_split(MPI_Comm comm, int color, int key,
                               MPI_Comm* newcomm) noexcept {
  Comm* c = nullptr;
  if (int rc = check_comm_call(comm, "MPI_Comm_split", &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_out(c, newcomm, "MPI_Comm_split"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (color < 0 && color != MPI_UNDEFINED) {
    return fail(c, MPI_ERR_ARG, "MPI_Comm_split",
                "invalid color %d (must be >= 0 or MPI_UNDEFINED)", color);
  }
  Comm* fresh = nullptr;
  const char* why = "";
  int rc = c->is_inter ? split_intercomm(*c, color, key, &fresh, &why)
                       : split_intracomm(*c, color, key, &fresh, &why);
  if (rc != MPI_SUCCESS) {
    *newcomm = MPI_COMM_NULL;
    return fail_static(c, rc, "MPI_Comm_split", why);
  }
  if (fresh == nullptr) {
    *newcomm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  inherit(*c, *fresh);
  *newcomm = fresh->handle;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Comm_split);

extern "C" int PMPI_Comm_free(MPI_Comm* comm) noexcept {
  if (int rc = check_initialized("MPI_Comm_free"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (comm == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Comm_free", "NULL argument");
  }
  Comm* c = nullptr;
  if (int rc = check_comm(*comm, &c, "MPI_Comm_free"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (c->predefined) {
    return fail(c, MPI_ERR_COMM, "MPI_Comm_free", "cannot free %s",
                c->name.c_str());
  }
  wait_pending(*c);
  return release_comm(c, comm, "MPI_Comm_free");
}
SHMPI_PMPI_ALIAS(MPI_Comm_free);

extern "C" int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2,
                                 int* result) noexcept {
  Comm* a = nullptr;
  Comm* b = nullptr;
  if (int rc = check_comm_call(comm1, "MPI_Comm_compare", &a);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_comm(comm2, &b, "MPI_Comm_compare"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_out(a, result, "MPI_Comm_compare"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (a == b) {
    *result = MPI_IDENT;
    return MPI_SUCCESS;
  }
  if (a->is_inter != b->is_inter) {
    *result = MPI_UNEQUAL;
    return MPI_SUCCESS;
  }
  auto same_set = [](std::vector<std::int32_t> x, std::vector<std::int32_t> y) {
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    return x == y;
  };
  const bool same_order = a->lpids == b->lpids &&
                          (!a->is_inter || a->remote_lpids == b->remote_lpids);
  const bool similar =
      same_set(a->lpids, b->lpids) &&
      (!a->is_inter || same_set(a->remote_lpids, b->remote_lpids));
  *result = same_order ? MPI_CONGRUENT : similar ? MPI_SIMILAR : MPI_UNEQUAL;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Comm_compare);

extern "C" int PMPI_Comm_set_name(MPI_Comm comm,
                                  const char* comm_name) noexcept {
  Comm* c = nullptr;
  if (int rc = check_comm_call(comm, "MPI_Comm_set_name", &c);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (comm_name == nullptr) {
    return fail(c, MPI_ERR_ARG, "MPI_Comm_set_name", "name is NULL");
  }
  // Longer names are truncated to what MPI_Comm_get_name can return.
  c->name.assign(comm_name, strnlen(comm_name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Comm_set_name);

extern "C" int PMPI_Comm_get_name(MPI_Comm comm, char* comm_name,
                                  int* resultlen) noexcept {
  Comm* c = nullptr;
  if (int rc = check_comm_call(comm, "MPI_Comm_get_name", &c);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (comm_name == nullptr || resultlen == nullptr) {
    return fail(c, MPI_ERR_ARG, "MPI_Comm_get_name", "NULL argument");
  }
  std::memcpy(comm_name, c->name.c_str(), c->name.size() + 1);
  *resultlen = static_cast<int>(c->name.size());
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Comm_get_name);

extern "C" int PMPI_Comm_test_inter(MPI_Comm comm, int* flag) noexcept {
  Comm* c = nullptr;
  if (int rc = check_comm_call(comm, "MPI_Comm_test_inter", &c);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_out(c, flag, "MPI_Comm_test_inter"); rc != MPI_SUCCESS) {
    return rc;
  }
  *flag = c->is_inter ? 1 : 0;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Comm_test_inter);

extern "C" int PMPI_Comm_remote_size(MPI_Comm comm, int* size) noexcept {
  Comm* c = nullptr;
  if (int rc = check_comm_call(comm, "MPI_Comm_remote_size", &c);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_out(c, size, "MPI_Comm_remote_size"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (!c->is_inter) {
    return fail(c, MPI_ERR_COMM, "MPI_Comm_remote_size",
                "not an intercommunicator");
  }
  *size = c->remote_size;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Comm_remote_size);

extern "C" int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm,
                              MPI_Request* request) noexcept {
  Comm* c = nullptr;
  if (int rc = check_comm_call(comm, "MPI_Comm_idup", &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (newcomm == nullptr || request == nullptr) {
    return fail(c, MPI_ERR_ARG, "MPI_Comm_idup", "NULL argument");
  }
  return idup_common(c, nullptr, newcomm, request, "MPI_Comm_idup");
}
SHMPI_PMPI_ALIAS(MPI_Comm_idup);
