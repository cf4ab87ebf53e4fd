// SPDX-License-Identifier: MIT
// Argument checking and request set-up shared by the point-to-point entry
// points (blocking, nonblocking and persistent).
#pragma once

#include <memory>

#include "coll/core_mates.hpp"
#include "mpi/core.hpp"
#include "mpi/datatype.hpp"
#include "p2p/engine.hpp"

namespace shmpi::mpi {

// The segment slot of rank `peer` of `comm` when it is bound to this
// process's core (only while ranks outnumber cores), else kNoMateSlot. A
// wildcard source or MPI_PROC_NULL is never a core mate.
inline constexpr std::uint32_t kNoMateSlot = ~std::uint32_t{0};
inline std::uint32_t mate_slot(const Comm& comm, int peer) {
  if (peer < 0 || static_cast<std::size_t>(peer) >= comm.slots.size()) {
    return kNoMateSlot;
  }
  const std::uint32_t slot = comm.slots[static_cast<std::size_t>(peer)];
  if (!::shmpi::coll::shares_my_core(slot)) [[likely]] {
    return kNoMateSlot;
  }
  return slot;
}

// Whether rank `peer` of `comm` is bound to this process's core: a wait
// for a message from it, or for it to take ours, cannot be served while we
// poll, so it yields after one look at the rings
// (p2p::PollHint::kLookThenYield).
inline bool is_core_mate(const Comm& comm, int peer) {
  return mate_slot(comm, peer) != kNoMateSlot;
}

// is_core_mate(comm, source), and when it is, the sender is noted so that the
// next barrier lets it leave first, to send before we wait for it again
// (coll/core_mates.hpp). Called where a receive or probe starts (posted or
// blocking), so that its wait need only ask is_core_mate.
inline bool note_if_mate_source(const Comm& comm, int source) {
  const std::uint32_t slot = mate_slot(comm, source);
  if (slot == kNoMateSlot) [[likely]] {
    return false;
  }
  ::shmpi::coll::note_mate_sender(slot);
  return true;
}

inline p2p::PollHint mate_hint(bool from_mate) {
  return from_mate ? p2p::PollHint::kLookThenYield : p2p::PollHint::kAsUsual;
}

struct Operation {
  Comm* comm = nullptr;
  datatype::Layout layout;
  int peer = 0;
  int tag = 0;
  // Keeps a derived datatype's map alive while a request uses the layout
  // (the user may free the datatype first); null for contiguous data.
  std::shared_ptr<const datatype::TypeMap> map_owner;
};

// Checks (buf, count, type, dest, tag, comm) of a send in the standard's
// order; fills `op` on success. Inline: every point-to-point call makes
// them, and most of the Operation is not needed by every caller.
namespace detail {
[[gnu::always_inline]] inline int check_common(const void* buf, MPI_Count count,
                                               MPI_Datatype type, MPI_Comm comm,
                                               const char* function,
                                               Operation* op,
                                               int own_dest = -1) noexcept {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_comm(comm, &op->comm, function); rc != MPI_SUCCESS) {
    return rc;
  }
  // A send's ring cell is asked for as soon as the peer is known, before
  // the other checks, so that taking its line from the receiver overlaps
  // them. Ping-pong one way, medians of 10-16 alternations: 8-32 bytes
  // 0.268 -> 0.258 us, 64 bytes 0.345 -> 0.323. Only a rank in range: the
  // checks below still report a bad one.
  if (own_dest >= 0 &&
      static_cast<std::size_t>(own_dest) < op->comm->slots.size()) {
    state().engine->own_next_cell(
        op->comm->slots[static_cast<std::size_t>(own_dest)]);
  }
  if (int rc = check_count(op->comm, count, function); rc != MPI_SUCCESS) {
    return rc;
  }
  TypeArg arg;
  if (int rc = check_datatype(op->comm, type, &arg, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_buffer(op->comm, buf, count, arg, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  op->layout = arg.layout(buf, static_cast<std::size_t>(count));
  if (arg.map != nullptr) {
    // A padded pair type's map is predefined and lives for the process.
    if (const Datatype* derived = find_derived(type)) {
      op->map_owner = derived->desc->map;
    }
  }
  return MPI_SUCCESS;
}

// All of a send's (receive: false) or receive's checks: check_common(),
// then the peer rank (a receive also takes MPI_ANY_SOURCE) and the tag
// (a receive also takes MPI_ANY_TAG).
[[gnu::always_inline]] inline int check_operation(
    bool receive, const void* buf, MPI_Count count, MPI_Datatype type, int peer,
    int tag, MPI_Comm comm, const char* function, Operation* op) noexcept {
  if (int rc = check_common(buf, count, type, comm, function, op,
                            receive ? -1 : peer);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = receive ? check_source(op->comm, peer, function)
                       : check_dest(op->comm, peer, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = receive ? check_recv_tag(op->comm, tag, function)
                       : check_send_tag(op->comm, tag, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  op->peer = peer;
  op->tag = tag;
  return MPI_SUCCESS;
}

}  // namespace detail

[[gnu::always_inline]] inline int check_send(const void* buf, MPI_Count count,
                                             MPI_Datatype type, int dest,
                                             int tag, MPI_Comm comm,
                                             const char* function,
                                             Operation* op) noexcept {
  return detail::check_operation(false, buf, count, type, dest, tag, comm,
                                 function, op);
}
[[gnu::always_inline]] inline int check_recv(void* buf, MPI_Count count,
                                             MPI_Datatype type, int source,
                                             int tag, MPI_Comm comm,
                                             const char* function,
                                             Operation* op) noexcept {
  return detail::check_operation(true, buf, count, type, source, tag, comm,
                                 function, op);
}

// Fills a request for `op` (no start).
void setup_send(p2p::Request& request, const Operation& op, p2p::SendMode mode);
void setup_recv(p2p::Request& request, const Operation& op);

// Starts a set-up request: handles MPI_PROC_NULL and buffered mode.
int start_request(p2p::Request& request, const char* function) noexcept;

// Allocates a request handle (raises MPI_ERR_NO_MEM on exhaustion).
p2p::Request* new_request(Comm* comm, const char* function) noexcept;

// Completes `request` as a no-op with the MPI_PROC_NULL status.
void complete_proc_null(p2p::Request& request);

// After completion: the error class of a completed request (truncation).
inline int request_error(const p2p::Request& request) {
  return request.status.error;
}

}  // namespace shmpi::mpi
