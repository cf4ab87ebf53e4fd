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
#include "mpi/coll_common.hpp"
#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/p2p_common.hpp"

using namespace shmpi;
using namespace shmpi::mpi;
using namespace shmpi::mpi::coll;

namespace {

int check_coll(MPI_Comm comm, const char* function, Comm** out) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  return check_comm(comm, out, function);
}

// Intracommunicator: a rank. Intercommunicator: MPI_ROOT, MPI_PROC_NULL
// or a rank of the remote group.
int check_root(Comm* c, int root, const char* function) {
  const bool valid = c->is_inter ? (root == MPI_ROOT || root == MPI_PROC_NULL ||
                                    (root >= 0 && root < c->remote_size))
                                 : (root >= 0 && root < c->size);
  if (!valid) {
    return fail(c, MPI_ERR_ROOT, function, "invalid root %d (%s size %d)", root,
                c->is_inter ? "remote group" : "communicator", c->peer_count());
  }
  return MPI_SUCCESS;
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
  } else if (c->is_inter) {
    // Everyone local has arrived, the leaders swap, the leader releases
    // its group: nobody leaves before both groups have entered.
    block_barrier(*c->local_comm);
    if (c->rank == 0) {
      char token = 0;
      char other = 0;
      coll_sendrecv(c, 0, kBarrierTag, &token, 1, &other, 1);
    }
    block_barrier(*c->local_comm);
  } else {
    block_barrier(*c);
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
  if (int rc = check_root(c, root, "MPI_Bcast"); rc != MPI_SUCCESS) {
    return rc;
  }
  const std::size_t bytes =
      static_cast<std::size_t>(count) * static_cast<std::size_t>(type->extent);
  if (c->is_inter) {
    // The root sends to the remote group's rank 0, which broadcasts there.
    if (root == MPI_ROOT) {
      coll_send(c, 0, kBcastTag, buffer, bytes);
    } else if (root != MPI_PROC_NULL) {
      if (c->rank == 0) {
        coll_recv(c, root, kBcastTag, buffer, bytes);
      }
      bcast_tree(c->local_comm, buffer, bytes, 0);
    }
    return MPI_SUCCESS;
  }
  bcast_tree(c, buffer, bytes, root);
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
  if (int rc = check_root(c, root, "MPI_Reduce"); rc != MPI_SUCCESS) {
    return rc;
  }
  const bool receives = c->is_inter ? root == MPI_ROOT : c->rank == root;
  if (int rc = check_reduce_args(c, sendbuf, recvbuf, count, datatype, op,
                                 receives, &type, &kind, "MPI_Reduce");
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (c->is_inter) {
    const std::size_t bytes = static_cast<std::size_t>(count) *
                              static_cast<std::size_t>(type->extent);
    if (root == MPI_ROOT) {
      coll_recv(c, 0, kReduceTag, recvbuf, bytes);
    } else if (root != MPI_PROC_NULL) {
      std::vector<std::byte> accumulator(bytes);
      if (bytes != 0) {
        std::memcpy(accumulator.data(), sendbuf, bytes);
      }
      reduce_tree(c->local_comm, accumulator.data(),
                  static_cast<std::size_t>(count), *type, kind, 0);
      if (c->rank == 0) {
        coll_send(c, root, kReduceTag, accumulator.data(), bytes);
      }
    }
    return MPI_SUCCESS;
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
  if (c->is_inter) {
    if (sendbuf == MPI_IN_PLACE) {
      return fail(c, MPI_ERR_BUFFER, "MPI_Allreduce",
                  "MPI_IN_PLACE is not valid on an intercommunicator");
    }
    // Each group reduces to its leader; the leaders swap; each group gets
    // the other group's result.
    std::vector<std::byte> accumulator(bytes);
    if (bytes != 0) {
      std::memcpy(accumulator.data(), sendbuf, bytes);
    }
    reduce_tree(c->local_comm, accumulator.data(),
                static_cast<std::size_t>(count), *type, kind, 0);
    if (c->rank == 0) {
      coll_sendrecv(c, 0, kReduceTag, accumulator.data(), bytes, recvbuf,
                    bytes);
    }
    bcast_tree(c->local_comm, recvbuf, bytes, 0);
    return MPI_SUCCESS;
  }
  if (sendbuf != MPI_IN_PLACE && bytes != 0) {
    std::memcpy(recvbuf, sendbuf, bytes);
  }
  // Reduce to rank 0, then broadcast: every rank gets the same bits.
  reduce_tree(c, recvbuf, static_cast<std::size_t>(count), *type, kind, 0);
  bcast_tree(c, recvbuf, bytes, 0);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Allreduce);

extern "C" int PMPI_Allgather(const void* sendbuf, int sendcount,
                              MPI_Datatype sendtype, void* recvbuf,
                              int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm) noexcept {
  constexpr const char* kFn = "MPI_Allgather";
  Comm* c = nullptr;
  if (int rc = check_coll(comm, kFn, &c); rc != MPI_SUCCESS) {
    return rc;
  }
  const datatype::BasicType* rtype = nullptr;
  if (int rc = check_count(c, recvcount, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_type(c, recvtype, &rtype, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  const std::size_t block = static_cast<std::size_t>(recvcount) *
                            static_cast<std::size_t>(rtype->extent);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (in_place && c->is_inter) {
    return fail(c, MPI_ERR_BUFFER, kFn,
                "MPI_IN_PLACE is not valid on an intercommunicator");
  }
  std::size_t send_bytes = block;
  if (!in_place) {
    const datatype::BasicType* stype = nullptr;
    if (int rc = check_count(c, sendcount, kFn); rc != MPI_SUCCESS) {
      return rc;
    }
    if (int rc = check_type(c, sendtype, &stype, kFn); rc != MPI_SUCCESS) {
      return rc;
    }
    if (int rc = check_buffer(c, sendbuf, sendcount, kFn); rc != MPI_SUCCESS) {
      return rc;
    }
    send_bytes = static_cast<std::size_t>(sendcount) *
                 static_cast<std::size_t>(stype->extent);
  }
  if (int rc = check_buffer(c, recvbuf, recvcount, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (c->is_inter) {
    // Each group sends its own block size, which is what the other group
    // receives per process.
    Comm* local = c->local_comm;
    std::vector<std::byte> mine(send_bytes * static_cast<std::size_t>(c->size));
    gather_linear(local, sendbuf, mine.data(), send_bytes, 0);
    const std::size_t remote_bytes =
        block * static_cast<std::size_t>(c->remote_size);
    if (c->rank == 0) {
      coll_sendrecv(c, 0, kGatherTag, mine.data(), mine.size(), recvbuf,
                    remote_bytes);
    }
    bcast_tree(local, recvbuf, remote_bytes, 0);
    return MPI_SUCCESS;
  }
  if (send_bytes != block) {
    return fail(c, MPI_ERR_TRUNCATE, kFn,
                "%zu bytes sent per process but %zu expected", send_bytes,
                block);
  }
  auto* out = static_cast<std::byte*>(recvbuf);
  const void* my_block =
      in_place ? out + static_cast<std::size_t>(c->rank) * block : sendbuf;
  std::vector<std::byte> all(block * static_cast<std::size_t>(c->size));
  gather_linear(c, my_block, all.data(), block, 0);
  if (c->rank == 0 && !all.empty()) {
    std::memcpy(out, all.data(), all.size());
  }
  bcast_tree(c, out, all.size(), 0);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Allgather);
