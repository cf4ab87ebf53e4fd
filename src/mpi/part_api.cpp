// SPDX-License-Identifier: MIT
// Partitioned point-to-point entry points (MPI 4.0 chapter 4):
// MPI_Psend_init, MPI_Precv_init, MPI_Pready{,_range,_list}, MPI_Parrived.
// MPI_Start, the wait/test family and MPI_Request_free take partitioned
// requests like persistent ones (p2p_api.cpp, request_api.cpp).
#include <mpi.h>

#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/p2p_common.hpp"
#include "partitioned/partitioned.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

// The partitioned module sits below mpi.h and keeps its own copies.
static_assert(partitioned::kErrArg == MPI_ERR_ARG &&
                  partitioned::kErrNoMem == MPI_ERR_NO_MEM &&
                  partitioned::kErrTruncate == MPI_ERR_TRUNCATE &&
                  partitioned::kProcNull == MPI_PROC_NULL,
              "partitioned/partitioned.hpp disagrees with mpi.h");

namespace {

int part_init(const void* buf, int partitions, MPI_Count count,
              MPI_Datatype datatype, int peer, int tag, MPI_Comm comm,
              MPI_Request* out, bool send, const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  Comm* c = nullptr;
  if (int rc = check_comm(comm, &c, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (partitions < 1) {
    return fail(c, MPI_ERR_ARG, function,
                "partitions must be positive (got %d)", partitions);
  }
  if (int rc = check_count(c, count, function); rc != MPI_SUCCESS) {
    return rc;
  }
  const MPI_Count total = count * partitions;
  Operation op;
  if (int rc = send ? check_send(buf, total, datatype, peer, tag, comm,
                                 function, &op)
                    : check_recv(const_cast<void*>(buf), total, datatype, peer,
                                 tag, comm, function, &op);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (!send && peer == MPI_ANY_SOURCE) {
    return fail(c, MPI_ERR_RANK, function,
                "MPI_ANY_SOURCE is not allowed in a partitioned receive");
  }
  if (!send && tag == MPI_ANY_TAG) {
    return fail(c, MPI_ERR_TAG, function,
                "MPI_ANY_TAG is not allowed in a partitioned receive");
  }
  if (out == nullptr) {
    return fail(c, MPI_ERR_ARG, function, "request is NULL");
  }
  p2p::Request* request = new_request(c, function);
  if (request == nullptr) {
    return MPI_ERR_NO_MEM;
  }
  if (send) {
    setup_send(*request, op, p2p::SendMode::kStandard);
    request->kind = p2p::RequestKind::kPartSend;
  } else {
    setup_recv(*request, op);
    request->kind = p2p::RequestKind::kPartRecv;
  }
  request->persistent = true;
  request->complete.store(true, std::memory_order_relaxed);  // inactive
  const auto parts = static_cast<std::uint32_t>(partitions);
  Result<void> made = send ? partitioned::psend_init(*request, parts)
                           : partitioned::precv_init(*request, parts);
  if (!made) {
    state().requests.destroy(request);
    return fail(c, made.error().mpi_class, function, "%.*s",
                static_cast<int>(made.error().what.size()),
                made.error().what.data());
  }
  *out = to_handle(request);
  return MPI_SUCCESS;
}

// The active partitioned send request behind `handle`, or nullptr after
// raising the error.
p2p::Request* active_send(MPI_Request handle, const char* function, int* rc) {
  *rc = check_initialized(function);
  if (*rc != MPI_SUCCESS) {
    return nullptr;
  }
  p2p::Request* r = find_request(handle);
  if (r == nullptr) {
    *rc = fail(nullptr, MPI_ERR_REQUEST, function, "invalid request handle %p",
               static_cast<void*>(handle));
    return nullptr;
  }
  auto* comm = static_cast<Comm*>(r->comm);
  if (r->kind != p2p::RequestKind::kPartSend) {
    *rc = fail(comm, MPI_ERR_REQUEST, function,
               "not a partitioned send request (MPI_Psend_init)");
    return nullptr;
  }
  if (!r->active) {
    *rc = fail(comm, MPI_ERR_REQUEST, function,
               "the request is not active (MPI_Start it first)");
    return nullptr;
  }
  return r;
}

int ready_one(p2p::Request& r, int partition, const char* function) {
  Result<void> done = partitioned::pready(r, partition);
  if (!done) {
    return fail(static_cast<Comm*>(r.comm), done.error().mpi_class, function,
                "partition %d: %.*s (the request has %u)", partition,
                static_cast<int>(done.error().what.size()),
                done.error().what.data(), partitioned::partition_count(r));
  }
  return MPI_SUCCESS;
}

int ready_batch(p2p::Request& r, const int* list, std::int64_t low,
                std::int64_t count, const char* function) {
  std::int64_t failed = 0;
  Result<void> done = partitioned::pready_batch(r, list, low, count, &failed);
  if (!done) {
    return fail(static_cast<Comm*>(r.comm), done.error().mpi_class, function,
                "partition %lld: %.*s (the request has %u)",
                static_cast<long long>(failed),
                static_cast<int>(done.error().what.size()),
                done.error().what.data(), partitioned::partition_count(r));
  }
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Psend_init(const void* buf, int partitions, MPI_Count count,
                               MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm, MPI_Info /*info*/,
                               MPI_Request* request) noexcept {
  return part_init(buf, partitions, count, datatype, dest, tag, comm, request,
                   true, "MPI_Psend_init");
}
SHMPI_PMPI_ALIAS(MPI_Psend_init);

extern "C" int PMPI_Precv_init(void* buf, int partitions, MPI_Count count,
                               MPI_Datatype datatype, int source, int tag,
                               MPI_Comm comm, MPI_Info /*info*/,
                               MPI_Request* request) noexcept {
  return part_init(buf, partitions, count, datatype, source, tag, comm, request,
                   false, "MPI_Precv_init");
}
SHMPI_PMPI_ALIAS(MPI_Precv_init);

extern "C" int PMPI_Pready(int partition, MPI_Request request) noexcept {
  int rc = MPI_SUCCESS;
  p2p::Request* r = active_send(request, "MPI_Pready", &rc);
  if (r == nullptr) {
    return rc;
  }
  return ready_one(*r, partition, "MPI_Pready");
}
SHMPI_PMPI_ALIAS(MPI_Pready);

extern "C" int PMPI_Pready_range(int partition_low, int partition_high,
                                 MPI_Request request) noexcept {
  int rc = MPI_SUCCESS;
  p2p::Request* r = active_send(request, "MPI_Pready_range", &rc);
  if (r == nullptr) {
    return rc;
  }
  if (partition_low > partition_high) {
    return fail(static_cast<Comm*>(r->comm), MPI_ERR_ARG, "MPI_Pready_range",
                "partition_low %d is above partition_high %d", partition_low,
                partition_high);
  }
  return ready_batch(*r, nullptr, partition_low,
                     std::int64_t{partition_high} - partition_low + 1,
                     "MPI_Pready_range");
}
SHMPI_PMPI_ALIAS(MPI_Pready_range);

extern "C" int PMPI_Pready_list(int length, int array_of_partitions[],
                                MPI_Request request) noexcept {
  int rc = MPI_SUCCESS;
  p2p::Request* r = active_send(request, "MPI_Pready_list", &rc);
  if (r == nullptr) {
    return rc;
  }
  if (length < 0 || (length > 0 && array_of_partitions == nullptr)) {
    return fail(static_cast<Comm*>(r->comm), MPI_ERR_ARG, "MPI_Pready_list",
                "invalid partition list (length %d)", length);
  }
  return ready_batch(*r, array_of_partitions, 0, length, "MPI_Pready_list");
}
SHMPI_PMPI_ALIAS(MPI_Pready_list);

extern "C" int PMPI_Parrived(MPI_Request request, int partition,
                             int* flag) noexcept {
  if (int rc = check_initialized("MPI_Parrived"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (flag == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Parrived", "flag is NULL");
  }
  if (request == MPI_REQUEST_NULL) {
    *flag = 1;
    return MPI_SUCCESS;
  }
  p2p::Request* r = find_request(request);
  if (r == nullptr) {
    return fail(nullptr, MPI_ERR_REQUEST, "MPI_Parrived",
                "invalid request handle %p", static_cast<void*>(request));
  }
  auto* comm = static_cast<Comm*>(r->comm);
  if (r->kind != p2p::RequestKind::kPartRecv) {
    return fail(comm, MPI_ERR_REQUEST, "MPI_Parrived",
                "not a partitioned receive request (MPI_Precv_init)");
  }
  if (!r->active) {
    *flag = 1;  // an inactive request has nothing outstanding
    return MPI_SUCCESS;
  }
  Result<bool> arrived = partitioned::parrived(*r, partition);
  if (!arrived) {
    return fail(comm, arrived.error().mpi_class, "MPI_Parrived",
                "partition %d: %.*s (the request has %u)", partition,
                static_cast<int>(arrived.error().what.size()),
                arrived.error().what.data(), partitioned::partition_count(*r));
  }
  *flag = arrived.value() ? 1 : 0;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Parrived);
