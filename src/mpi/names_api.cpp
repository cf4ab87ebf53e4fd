// SPDX-License-Identifier: MIT
// MPI_Publish_name, MPI_Lookup_name and MPI_Unpublish_name (MPI 4.0
// §11.4.4): a name service for the whole job, in the port registry's name
// table (mpi/port_registry.hpp). A name is published once at a time
// (publishing it again is MPI_ERR_SERVICE until it is unpublished).
#include <mpi.h>

#include <cstring>

#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/info.hpp"
#include "mpi/port_registry.hpp"

using namespace shmpi;
using namespace shmpi::mpi;
using namespace shmpi::mpi::ports;

namespace {

// Common argument checks, in the standard's order; MPI_SUCCESS or the
// raised error.
int check_name_args(const char* service_name, MPI_Info info,
                    const char* port_name, const char* fn) {
  if (int rc = check_initialized(fn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (service_name == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, fn, "service_name is NULL");
  }
  if (::strnlen(service_name, kServiceNameBytes) == kServiceNameBytes) {
    return fail(nullptr, MPI_ERR_ARG, fn,
                "service_name is longer than %zu characters",
                kServiceNameBytes - 1);
  }
  if (info != MPI_INFO_NULL && find_info(info) == nullptr) {
    return fail(nullptr, MPI_ERR_INFO, fn, "invalid info handle %p",
                static_cast<void*>(info));
  }
  if (port_name == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, fn, "port_name is NULL");
  }
  return MPI_SUCCESS;
}

NameEntry* find_name(Registry& r, const char* service_name) {
  for (NameEntry& entry : r.names) {
    if (entry.service[0] != '\0' &&
        std::strcmp(entry.service, service_name) == 0) {
      return &entry;
    }
  }
  return nullptr;
}

}  // namespace

extern "C" int PMPI_Publish_name(const char* service_name, MPI_Info info,
                                 const char* port_name) noexcept {
  constexpr const char* kFn = "MPI_Publish_name";
  if (int rc = check_name_args(service_name, info, port_name, kFn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (::strnlen(port_name, MPI_MAX_PORT_NAME) == MPI_MAX_PORT_NAME) {
    return fail(nullptr, MPI_ERR_ARG, kFn,
                "port_name is longer than MPI_MAX_PORT_NAME - 1 characters");
  }
  Registry* r = registry();
  if (r == nullptr) {
    return fail(nullptr, MPI_ERR_NO_MEM, kFn,
                "the shared heap has no room for the name registry");
  }
  int status = MPI_ERR_NO_MEM;
  {
    // Errors are raised after the mutex is released: a user handler may
    // call back in.
    Lock lock(*r);
    if (find_name(*r, service_name) != nullptr) {
      status = MPI_ERR_SERVICE;
    } else {
      for (NameEntry& entry : r->names) {
        if (entry.service[0] == '\0') {
          std::strcpy(entry.service, service_name);  // lengths checked above
          std::strcpy(entry.port, port_name);
          status = MPI_SUCCESS;
          break;
        }
      }
    }
  }
  if (status == MPI_ERR_SERVICE) {
    return fail(nullptr, MPI_ERR_SERVICE, kFn,
                "service \"%s\" is already published", service_name);
  }
  if (status != MPI_SUCCESS) {
    return fail(nullptr, MPI_ERR_NO_MEM, kFn,
                "too many published names in this job (at most %u)", kMaxNames);
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Publish_name);

extern "C" int PMPI_Lookup_name(const char* service_name, MPI_Info info,
                                char* port_name) noexcept {
  constexpr const char* kFn = "MPI_Lookup_name";
  if (int rc = check_name_args(service_name, info, port_name, kFn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  Registry* r = registry();
  if (r != nullptr) {
    Lock lock(*r);
    if (const NameEntry* entry = find_name(*r, service_name)) {
      std::strcpy(port_name, entry->port);
      return MPI_SUCCESS;
    }
  }
  return fail(nullptr, MPI_ERR_NAME, kFn, "service \"%s\" is not published",
              service_name);
}
SHMPI_PMPI_ALIAS(MPI_Lookup_name);

extern "C" int PMPI_Unpublish_name(const char* service_name, MPI_Info info,
                                   const char* port_name) noexcept {
  constexpr const char* kFn = "MPI_Unpublish_name";
  if (int rc = check_name_args(service_name, info, port_name, kFn);
      rc != MPI_SUCCESS) {
    return rc;
  }
  Registry* r = registry();
  if (r != nullptr) {
    Lock lock(*r);
    NameEntry* entry = find_name(*r, service_name);
    if (entry != nullptr &&
        std::strncmp(entry->port, port_name, MPI_MAX_PORT_NAME) == 0) {
      entry->service[0] = '\0';
      entry->port[0] = '\0';
      return MPI_SUCCESS;
    }
  }
  return fail(nullptr, MPI_ERR_SERVICE, kFn,
              "service \"%s\" is not published with that port", service_name);
}
SHMPI_PMPI_ALIAS(MPI_Unpublish_name);
