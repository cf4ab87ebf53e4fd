// SPDX-License-Identifier: MIT
// First, simple collectives: barrier on the world block of the scratch
// area, binomial-tree broadcast and reduction over point-to-point messages
// on the communicator's collective context (Z bit), so they never match
// user traffic. The collectives issue replaces these with scratch-area
// algorithms.
#include <mpi.h>

#include <cstring>
#include <vector>

#include "datatype/reduce_ops.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/p2p_common.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

constexpr int kBcastTag = 1;
constexpr int kReduceTag = 2;

void coll_send(Comm* comm, int dest, int tag, const void* data,
               std::size_t bytes) {
  p2p::Request request;
  request.kind = p2p::RequestKind::kSend;
  request.layout = datatype::Layout{
      static_cast<std::byte*>(const_cast<void*>(data)), bytes, nullptr};
  request.peer = dest;
  request.tag = tag;
  request.my_rank = comm->rank;
  request.context_id = comm->coll_context_id;
  request.peer_slot = comm->slots[static_cast<std::size_t>(dest)];
  request.comm = comm;
  state().engine->start_send(request);
  state().engine->wait(request);
}

void coll_recv(Comm* comm, int source, int tag, void* data, std::size_t bytes) {
  p2p::Request request;
  request.kind = p2p::RequestKind::kRecv;
  request.layout =
      datatype::Layout{static_cast<std::byte*>(data), bytes, nullptr};
  request.peer = source;
  request.tag = tag;
  request.context_id = comm->coll_recv_context_id;
  request.comm = comm;
  state().engine->start_recv(request);
  state().engine->wait(request);
}

void bcast_tree(Comm* comm, void* data, std::size_t bytes, int root) {
  const int size = comm->size;
  const int relative = (comm->rank - root + size) % size;
  int mask = 1;
  while (mask < size) {
    if ((relative & mask) != 0) {
      coll_recv(comm, (relative - mask + root) % size, kBcastTag, data, bytes);
      break;
    }
    mask <<= 1;
  }
  mask >>= 1;
  while (mask > 0) {
    if (relative + mask < size) {
      coll_send(comm, (relative + mask + root) % size, kBcastTag, data, bytes);
    }
    mask >>= 1;
  }
}

// Reduces into `accumulator` (holding this rank's contribution) up a
// binomial tree; on return the root's accumulator holds the result.
void reduce_tree(Comm* comm, void* accumulator, std::size_t count,
                 const datatype::BasicType& type, datatype::OpKind op,
                 int root) {
  const int size = comm->size;
  const int relative = (comm->rank - root + size) % size;
  const std::size_t bytes = count * static_cast<std::size_t>(type.extent);
  std::vector<std::byte> incoming(bytes);
  int mask = 1;
  while (mask < size) {
    if ((relative & mask) != 0) {
      coll_send(comm, (relative - mask + root) % size, kReduceTag, accumulator,
                bytes);
      return;
    }
    if (relative + mask < size) {
      coll_recv(comm, (relative + mask + root) % size, kReduceTag,
                incoming.data(), bytes);
      // Children hold higher ranks: accumulator = accumulator op child, in
      // rank order, the same on every run.
      std::vector<std::byte> mine(static_cast<std::byte*>(accumulator),
                                  static_cast<std::byte*>(accumulator) + bytes);
      datatype::reduce(op, type, mine.data(), incoming.data(), count);
      std::memcpy(accumulator, incoming.data(), bytes);
    }
    mask <<= 1;
  }
}

int check_coll(MPI_Comm comm, const char* function, Comm** out) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  return check_comm(comm, out, function);
}

int check_reduce_args(Comm* c, const void* sendbuf, void* recvbuf, int count,
                      MPI_Datatype datatype, MPI_Op op, bool needs_recvbuf,
                      const datatype::BasicType** type, datatype::OpKind* kind,
                      const char* function) {
  if (int rc = check_count(c, count, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_type(c, datatype, type, function); rc != MPI_SUCCESS) {
    return rc;
  }
  *kind = datatype::op_from_handle(reinterpret_cast<std::uintptr_t>(op));
  if (*kind == datatype::OpKind::kInvalid) {
    return fail(c, MPI_ERR_OP, function, "invalid reduction operation %p",
                static_cast<void*>(op));
  }
  if (datatype::check_op_type(*kind, **type) != MPI_SUCCESS) {
    return fail(c, MPI_ERR_OP, function, "%s is not defined for %s",
                datatype::op_name(*kind), (*type)->name);
  }
  if (sendbuf != MPI_IN_PLACE) {
    if (int rc = check_buffer(c, sendbuf, count, function); rc != MPI_SUCCESS) {
      return rc;
    }
  }
  if (needs_recvbuf) {
    if (int rc = check_buffer(c, recvbuf, count, function); rc != MPI_SUCCESS) {
      return rc;
    }
  }
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Barrier(MPI_Comm comm) noexcept {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, "MPI_Barrier", &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (c == &state().world) {
    state().runtime->world_barrier();
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Barrier);

extern "C" int PMPI_Bcast(void* buffer, int count, MPI_Datatype datatype,
                          int root, MPI_Comm comm) noexcept {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, "MPI_Bcast", &c); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_count(c, count, "MPI_Bcast"); rc != MPI_SUCCESS) {
    return rc;
  }
  const datatype::BasicType* type = nullptr;
  if (int rc = check_type(c, datatype, &type, "MPI_Bcast"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_buffer(c, buffer, count, "MPI_Bcast"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (root < 0 || root >= c->size) {
    return fail(c, MPI_ERR_ROOT, "MPI_Bcast",
                "invalid root %d (communicator size %d)", root, c->size);
  }
  bcast_tree(
      c, buffer,
      static_cast<std::size_t>(count) * static_cast<std::size_t>(type->extent),
      root);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Bcast);

extern "C" int PMPI_Reduce(const void* sendbuf, void* recvbuf, int count,
                           MPI_Datatype datatype, MPI_Op op, int root,
                           MPI_Comm comm) noexcept {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, "MPI_Reduce", &c); rc != MPI_SUCCESS) {
    return rc;
  }
  const datatype::BasicType* type = nullptr;
  datatype::OpKind kind{};
  if (root < 0 || root >= c->size) {
    return fail(c, MPI_ERR_ROOT, "MPI_Reduce",
                "invalid root %d (communicator size %d)", root, c->size);
  }
  if (int rc = check_reduce_args(c, sendbuf, recvbuf, count, datatype, op,
                                 c->rank == root, &type, &kind, "MPI_Reduce");
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (sendbuf == MPI_IN_PLACE && c->rank != root) {
    return fail(c, MPI_ERR_BUFFER, "MPI_Reduce",
                "MPI_IN_PLACE is only valid at the root");
  }
  const std::size_t bytes =
      static_cast<std::size_t>(count) * static_cast<std::size_t>(type->extent);
  std::vector<std::byte> accumulator(bytes);
  if (bytes != 0) {
    std::memcpy(accumulator.data(), sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf,
                bytes);
  }
  reduce_tree(c, accumulator.data(), static_cast<std::size_t>(count), *type,
              kind, root);
  if (c->rank == root && bytes != 0) {
    std::memcpy(recvbuf, accumulator.data(), bytes);
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Reduce);

extern "C" int PMPI_Allreduce(const void* sendbuf, void* recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm) noexcept {
  Comm* c = nullptr;
  if (int rc = check_coll(comm, "MPI_Allreduce", &c); rc != MPI_SUCCESS) {
    return rc;
  }
  const datatype::BasicType* type = nullptr;
  datatype::OpKind kind{};
  if (int rc = check_reduce_args(c, sendbuf, recvbuf, count, datatype, op, true,
                                 &type, &kind, "MPI_Allreduce");
      rc != MPI_SUCCESS) {
    return rc;
  }
  const std::size_t bytes =
      static_cast<std::size_t>(count) * static_cast<std::size_t>(type->extent);
  if (sendbuf != MPI_IN_PLACE && bytes != 0) {
    std::memcpy(recvbuf, sendbuf, bytes);
  }
  // Reduce to rank 0, then broadcast: every rank gets the same bits.
  reduce_tree(c, recvbuf, static_cast<std::size_t>(count), *type, kind, 0);
  bcast_tree(c, recvbuf, bytes, 0);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Allreduce);
