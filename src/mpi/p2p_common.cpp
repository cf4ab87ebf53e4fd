// SPDX-License-Identifier: MIT
#include "mpi/p2p_common.hpp"

#include "mpi/bsend.hpp"
#include "mpi/datatype.hpp"

namespace shmpi::mpi {

void setup_send(p2p::Request& request, const Operation& op,
                p2p::SendMode mode) {
  request.kind = p2p::RequestKind::kSend;
  request.mode = mode;
  request.layout = op.layout;
  request.map_owner = op.map_owner;
  request.peer = op.peer;
  request.tag = op.tag;
  request.my_rank = op.comm->rank;
  request.context_id = op.comm->context_id;
  request.peer_slot =
      op.peer >= 0 ? op.comm->slots[static_cast<std::size_t>(op.peer)] : 0;
  request.comm = op.comm;
}

void setup_recv(p2p::Request& request, const Operation& op) {
  request.kind = p2p::RequestKind::kRecv;
  request.layout = op.layout;
  request.map_owner = op.map_owner;
  request.peer = op.peer;
  request.tag = op.tag;
  request.context_id = op.comm->recv_context_id;
  request.comm = op.comm;
}

void complete_proc_null(p2p::Request& request) {
  request.status = p2p::Status{};
  request.status.source = MPI_PROC_NULL;
  request.status.tag = MPI_ANY_TAG;
  request.complete.store(true, std::memory_order_release);
}

int start_request(p2p::Request& request, const char* function) noexcept {
  if (request.peer == MPI_PROC_NULL) {
    complete_proc_null(request);
    return MPI_SUCCESS;
  }
  p2p::Engine& engine = *state().engine;
  if (request.kind == p2p::RequestKind::kRecv) {
    // Noted when posted, not only when waited for: a receive whose wait
    // finds the message there did not wait because the sender left the
    // barrier first, and must keep it so.
    note_if_mate_source(*static_cast<Comm*>(request.comm), request.peer);
    engine.start_recv(request);
    return MPI_SUCCESS;
  }
  if (request.mode == p2p::SendMode::kBuffered) {
    auto* comm = static_cast<Comm*>(request.comm);
    int rc =
        bsend_start(comm, request.layout, request.peer, request.tag, function);
    request.status = p2p::Status{};
    request.complete.store(true, std::memory_order_release);
    return rc;
  }
  engine.start_send(request);
  return MPI_SUCCESS;
}

p2p::Request* new_request(Comm* comm, const char* function) noexcept {
  p2p::Request* request = state().requests.create();
  if (request == nullptr) {
    fail(comm, MPI_ERR_NO_MEM, function, "out of request handles");
  }
  return request;
}

}  // namespace shmpi::mpi
