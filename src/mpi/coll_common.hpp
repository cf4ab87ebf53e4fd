// SPDX-License-Identifier: MIT
// Point-to-point building blocks of the simple collectives: messages on a
// communicator's collective context (Z = 1), so they never match user
// traffic. The collectives issue replaces most uses with scratch-area
// algorithms; communicator creation keeps using them for the leaders of
// intercommunicators.
#pragma once

#include <cstddef>

#include "datatype/pack.hpp"
#include "datatype/reduce_ops.hpp"
#include "mpi/core.hpp"
#include "p2p/request.hpp"

namespace shmpi::mpi::coll {

inline constexpr int kBcastTag = 1;
inline constexpr int kReduceTag = 2;
inline constexpr int kGatherTag = 3;
inline constexpr int kBarrierTag = 4;
inline constexpr int kLeaderTag = 5;  // intercommunicator leader exchanges

// Starts a send or receive of `data` (any Layout) on the collective
// context; the caller waits for request.complete. Not for MPI_PROC_NULL.
void start_coll_send(p2p::Request& request, Comm* comm, int dest, int tag,
                     const datatype::Layout& data);
void start_coll_recv(p2p::Request& request, Comm* comm, int source, int tag,
                     const datatype::Layout& data);

void coll_send(Comm* comm, int dest, int tag, const void* data,
               std::size_t bytes);
void coll_recv(Comm* comm, int source, int tag, void* data, std::size_t bytes);
// Sends to and receives from `peer` at once (no deadlock between leaders).
void coll_sendrecv(Comm* comm, int peer, int tag, const void* send,
                   std::size_t send_bytes, void* recv, std::size_t recv_bytes);
void bcast_tree(Comm* comm, void* data, std::size_t bytes, int root);
void reduce_tree(Comm* comm, void* accumulator, std::size_t count,
                 const datatype::BasicType& type, datatype::OpKind op,
                 int root);
// Every member's `bytes` at `mine` end up in rank order in `all` at root.
void gather_linear(Comm* comm, const void* mine, void* all, std::size_t bytes,
                   int root);

}  // namespace shmpi::mpi::coll
