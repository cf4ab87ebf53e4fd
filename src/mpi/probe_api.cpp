// SPDX-License-Identifier: MIT
// Probe, matched probe and matched receive; status queries.
#include <mpi.h>

#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/message.hpp"
#include "mpi/p2p_common.hpp"
#include "p2p/unexpected.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

HandleArena<MessageBox>& shmpi::mpi::messages() {
  static auto* arena = new HandleArena<MessageBox>(1u << 20);
  return *arena;
}

namespace {

int check_probe(int source, int tag, MPI_Comm comm, const char* function,
                Comm** out) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_comm(comm, out, function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_source(*out, source, function); rc != MPI_SUCCESS) {
    return rc;
  }
  return check_recv_tag(*out, tag, function);
}

void proc_null_status(MPI_Status* status) {
  p2p::Status s;
  s.source = MPI_PROC_NULL;
  s.tag = MPI_ANY_TAG;
  fill_status(status, s);
}

}  // namespace

extern "C" int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag,
                           MPI_Status* status) noexcept {
  Comm* c = nullptr;
  if (int rc = check_probe(source, tag, comm, "MPI_Iprobe", &c);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (flag == nullptr) {
    return fail(c, MPI_ERR_ARG, "MPI_Iprobe", "flag is NULL");
  }
  if (source == MPI_PROC_NULL) {
    *flag = 1;
    proc_null_status(status);
    return MPI_SUCCESS;
  }
  p2p::Status found;
  *flag =
      state().engine->iprobe(c->recv_context_id, source, tag, &found) ? 1 : 0;
  if (*flag != 0) {
    fill_status(status, found);
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Iprobe);

extern "C" int PMPI_Probe(int source, int tag, MPI_Comm comm,
                          MPI_Status* status) noexcept {
  Comm* c = nullptr;
  if (int rc = check_probe(source, tag, comm, "MPI_Probe", &c);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (source == MPI_PROC_NULL) {
    proc_null_status(status);
    return MPI_SUCCESS;
  }
  p2p::Status found;
  p2p::Engine& engine = *state().engine;
  const bool from_mate = note_if_mate_source(*c, source);
  engine.wait_until(
      [&] { return engine.iprobe(c->recv_context_id, source, tag, &found); },
      [from_mate] { return mate_hint(from_mate); });
  fill_status(status, found);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Probe);

extern "C" int PMPI_Improbe(int source, int tag, MPI_Comm comm, int* flag,
                            MPI_Message* message, MPI_Status* status) noexcept {
  Comm* c = nullptr;
  if (int rc = check_probe(source, tag, comm, "MPI_Improbe", &c);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (flag == nullptr || message == nullptr) {
    return fail(c, MPI_ERR_ARG, "MPI_Improbe", "NULL argument");
  }
  if (source == MPI_PROC_NULL) {
    *flag = 1;
    *message = MPI_MESSAGE_NO_PROC;
    proc_null_status(status);
    return MPI_SUCCESS;
  }
  p2p::Status found;
  p2p::UnexpectedMessage* taken =
      state().engine->improbe(c->recv_context_id, source, tag, &found);
  if (taken == nullptr) {
    *flag = 0;
    return MPI_SUCCESS;
  }
  MessageBox* box = messages().create();
  if (box == nullptr) {
    return fail(c, MPI_ERR_NO_MEM, "MPI_Improbe", "out of message handles");
  }
  box->message = taken;
  box->comm = c;
  *flag = 1;
  *message =
      reinterpret_cast<MPI_Message>(box);  // NOLINT: handle is the object
  fill_status(status, found);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Improbe);

extern "C" int PMPI_Mprobe(int source, int tag, MPI_Comm comm,
                           MPI_Message* message, MPI_Status* status) noexcept {
  Comm* c = nullptr;
  if (int rc = check_probe(source, tag, comm, "MPI_Mprobe", &c);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (message == nullptr) {
    return fail(c, MPI_ERR_ARG, "MPI_Mprobe", "message is NULL");
  }
  int flag = 0;
  p2p::Engine& engine = *state().engine;
  int rc = MPI_SUCCESS;
  const bool from_mate = note_if_mate_source(*c, source);
  engine.wait_until(
      [&] {
        rc = PMPI_Improbe(source, tag, comm, &flag, message, status);
        return rc != MPI_SUCCESS || flag != 0;
      },
      [from_mate] { return mate_hint(from_mate); });
  return rc;
}
SHMPI_PMPI_ALIAS(MPI_Mprobe);

namespace {

int matched_receive(void* buf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Message* message, p2p::Request& request,
                    const char* function) {
  if (int rc = check_initialized(function); rc != MPI_SUCCESS) {
    return rc;
  }
  if (message == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "message is NULL");
  }
  if (*message == MPI_MESSAGE_NO_PROC) {
    setup_recv(
        request,
        Operation{&state().self, {}, MPI_PROC_NULL, MPI_ANY_TAG, nullptr});
    complete_proc_null(request);
    *message = MPI_MESSAGE_NULL;
    return MPI_SUCCESS;
  }
  MessageBox* box = messages().find(*message);
  if (box == nullptr) {
    return fail(nullptr, MPI_ERR_REQUEST, function, "invalid message handle %p",
                static_cast<void*>(*message));
  }
  Operation op;
  if (int rc = check_recv(buf, count, datatype, MPI_ANY_SOURCE, MPI_ANY_TAG,
                          box->comm->handle, function, &op);
      rc != MPI_SUCCESS) {
    return rc;
  }
  setup_recv(request, op);
  state().engine->mrecv(box->message, request);
  messages().destroy(box);
  *message = MPI_MESSAGE_NULL;
  return MPI_SUCCESS;
}

int mrecv_impl(void* buf, MPI_Count count, MPI_Datatype datatype,
               MPI_Message* message, MPI_Status* status, const char* function) {
  p2p::Request request;
  if (int rc =
          matched_receive(buf, count, datatype, message, request, function);
      rc != MPI_SUCCESS) {
    return rc;
  }
  state().engine->wait(request);
  fill_status(status, request.status);
  if (request.status.error != MPI_SUCCESS) {
    return fail(static_cast<Comm*>(request.comm), request.status.error,
                function, "message truncated");
  }
  return MPI_SUCCESS;
}

int imrecv_impl(void* buf, MPI_Count count, MPI_Datatype datatype,
                MPI_Message* message, MPI_Request* request,
                const char* function) {
  if (request == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, function, "request is NULL");
  }
  p2p::Request* r = new_request(nullptr, function);
  if (r == nullptr) {
    return MPI_ERR_NO_MEM;
  }
  if (int rc = matched_receive(buf, count, datatype, message, *r, function);
      rc != MPI_SUCCESS) {
    state().requests.destroy(r);
    return rc;
  }
  r->active = true;
  *request = to_handle(r);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Mrecv(void* buf, int count, MPI_Datatype datatype,
                          MPI_Message* message, MPI_Status* status) noexcept {
  return mrecv_impl(buf, count, datatype, message, status, "MPI_Mrecv");
}
SHMPI_PMPI_ALIAS(MPI_Mrecv);

extern "C" int PMPI_Mrecv_c(void* buf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Message* message, MPI_Status* status) noexcept {
  return mrecv_impl(buf, count, datatype, message, status, "MPI_Mrecv_c");
}
SHMPI_PMPI_ALIAS(MPI_Mrecv_c);

extern "C" int PMPI_Imrecv(void* buf, int count, MPI_Datatype datatype,
                           MPI_Message* message,
                           MPI_Request* request) noexcept {
  return imrecv_impl(buf, count, datatype, message, request, "MPI_Imrecv");
}
SHMPI_PMPI_ALIAS(MPI_Imrecv);

extern "C" int PMPI_Imrecv_c(void* buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Message* message,
                             MPI_Request* request) noexcept {
  return imrecv_impl(buf, count, datatype, message, request, "MPI_Imrecv_c");
}
SHMPI_PMPI_ALIAS(MPI_Imrecv_c);

// ------------------------------------------------------------ status

extern "C" int PMPI_Status_set_cancelled(MPI_Status* status,
                                         int flag) noexcept {
  if (status == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Status_set_cancelled",
                "status is NULL");
  }
  status->MPI_internal[2] = flag != 0 ? 1 : 0;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Status_set_cancelled);
