// SPDX-License-Identifier: MIT
// Generalized requests: MPI_Grequest_start, MPI_Grequest_complete and the
// hooks of the wait/test family (grequest.hpp).
#include "mpi/grequest.hpp"

#include <atomic>
#include <memory>

#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/p2p_common.hpp"
#include "p2p/engine.hpp"

namespace shmpi::mpi::grequest {

namespace {

// What MPI_Grequest_start was given, owned by the request.
struct State {
  MPI_Grequest_query_function* query_fn = nullptr;
  MPI_Grequest_free_function* free_fn = nullptr;
  MPI_Grequest_cancel_function* cancel_fn = nullptr;
  void* extra_state = nullptr;
  // kCompleted: MPI_Grequest_complete was called; kFreed: MPI_Request_free
  // was. Whichever call sets the second bit frees the request, so a
  // completion from another thread and the free never both do.
  std::atomic<unsigned> ended{0};
  bool settled = false;  // the query callback ran for the retirement
};
constexpr unsigned kCompleted = 1;
constexpr unsigned kFreed = 2;

State& state_of(p2p::Request& request) {
  return *static_cast<State*>(request.owned.get());
}

// The callback's status into the request's (error: its return code).
void run_query(p2p::Request& request) {
  State& s = state_of(request);
  MPI_Status out{};
  out.MPI_SOURCE = MPI_UNDEFINED;
  out.MPI_TAG = MPI_UNDEFINED;
  set_status_count(&out, 0);
  int rc = MPI_SUCCESS;
  if (s.query_fn != nullptr) {
    rc = s.query_fn(s.extra_state, &out);
  }
  request.status.source = out.MPI_SOURCE;
  request.status.tag = out.MPI_TAG;
  request.status.bytes = static_cast<std::uint64_t>(status_bytes(&out));
  request.status.cancelled = out.MPI_internal[2] != 0;
  request.status.error = rc;
}

// The free callback, then the request object.
int free_now(p2p::Request* request) {
  State& s = state_of(*request);
  int rc = MPI_SUCCESS;
  if (s.free_fn != nullptr) {
    rc = s.free_fn(s.extra_state);
  }
  mpi::state().requests.destroy(request);
  return rc;
}

}  // namespace

void settle(p2p::Request& request) {
  State& s = state_of(request);
  if (!s.settled) {
    s.settled = true;
    run_query(request);
  }
}

void query(p2p::Request& request) { run_query(request); }

int retire(MPI_Request* handle, p2p::Request* request, MPI_Status* status) {
  settle(*request);
  fill_status(status, request->status);
  const int queried = request->status.error;
  *handle = MPI_REQUEST_NULL;
  const int freed = free_now(request);
  return queried != MPI_SUCCESS ? queried : freed;
}

int release(p2p::Request* request) {
  // Acq_rel: the completing thread's writes (and its set bit) are seen by
  // whichever of the two calls frees, and ours by it.
  const unsigned before =
      state_of(*request).ended.fetch_or(kFreed, std::memory_order_acq_rel);
  if ((before & kCompleted) != 0) {
    return free_now(request);
  }
  return MPI_SUCCESS;  // MPI_Grequest_complete frees it
}

int cancel(p2p::Request& request) {
  State& s = state_of(request);
  if (s.cancel_fn == nullptr) {
    return MPI_SUCCESS;
  }
  // Acquire: pairs with MPI_Grequest_complete's release.
  const bool done = (s.ended.load(std::memory_order_acquire) & kCompleted) != 0;
  return s.cancel_fn(s.extra_state, done ? 1 : 0);
}

}  // namespace shmpi::mpi::grequest

using namespace shmpi;
using namespace shmpi::mpi;

extern "C" int PMPI_Grequest_start(MPI_Grequest_query_function* query_fn,
                                   MPI_Grequest_free_function* free_fn,
                                   MPI_Grequest_cancel_function* cancel_fn,
                                   void* extra_state,
                                   MPI_Request* request) noexcept {
  constexpr const char* kFn = "MPI_Grequest_start";
  if (int rc = check_initialized(kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (request == nullptr) {
    return fail_static(nullptr, MPI_ERR_ARG, kFn, "request is NULL");
  }
  auto s = std::make_shared<grequest::State>();
  s->query_fn = query_fn;
  s->free_fn = free_fn;
  s->cancel_fn = cancel_fn;
  s->extra_state = extra_state;
  p2p::Request* r = new_request(nullptr, kFn);
  if (r == nullptr) {
    return MPI_ERR_NO_MEM;
  }
  r->kind = p2p::RequestKind::kGeneralized;
  r->peer = MPI_PROC_NULL;
  r->active = true;
  r->owned = std::move(s);
  *request = to_handle(r);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Grequest_start);

extern "C" int PMPI_Grequest_complete(MPI_Request request) noexcept {
  constexpr const char* kFn = "MPI_Grequest_complete";
  if (int rc = check_initialized(kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  p2p::Request* r = find_request(request);
  if (r == nullptr || r->kind != p2p::RequestKind::kGeneralized) {
    return fail_static(nullptr, MPI_ERR_REQUEST, kFn,
                       "not a generalized request");
  }
  auto& s = *static_cast<grequest::State*>(r->owned.get());
  // Acq_rel: see grequest::release.
  const unsigned before =
      s.ended.fetch_or(grequest::kCompleted, std::memory_order_acq_rel);
  if ((before & grequest::kCompleted) != 0) {
    return fail_static(nullptr, MPI_ERR_REQUEST, kFn,
                       "the request was already completed");
  }
  if ((before & grequest::kFreed) != 0) {
    // MPI_Request_free came first: nobody will wait for it.
    int rc = grequest::free_now(r);
    return rc;
  }
  // Release: a waiter that sees `complete` sees everything before it.
  r->complete.store(true, std::memory_order_release);
  // A waiter of this process may be asleep on its wake word (the
  // completion may come from another thread).
  state().engine->wake_self();
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Grequest_complete);
