// SPDX-License-Identifier: MIT
// The predefined communicator attributes (MPI_TAG_UB and friends). User
// keyvals arrive with attribute caching in the communicators issue.
#include <mpi.h>

#include <cstring>

#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"

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
  int lastusedcode = MPI_ERR_LASTCODE;
};

PredefinedAttributes& attributes() {
  static PredefinedAttributes values;
  return values;
}

}  // namespace

extern "C" int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval,
                                  void* attribute_val, int* flag) noexcept {
  Comm* c = nullptr;
  if (int rc = check_initialized("MPI_Comm_get_attr"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_comm(comm, &c, "MPI_Comm_get_attr"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (attribute_val == nullptr || flag == nullptr) {
    return fail(c, MPI_ERR_ARG, "MPI_Comm_get_attr", "NULL argument");
  }
  PredefinedAttributes& values = attributes();
  values.universe_size =
      static_cast<int>(state().runtime->segment().layout().config.capacity);
  int* value = nullptr;
  switch (comm_keyval) {
    case MPI_TAG_UB:
      value = &values.tag_ub;
      break;
    case MPI_HOST:
      value = &values.host;
      break;
    case MPI_IO:
      value = &values.io;
      break;
    case MPI_WTIME_IS_GLOBAL:
      value = &values.wtime_is_global;
      break;
    case MPI_UNIVERSE_SIZE:
      value = &values.universe_size;
      break;
    case MPI_APPNUM:
      value = &values.appnum;
      break;
    case MPI_LASTUSEDCODE:
      value = &values.lastusedcode;
      break;
    default:
      return fail(c, MPI_ERR_KEYVAL, "MPI_Comm_get_attr", "invalid keyval %d",
                  comm_keyval);
  }
  // Predefined attributes are only cached on MPI_COMM_WORLD (MPI 4.0 §9.1.2).
  if (c != &state().world) {
    *flag = 0;
    return MPI_SUCCESS;
  }
  std::memcpy(attribute_val, &value, sizeof value);
  *flag = 1;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Comm_get_attr);
