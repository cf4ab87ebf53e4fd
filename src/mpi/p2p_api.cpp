// SPDX-License-Identifier: MIT
// Point-to-point entry points: blocking, nonblocking and persistent sends
// and receives in every mode, send-receive.
#include <mpi.h>

#include <vector>

#include "coll/core_mates.hpp"
#include "mpi/coll_driver.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/count_forms.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/p2p_common.hpp"
#include "partitioned/partitioned.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

int blocking_send(const void* buf, MPI_Count count, MPI_Datatype type, int dest,
                  int tag, MPI_Comm comm, p2p::SendMode mode,
                  const char* function) {
  Operation op;
  if (int rc = check_send(buf, count, type, dest, tag, comm, function, &op);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (dest == MPI_PROC_NULL) {
    return MPI_SUCCESS;
  }
  if ((mode == p2p::SendMode::kStandard || mode == p2p::SendMode::kReady) &&
      state().engine->send_now(op.comm->slots[static_cast<std::size_t>(dest)],
                               op.comm->context_id, op.comm->rank, tag,
                               op.layout)) {
    return MPI_SUCCESS;
  }
  p2p::Request request;
  setup_send(request, op, mode);
  request.caller_waits = true;
  if (int rc = start_request(request, function); rc != MPI_SUCCESS) {
    return rc;
  }
  state().engine->wait(request);
  return MPI_SUCCESS;
}

int nonblocking_send(const void* buf, MPI_Count count, MPI_Datatype type,
                     int dest, int tag, MPI_Comm comm, MPI_Request* out,
                     p2p::SendMode mode, bool persistent,
                     const char* function) {
  Operation op;
  if (int rc = check_send(buf, count, type, dest, tag, comm, function, &op);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (out == nullptr) {
    return fail(op.comm, MPI_ERR_ARG, function, "request is NULL");
  }
  p2p::Request* request = new_request(op.comm, function);
  if (request == nullptr) {
    return MPI_ERR_NO_MEM;
  }
  setup_send(*request, op, mode);
  request->persistent = persistent;
  *out = to_handle(request);
  if (persistent) {
    request->complete.store(true, std::memory_order_relaxed);  // inactive
    return MPI_SUCCESS;
  }
  request->active = true;
  return start_request(*request, function);
}

int nonblocking_recv(void* buf, MPI_Count count, MPI_Datatype type, int source,
                     int tag, MPI_Comm comm, MPI_Request* out, bool persistent,
                     const char* function) {
  Operation op;
  if (int rc = check_recv(buf, count, type, source, tag, comm, function, &op);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (out == nullptr) {
    return fail(op.comm, MPI_ERR_ARG, function, "request is NULL");
  }
  p2p::Request* request = new_request(op.comm, function);
  if (request == nullptr) {
    return MPI_ERR_NO_MEM;
  }
  setup_recv(*request, op);
  request->persistent = persistent;
  *out = to_handle(request);
  if (persistent) {
    request->complete.store(true, std::memory_order_relaxed);  // inactive
    return MPI_SUCCESS;
  }
  request->active = true;
  return start_request(*request, function);
}

}  // namespace

namespace {

// Starts the receive, then the send, and waits for both (MPI_Sendrecv and
// MPI_Sendrecv_replace, whose send data the caller has already copied).
int sendrecv(const Operation& send_op, const Operation& recv_op,
             MPI_Status* status, const char* function) {
  p2p::Engine& engine = *state().engine;
  p2p::Request recv;
  setup_recv(recv, recv_op);
  const bool from_mate = note_if_mate_source(*recv_op.comm, recv_op.peer);
  if (recv_op.peer == MPI_PROC_NULL) {
    complete_proc_null(recv);
  } else {
    engine.start_recv(recv);
  }
  p2p::Request send;
  setup_send(send, send_op, p2p::SendMode::kStandard);
  if (send_op.peer == MPI_PROC_NULL) {
    complete_proc_null(send);
  } else {
    engine.start_send(send);
  }
  engine.wait_until(
      [&] {
        return send.complete.load(std::memory_order_acquire) &&
               recv.complete.load(std::memory_order_acquire);
      },
      [&] {
        // Yield (after one look) only if what is still open waits for core
        // mates (a send's peer_slot is set by setup_send).
        const bool recv_mate =
            from_mate || recv.complete.load(std::memory_order_acquire);
        const bool send_mate = send.complete.load(std::memory_order_acquire) ||
                               ::shmpi::coll::shares_my_core(send.peer_slot);
        return mate_hint(recv_mate && send_mate);
      });
  fill_status(status, recv.status);
  if (recv.status.error != MPI_SUCCESS) {
    return fail(recv_op.comm, recv.status.error, function, "message truncated");
  }
  return MPI_SUCCESS;
}

}  // namespace

namespace {

int recv_impl(void* buf, MPI_Count count, MPI_Datatype datatype, int source,
              int tag, MPI_Comm comm, MPI_Status* status,
              const char* function) {
  Operation op;
  if (int rc =
          check_recv(buf, count, datatype, source, tag, comm, function, &op);
      rc != MPI_SUCCESS) {
    return rc;
  }
  // Noted whether or not this receive waits: one that finds its message
  // did not wait because the sender left the barrier first.
  const bool from_mate = note_if_mate_source(*op.comm, source);
  if (source >= 0) {
    const std::uint32_t slot = op.comm->slots[static_cast<std::size_t>(source)];
    p2p::Status direct;
    if (state().engine->recv_now(slot, op.comm->recv_context_id, source, tag,
                                 op.layout, &direct)) {
      fill_status(status, direct);
      return MPI_SUCCESS;
    }
  }
  p2p::Request request;
  setup_recv(request, op);
  if (source == MPI_PROC_NULL) {
    complete_proc_null(request);
  } else {
    p2p::Engine& engine = *state().engine;
    engine.start_recv(request);
    engine.wait_until(
        [&request] { return request.complete.load(std::memory_order_acquire); },
        [from_mate] { return mate_hint(from_mate); });
  }
  fill_status(status, request.status);
  if (request.status.error != MPI_SUCCESS) {
    return fail(
        op.comm, request.status.error, function,
        "message of %llu bytes truncated to the %zu-byte receive buffer",
        static_cast<unsigned long long>(request.status.bytes), op.layout.bytes);
  }
  return MPI_SUCCESS;
}

// MPI_Isendrecv(_replace): the user's request completes when both parts
// have; its status is the receive's. The parts are internal requests the
// engine releases itself.
int isendrecv(Operation send_op, const Operation& recv_op, bool replace,
              MPI_Request* out, const char* function) {
  if (out == nullptr) {
    return fail(send_op.comm, MPI_ERR_ARG, function, "request is NULL");
  }
  p2p::Request* whole = new_request(send_op.comm, function);
  if (whole == nullptr) {
    return MPI_ERR_NO_MEM;
  }
  whole->kind = p2p::RequestKind::kRecv;
  whole->comm = recv_op.comm;
  whole->active = true;
  if (replace && send_op.peer != MPI_PROC_NULL && send_op.layout.bytes != 0) {
    // The receive overwrites the buffer: send a copy taken now.
    whole->scratch = std::make_unique<std::byte[]>(send_op.layout.bytes);
    datatype::pack(send_op.layout, 0, whole->scratch.get(),
                   send_op.layout.bytes);
    send_op.layout =
        datatype::Layout{whole->scratch.get(), send_op.layout.bytes, nullptr};
  }
  p2p::Request* recv = nullptr;
  p2p::Request* send = nullptr;
  if (recv_op.peer != MPI_PROC_NULL) {
    recv = new_request(recv_op.comm, function);
  }
  if (send_op.peer != MPI_PROC_NULL) {
    send = new_request(send_op.comm, function);
  }
  if ((recv_op.peer != MPI_PROC_NULL && recv == nullptr) ||
      (send_op.peer != MPI_PROC_NULL && send == nullptr)) {
    for (p2p::Request* r : {recv, send, whole}) {
      if (r != nullptr) {
        state().requests.destroy(r);
      }
    }
    return MPI_ERR_NO_MEM;
  }
  if (recv == nullptr) {
    complete_proc_null(*whole);
    whole->complete.store(false, std::memory_order_relaxed);
  }
  const std::uint32_t parts =
      (recv != nullptr ? 1U : 0U) + (send != nullptr ? 1U : 0U);
  whole->pending_parts.store(parts, std::memory_order_relaxed);
  *out = to_handle(whole);
  if (parts == 0) {
    whole->complete.store(true, std::memory_order_release);
    return MPI_SUCCESS;
  }
  if (recv != nullptr) {
    setup_recv(*recv, recv_op);
    recv->internal = true;
    recv->parent = whole;
    recv->status_to_parent = true;
    note_if_mate_source(*recv_op.comm, recv_op.peer);
    state().engine->start_recv(*recv);
  }
  if (send != nullptr) {
    setup_send(*send, send_op, p2p::SendMode::kStandard);
    send->internal = true;
    send->parent = whole;
    state().engine->start_send(*send);
  }
  return MPI_SUCCESS;
}

// How an exchange completes: waited for, with the receive's status in
// `status` (MPI_Sendrecv...), or behind a request stored in *request
// (MPI_Isendrecv...).
struct Completion {
  MPI_Status* status = MPI_STATUS_IGNORE;
  MPI_Request* request = nullptr;
  bool nonblocking = false;
};
Completion waited(MPI_Status* status) { return Completion{status}; }
Completion behind(MPI_Request* request) {
  return Completion{MPI_STATUS_IGNORE, request, true};
}

// The checked exchange, as `done` asks. `replace`: both operations use one
// buffer, so the send goes from a copy taken now.
int exchange(Operation send_op, const Operation& recv_op, bool replace,
             const Completion& done, const char* function) {
  if (done.nonblocking) {
    return isendrecv(send_op, recv_op, replace, done.request, function);
  }
  std::vector<std::byte> copy;
  if (replace) {
    copy.resize(send_op.layout.bytes);
    datatype::pack(send_op.layout, 0, copy.data(), copy.size());
    send_op.layout = datatype::Layout{copy.data(), copy.size(), nullptr};
  }
  return sendrecv(send_op, recv_op, done.status, function);
}

int sendrecv_impl(const void* sendbuf, MPI_Count sendcount,
                  MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int source,
                  int recvtag, MPI_Comm comm, const Completion& done,
                  const char* function) {
  Operation send_op;
  Operation recv_op;
  if (int rc = check_send(sendbuf, sendcount, sendtype, dest, sendtag, comm,
                          function, &send_op);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_recv(recvbuf, recvcount, recvtype, source, recvtag, comm,
                          function, &recv_op);
      rc != MPI_SUCCESS) {
    return rc;
  }
  return exchange(send_op, recv_op, false, done, function);
}

int sendrecv_replace_impl(void* buf, MPI_Count count, MPI_Datatype datatype,
                          int dest, int sendtag, int source, int recvtag,
                          MPI_Comm comm, const Completion& done,
                          const char* function) {
  Operation send_op;
  Operation recv_op;
  if (int rc = check_send(buf, count, datatype, dest, sendtag, comm, function,
                          &send_op);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_recv(buf, count, datatype, source, recvtag, comm, function,
                          &recv_op);
      rc != MPI_SUCCESS) {
    return rc;
  }
  return exchange(send_op, recv_op, true, done, function);
}

}  // namespace

extern "C" int PMPI_Send(const void* buf, int count, MPI_Datatype datatype,
                         int dest, int tag, MPI_Comm comm) noexcept {
  return blocking_send(buf, count, datatype, dest, tag, comm,
                       p2p::SendMode::kStandard, "MPI_Send");
}
SHMPI_PMPI_ALIAS(MPI_Send);

extern "C" int PMPI_Ssend(const void* buf, int count, MPI_Datatype datatype,
                          int dest, int tag, MPI_Comm comm) noexcept {
  return blocking_send(buf, count, datatype, dest, tag, comm,
                       p2p::SendMode::kSynchronous, "MPI_Ssend");
}
SHMPI_PMPI_ALIAS(MPI_Ssend);

extern "C" int PMPI_Rsend(const void* buf, int count, MPI_Datatype datatype,
                          int dest, int tag, MPI_Comm comm) noexcept {
  return blocking_send(buf, count, datatype, dest, tag, comm,
                       p2p::SendMode::kReady, "MPI_Rsend");
}
SHMPI_PMPI_ALIAS(MPI_Rsend);

extern "C" int PMPI_Bsend(const void* buf, int count, MPI_Datatype datatype,
                          int dest, int tag, MPI_Comm comm) noexcept {
  return blocking_send(buf, count, datatype, dest, tag, comm,
                       p2p::SendMode::kBuffered, "MPI_Bsend");
}
SHMPI_PMPI_ALIAS(MPI_Bsend);

extern "C" int PMPI_Recv(void* buf, int count, MPI_Datatype datatype,
                         int source, int tag, MPI_Comm comm,
                         MPI_Status* status) noexcept {
  return recv_impl(buf, count, datatype, source, tag, comm, status, "MPI_Recv");
}
SHMPI_PMPI_ALIAS(MPI_Recv);

extern "C" int PMPI_Isend(const void* buf, int count, MPI_Datatype datatype,
                          int dest, int tag, MPI_Comm comm,
                          MPI_Request* request) noexcept {
  return nonblocking_send(buf, count, datatype, dest, tag, comm, request,
                          p2p::SendMode::kStandard, false, "MPI_Isend");
}
SHMPI_PMPI_ALIAS(MPI_Isend);

extern "C" int PMPI_Issend(const void* buf, int count, MPI_Datatype datatype,
                           int dest, int tag, MPI_Comm comm,
                           MPI_Request* request) noexcept {
  return nonblocking_send(buf, count, datatype, dest, tag, comm, request,
                          p2p::SendMode::kSynchronous, false, "MPI_Issend");
}
SHMPI_PMPI_ALIAS(MPI_Issend);

extern "C" int PMPI_Irsend(const void* buf, int count, MPI_Datatype datatype,
                           int dest, int tag, MPI_Comm comm,
                           MPI_Request* request) noexcept {
  return nonblocking_send(buf, count, datatype, dest, tag, comm, request,
                          p2p::SendMode::kReady, false, "MPI_Irsend");
}
SHMPI_PMPI_ALIAS(MPI_Irsend);

extern "C" int PMPI_Ibsend(const void* buf, int count, MPI_Datatype datatype,
                           int dest, int tag, MPI_Comm comm,
                           MPI_Request* request) noexcept {
  return nonblocking_send(buf, count, datatype, dest, tag, comm, request,
                          p2p::SendMode::kBuffered, false, "MPI_Ibsend");
}
SHMPI_PMPI_ALIAS(MPI_Ibsend);

extern "C" int PMPI_Irecv(void* buf, int count, MPI_Datatype datatype,
                          int source, int tag, MPI_Comm comm,
                          MPI_Request* request) noexcept {
  return nonblocking_recv(buf, count, datatype, source, tag, comm, request,
                          false, "MPI_Irecv");
}
SHMPI_PMPI_ALIAS(MPI_Irecv);

extern "C" int PMPI_Send_init(const void* buf, int count, MPI_Datatype datatype,
                              int dest, int tag, MPI_Comm comm,
                              MPI_Request* request) noexcept {
  return nonblocking_send(buf, count, datatype, dest, tag, comm, request,
                          p2p::SendMode::kStandard, true, "MPI_Send_init");
}
SHMPI_PMPI_ALIAS(MPI_Send_init);

extern "C" int PMPI_Ssend_init(const void* buf, int count,
                               MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm, MPI_Request* request) noexcept {
  return nonblocking_send(buf, count, datatype, dest, tag, comm, request,
                          p2p::SendMode::kSynchronous, true, "MPI_Ssend_init");
}
SHMPI_PMPI_ALIAS(MPI_Ssend_init);

extern "C" int PMPI_Rsend_init(const void* buf, int count,
                               MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm, MPI_Request* request) noexcept {
  return nonblocking_send(buf, count, datatype, dest, tag, comm, request,
                          p2p::SendMode::kReady, true, "MPI_Rsend_init");
}
SHMPI_PMPI_ALIAS(MPI_Rsend_init);

extern "C" int PMPI_Bsend_init(const void* buf, int count,
                               MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm, MPI_Request* request) noexcept {
  return nonblocking_send(buf, count, datatype, dest, tag, comm, request,
                          p2p::SendMode::kBuffered, true, "MPI_Bsend_init");
}
SHMPI_PMPI_ALIAS(MPI_Bsend_init);

extern "C" int PMPI_Recv_init(void* buf, int count, MPI_Datatype datatype,
                              int source, int tag, MPI_Comm comm,
                              MPI_Request* request) noexcept {
  return nonblocking_recv(buf, count, datatype, source, tag, comm, request,
                          true, "MPI_Recv_init");
}
SHMPI_PMPI_ALIAS(MPI_Recv_init);

extern "C" int PMPI_Start(MPI_Request* request) noexcept {
  if (int rc = check_initialized("MPI_Start"); rc != MPI_SUCCESS) {
    return rc;
  }
  p2p::Request* r = request != nullptr ? find_request(*request) : nullptr;
  if (r == nullptr) {
    return fail(nullptr, MPI_ERR_REQUEST, "MPI_Start",
                "invalid request handle");
  }
  // A valid request's errors go to its communicator's handler (MPI 4.0
  // section 9.3); only a garbage handle has no object to raise them on.
  if (!r->persistent) {
    return fail(static_cast<Comm*>(r->comm), MPI_ERR_REQUEST, "MPI_Start",
                "not a persistent request");
  }
  if (r->active) {
    return fail(static_cast<Comm*>(r->comm), MPI_ERR_REQUEST, "MPI_Start",
                "the request is already active");
  }
  r->active = true;
  r->complete.store(false, std::memory_order_relaxed);
  if (r->kind == p2p::RequestKind::kCollective) {
    start_persistent(*r);
    return MPI_SUCCESS;
  }
  if (r->kind == p2p::RequestKind::kPartSend ||
      r->kind == p2p::RequestKind::kPartRecv) {
    partitioned::start(*r);
    return MPI_SUCCESS;
  }
  return start_request(*r, "MPI_Start");
}
SHMPI_PMPI_ALIAS(MPI_Start);

extern "C" int PMPI_Startall(int count, MPI_Request requests[]) noexcept {
  if (int rc = check_initialized("MPI_Startall"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (count < 0 || (count > 0 && requests == nullptr)) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Startall", "invalid request array");
  }
  for (int i = 0; i < count; ++i) {
    p2p::Request* r = find_request(requests[i]);
    if (r == nullptr) {
      return fail(nullptr, MPI_ERR_REQUEST, "MPI_Startall",
                  "invalid request handle at index %d", i);
    }
    if (!r->persistent || r->active) {
      return fail(static_cast<Comm*>(r->comm), MPI_ERR_REQUEST, "MPI_Startall",
                  "request %d is not an inactive persistent request", i);
    }
  }
  for (int i = 0; i < count; ++i) {
    if (int rc = PMPI_Start(&requests[i]); rc != MPI_SUCCESS) {
      return rc;
    }
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Startall);

// Large-count (MPI 4.0 "_c") twins of the calls above.

extern "C" int PMPI_Send_c(const void* buf, MPI_Count count,
                           MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm) noexcept {
  return blocking_send(buf, count, datatype, dest, tag, comm,
                       p2p::SendMode::kStandard, "MPI_Send_c");
}
SHMPI_PMPI_ALIAS(MPI_Send_c);

extern "C" int PMPI_Ssend_c(const void* buf, MPI_Count count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm) noexcept {
  return blocking_send(buf, count, datatype, dest, tag, comm,
                       p2p::SendMode::kSynchronous, "MPI_Ssend_c");
}
SHMPI_PMPI_ALIAS(MPI_Ssend_c);

extern "C" int PMPI_Rsend_c(const void* buf, MPI_Count count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm) noexcept {
  return blocking_send(buf, count, datatype, dest, tag, comm,
                       p2p::SendMode::kReady, "MPI_Rsend_c");
}
SHMPI_PMPI_ALIAS(MPI_Rsend_c);

extern "C" int PMPI_Bsend_c(const void* buf, MPI_Count count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm) noexcept {
  return blocking_send(buf, count, datatype, dest, tag, comm,
                       p2p::SendMode::kBuffered, "MPI_Bsend_c");
}
SHMPI_PMPI_ALIAS(MPI_Bsend_c);

extern "C" int PMPI_Recv_c(void* buf, MPI_Count count, MPI_Datatype datatype,
                           int source, int tag, MPI_Comm comm,
                           MPI_Status* status) noexcept {
  return recv_impl(buf, count, datatype, source, tag, comm, status,
                   "MPI_Recv_c");
}
SHMPI_PMPI_ALIAS(MPI_Recv_c);

extern "C" int PMPI_Isend_c(const void* buf, MPI_Count count,
                            MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request* request) noexcept {
  return nonblocking_send(buf, count, datatype, dest, tag, comm, request,
                          p2p::SendMode::kStandard, false, "MPI_Isend_c");
}
SHMPI_PMPI_ALIAS(MPI_Isend_c);

extern "C" int PMPI_Issend_c(const void* buf, MPI_Count count,
                             MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request* request) noexcept {
  return nonblocking_send(buf, count, datatype, dest, tag, comm, request,
                          p2p::SendMode::kSynchronous, false, "MPI_Issend_c");
}
SHMPI_PMPI_ALIAS(MPI_Issend_c);

extern "C" int PMPI_Irsend_c(const void* buf, MPI_Count count,
                             MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request* request) noexcept {
  return nonblocking_send(buf, count, datatype, dest, tag, comm, request,
                          p2p::SendMode::kReady, false, "MPI_Irsend_c");
}
SHMPI_PMPI_ALIAS(MPI_Irsend_c);

extern "C" int PMPI_Ibsend_c(const void* buf, MPI_Count count,
                             MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request* request) noexcept {
  return nonblocking_send(buf, count, datatype, dest, tag, comm, request,
                          p2p::SendMode::kBuffered, false, "MPI_Ibsend_c");
}
SHMPI_PMPI_ALIAS(MPI_Ibsend_c);

extern "C" int PMPI_Irecv_c(void* buf, MPI_Count count, MPI_Datatype datatype,
                            int source, int tag, MPI_Comm comm,
                            MPI_Request* request) noexcept {
  return nonblocking_recv(buf, count, datatype, source, tag, comm, request,
                          false, "MPI_Irecv_c");
}
SHMPI_PMPI_ALIAS(MPI_Irecv_c);

extern "C" int PMPI_Send_init_c(const void* buf, MPI_Count count,
                                MPI_Datatype datatype, int dest, int tag,
                                MPI_Comm comm, MPI_Request* request) noexcept {
  return nonblocking_send(buf, count, datatype, dest, tag, comm, request,
                          p2p::SendMode::kStandard, true, "MPI_Send_init_c");
}
SHMPI_PMPI_ALIAS(MPI_Send_init_c);

extern "C" int PMPI_Ssend_init_c(const void* buf, MPI_Count count,
                                 MPI_Datatype datatype, int dest, int tag,
                                 MPI_Comm comm, MPI_Request* request) noexcept {
  return nonblocking_send(buf, count, datatype, dest, tag, comm, request,
                          p2p::SendMode::kSynchronous, true,
                          "MPI_Ssend_init_c");
}
SHMPI_PMPI_ALIAS(MPI_Ssend_init_c);

extern "C" int PMPI_Rsend_init_c(const void* buf, MPI_Count count,
                                 MPI_Datatype datatype, int dest, int tag,
                                 MPI_Comm comm, MPI_Request* request) noexcept {
  return nonblocking_send(buf, count, datatype, dest, tag, comm, request,
                          p2p::SendMode::kReady, true, "MPI_Rsend_init_c");
}
SHMPI_PMPI_ALIAS(MPI_Rsend_init_c);

extern "C" int PMPI_Bsend_init_c(const void* buf, MPI_Count count,
                                 MPI_Datatype datatype, int dest, int tag,
                                 MPI_Comm comm, MPI_Request* request) noexcept {
  return nonblocking_send(buf, count, datatype, dest, tag, comm, request,
                          p2p::SendMode::kBuffered, true, "MPI_Bsend_init_c");
}
SHMPI_PMPI_ALIAS(MPI_Bsend_init_c);

extern "C" int PMPI_Recv_init_c(void* buf, MPI_Count count,
                                MPI_Datatype datatype, int source, int tag,
                                MPI_Comm comm, MPI_Request* request) noexcept {
  return nonblocking_recv(buf, count, datatype, source, tag, comm, request,
                          true, "MPI_Recv_init_c");
}
SHMPI_PMPI_ALIAS(MPI_Recv_init_c);

// MPI_Sendrecv(_replace), their nonblocking forms and the large-count forms
// of both, from one parameter list (detail/count_forms.hpp).
#define SHMPI_EXCHANGE(Name, IName, Params, Impl, Args)                   \
  SHMPI_COUNT_FORMS(Name, (SHMPI_UNPAREN Params, MPI_Status * status),    \
                    Impl(SHMPI_UNPAREN Args, waited(status), fn));        \
  SHMPI_COUNT_FORMS(IName, (SHMPI_UNPAREN Params, MPI_Request * request), \
                    Impl(SHMPI_UNPAREN Args, behind(request), fn))

SHMPI_EXCHANGE(Sendrecv, Isendrecv,
               (const void* sendbuf, Count sendcount, MPI_Datatype sendtype,
                int dest, int sendtag, void* recvbuf, Count recvcount,
                MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm),
               sendrecv_impl,
               (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                recvtype, source, recvtag, comm));

SHMPI_EXCHANGE(Sendrecv_replace, Isendrecv_replace,
               (void* buf, Count count, MPI_Datatype datatype, int dest,
                int sendtag, int source, int recvtag, MPI_Comm comm),
               sendrecv_replace_impl,
               (buf, count, datatype, dest, sendtag, source, recvtag, comm));
