// SPDX-License-Identifier: MIT
#include "mpi/coll_common.hpp"

#include <cstring>
#include <vector>

#include "p2p/engine.hpp"

namespace shmpi::mpi::coll {

namespace {

void start_bytes_send(p2p::Request& request, Comm* comm, int dest, int tag,
                      const void* data, std::size_t bytes) {
  start_coll_send(
      request, comm, dest, tag,
      datatype::Layout{static_cast<std::byte*>(const_cast<void*>(data)), bytes,
                       nullptr});
}

void start_bytes_recv(p2p::Request& request, Comm* comm, int source, int tag,
                      void* data, std::size_t bytes) {
  start_coll_recv(
      request, comm, source, tag,
      datatype::Layout{static_cast<std::byte*>(data), bytes, nullptr});
}

}  // namespace

void start_coll_send(p2p::Request& request, Comm* comm, int dest, int tag,
                     const datatype::Layout& data) {
  request.kind = p2p::RequestKind::kSend;
  request.layout = data;
  request.peer = dest;
  request.tag = tag;
  request.my_rank = comm->rank;
  request.context_id = comm->coll_context_id;
  request.peer_slot = comm->slots[static_cast<std::size_t>(dest)];
  request.comm = comm;
  state().engine->start_send(request);
}

void start_coll_recv(p2p::Request& request, Comm* comm, int source, int tag,
                     const datatype::Layout& data) {
  request.kind = p2p::RequestKind::kRecv;
  request.layout = data;
  request.peer = source;
  request.tag = tag;
  request.context_id = comm->coll_recv_context_id;
  request.comm = comm;
  state().engine->start_recv(request);
}

void coll_send(Comm* comm, int dest, int tag, const void* data,
               std::size_t bytes) {
  p2p::Request request;
  start_bytes_send(request, comm, dest, tag, data, bytes);
  state().engine->wait(request);
}

void coll_recv(Comm* comm, int source, int tag, void* data, std::size_t bytes) {
  p2p::Request request;
  start_bytes_recv(request, comm, source, tag, data, bytes);
  state().engine->wait(request);
}

void coll_sendrecv(Comm* comm, int peer, int tag, const void* send,
                   std::size_t send_bytes, void* recv, std::size_t recv_bytes) {
  p2p::Request out;
  p2p::Request in;
  start_bytes_recv(in, comm, peer, tag, recv, recv_bytes);
  start_bytes_send(out, comm, peer, tag, send, send_bytes);
  state().engine->wait(out);
  state().engine->wait(in);
}

void gather_linear(Comm* comm, const void* mine, void* all, std::size_t bytes,
                   int root) {
  if (comm->rank != root) {
    coll_send(comm, root, kGatherTag, mine, bytes);
    return;
  }
  auto* out = static_cast<std::byte*>(all);
  for (int r = 0; r < comm->size; ++r) {
    std::byte* place = out + static_cast<std::size_t>(r) * bytes;
    if (r == root) {
      if (bytes != 0) {
        std::memcpy(place, mine, bytes);
      }
    } else {
      coll_recv(comm, r, kGatherTag, place, bytes);
    }
  }
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

}  // namespace shmpi::mpi::coll
