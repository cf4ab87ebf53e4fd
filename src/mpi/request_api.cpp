// SPDX-License-Identifier: MIT
// Completion: the wait/test family, request free and cancel, request status.
#include <mpi.h>

#include "coll/core_mates.hpp"
#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/grequest.hpp"
#include "mpi/p2p_common.hpp"
#include "partitioned/partitioned.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

// MPI 4.0 §3.7.3's empty status, for null and inactive requests. Its
// definition includes "error = MPI_SUCCESS", so unlike fill_status() it
// sets MPI_ERROR.
void empty_status(MPI_Status* status) {
  if (status != MPI_STATUS_IGNORE) {
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = MPI_SUCCESS;
    set_status_count(status, 0);
    status->MPI_internal[2] = 0;
  }
}

// A handle that has nothing to wait for: MPI_REQUEST_NULL or an inactive
// persistent request.
bool is_idle(MPI_Request handle, p2p::Request* request) {
  return handle == MPI_REQUEST_NULL ||
         (request != nullptr && request->persistent && !request->active);
}

bool is_complete(const p2p::Request& request) {
  return request.complete.load(std::memory_order_acquire);
}

// Whether waiting for point-to-point request `r` waits for a peer bound to
// this process's core (asked only when ranks outnumber cores, and only for
// a request that was not complete at once): such a peer cannot run while
// we poll, so the wait yields after one look at the rings. A receive's
// sender was noted when the receive was posted (start_request).
bool waits_for_mate(const p2p::Request& r) {
  if (r.kind == p2p::RequestKind::kSend) {
    return coll::shares_my_core(r.peer_slot);
  }
  // Relaxed: MPI_Isendrecv's whole request has parts, and no peer of its
  // own; the count was set before the handle was returned.
  if (r.kind != p2p::RequestKind::kRecv || r.comm == nullptr ||
      r.pending_parts.load(std::memory_order_relaxed) != 0) {
    return false;
  }
  return is_core_mate(*static_cast<Comm*>(r.comm), r.peer);
}

p2p::PollHint wait_hint(const p2p::Request& r) {
  return mate_hint(waits_for_mate(r));
}

// The same for a wait for any of an array (Waitany, Waitsome): yield
// (after one look) only if every open request waits for a core mate, since
// one from another core could complete while we poll.
p2p::PollHint any_hint(int count, MPI_Request requests[]) {
  bool any_open = false;
  for (int i = 0; i < count; ++i) {
    p2p::Request* r = find_request(requests[i]);
    if (is_idle(requests[i], r) || is_complete(*r)) {
      continue;
    }
    if (!waits_for_mate(*r)) {
      return p2p::PollHint::kAsUsual;
    }
    any_open = true;
  }
  return mate_hint(any_open);
}

// Validates every handle of an array; raises MPI_ERR_REQUEST for the first
// garbage one.
int check_requests(int count, MPI_Request handles[], const char* function) {
  if (count < 0) {
    return fail(nullptr, MPI_ERR_COUNT, function, "negative count %d", count);
  }
  if (count > 0 && handles == nullptr) {
    return fail(nullptr, MPI_ERR_REQUEST, function, "request array is NULL");
  }
  for (int i = 0; i < count; ++i) {
    if (handles[i] != MPI_REQUEST_NULL && find_request(handles[i]) == nullptr) {
      return fail(nullptr, MPI_ERR_REQUEST, function,
                  "invalid request handle %p at index %d",
                  static_cast<void*>(handles[i]), i);
    }
  }
  return MPI_SUCCESS;
}

// Consumes a completed request: status out (not its MPI_ERROR), handle
// freed or made inactive. Returns the operation's error class.
int retire(MPI_Request* handle, p2p::Request* request, MPI_Status* status) {
  if (request->kind == p2p::RequestKind::kGeneralized) [[unlikely]] {
    return grequest::retire(handle, request, status);
  }
  fill_status(status, request->status);
  const int error = request->status.error;
  if (request->persistent) {
    request->active = false;
  } else {
    state().requests.destroy(request);
    *handle = MPI_REQUEST_NULL;
  }
  return error;
}

// MPI_ERR_IN_STATUS for the calls that complete several requests. The
// error belongs to the operations that failed (MPI 4.0 §9.3), so it goes to
// the handler of the communicator of the first failed request in array
// order (`failed`); a request with no communicator (nullptr) falls back to
// the rule for errors not tied to an object.
int raise_in_status(Comm* failed, const char* function) {
  return fail(failed, MPI_ERR_IN_STATUS, function,
              "an operation failed; see the statuses' MPI_ERROR");
}

// Whether a completed request's operation failed (for a generalized
// request, what its query callback says).
bool has_failed(p2p::Request& request) {
  if (request.kind == p2p::RequestKind::kGeneralized) [[unlikely]] {
    grequest::settle(request);
  }
  return request.status.error != MPI_SUCCESS;
}

// Sets a status's MPI_ERROR, which only a call returning MPI_ERR_IN_STATUS
// does (MPI 4.0 §3.2.5).
void set_status_error(MPI_Status* status, int error) {
  if (status != MPI_STATUS_IGNORE) {
    status->MPI_ERROR = error;
  }
}

// Retires every request of a completed array (Waitall, Testall). Every
// active request has completed and stays so until retired, so whether the
// call returns MPI_ERR_IN_STATUS (and the statuses get their MPI_ERROR) is
// known before the first is retired. None is ever left pending: these
// calls retire nothing until all have completed, so MPI_ERR_PENDING does
// not occur.
int retire_all(int count, MPI_Request requests[], MPI_Status statuses[],
               const char* function) {
  int failed = -1;  // the first failed request
  for (int i = 0; i < count && failed < 0; ++i) {
    p2p::Request* r = find_request(requests[i]);
    if (!is_idle(requests[i], r) && has_failed(*r)) {
      failed = i;
    }
  }
  Comm* failed_comm =
      failed >= 0 ? static_cast<Comm*>(find_request(requests[failed])->comm)
                  : nullptr;
  for (int i = 0; i < count; ++i) {
    MPI_Status* status =
        statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
    p2p::Request* r = find_request(requests[i]);
    if (is_idle(requests[i], r)) {
      empty_status(status);
      continue;
    }
    const int error = retire(&requests[i], r, status);
    if (failed >= 0) {
      set_status_error(status, error);
    }
  }
  if (failed >= 0) {
    return raise_in_status(failed_comm, function);
  }
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Wait(MPI_Request* request, MPI_Status* status) noexcept {
  if (int rc = check_initialized("MPI_Wait"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (request == nullptr) {
    return fail(nullptr, MPI_ERR_REQUEST, "MPI_Wait", "request is NULL");
  }
  p2p::Request* r = find_request(*request);
  if (is_idle(*request, r)) {
    empty_status(status);
    return MPI_SUCCESS;
  }
  if (r == nullptr) {
    return fail(nullptr, MPI_ERR_REQUEST, "MPI_Wait",
                "invalid request handle %p", static_cast<void*>(*request));
  }
  state().engine->wait_until([r] { return is_complete(*r); },
                             [r] { return wait_hint(*r); });
  auto* comm = static_cast<Comm*>(r->comm);
  if (int error = retire(request, r, status); error != MPI_SUCCESS) {
    return fail(comm, error, "MPI_Wait", "the operation failed");
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Wait);

extern "C" int PMPI_Test(MPI_Request* request, int* flag,
                         MPI_Status* status) noexcept {
  if (int rc = check_initialized("MPI_Test"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (request == nullptr || flag == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Test", "NULL argument");
  }
  p2p::Request* r = find_request(*request);
  if (is_idle(*request, r)) {
    *flag = 1;
    empty_status(status);
    return MPI_SUCCESS;
  }
  if (r == nullptr) {
    return fail(nullptr, MPI_ERR_REQUEST, "MPI_Test",
                "invalid request handle %p", static_cast<void*>(*request));
  }
  if (!is_complete(*r)) {
    state().engine->progress();
  }
  if (!is_complete(*r)) {
    *flag = 0;
    return MPI_SUCCESS;
  }
  *flag = 1;
  auto* comm = static_cast<Comm*>(r->comm);
  if (int error = retire(request, r, status); error != MPI_SUCCESS) {
    return fail(comm, error, "MPI_Test", "the operation failed");
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Test);

extern "C" int PMPI_Waitall(int count, MPI_Request requests[],
                            MPI_Status statuses[]) noexcept {
  if (int rc = check_initialized("MPI_Waitall"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_requests(count, requests, "MPI_Waitall");
      rc != MPI_SUCCESS) {
    return rc;
  }
  // A request stays complete until retired below, so each look resumes at
  // the first one that was not (the whole array is not scanned per pass).
  int first_open = 0;
  state().engine->wait_until(
      [&] {
        for (; first_open < count; ++first_open) {
          p2p::Request* r = find_request(requests[first_open]);
          if (!is_idle(requests[first_open], r) && !is_complete(*r)) {
            return false;
          }
        }
        return true;
      },
      [&] {
        // Asked while a request is open: the first one still is.
        return first_open < count
                   ? wait_hint(*find_request(requests[first_open]))
                   : p2p::PollHint::kAsUsual;
      });
  return retire_all(count, requests, statuses, "MPI_Waitall");
}
SHMPI_PMPI_ALIAS(MPI_Waitall);

extern "C" int PMPI_Testall(int count, MPI_Request requests[], int* flag,
                            MPI_Status statuses[]) noexcept {
  if (int rc = check_initialized("MPI_Testall"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (flag == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Testall", "flag is NULL");
  }
  if (int rc = check_requests(count, requests, "MPI_Testall");
      rc != MPI_SUCCESS) {
    return rc;
  }
  state().engine->progress();
  for (int i = 0; i < count; ++i) {
    p2p::Request* r = find_request(requests[i]);
    if (!is_idle(requests[i], r) && !is_complete(*r)) {
      *flag = 0;
      return MPI_SUCCESS;
    }
  }
  *flag = 1;
  return retire_all(count, requests, statuses, "MPI_Testall");
}
SHMPI_PMPI_ALIAS(MPI_Testall);

namespace {

// Index of a completed active request, -1 if none, or -2 if none is active.
int find_completed(int count, MPI_Request requests[]) {
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    p2p::Request* r = find_request(requests[i]);
    if (is_idle(requests[i], r)) {
      continue;
    }
    any_active = true;
    if (is_complete(*r)) {
      return i;
    }
  }
  return any_active ? -1 : -2;
}

int finish_any(int count, MPI_Request requests[], int found, int* index,
               MPI_Status* status, const char* function) {
  (void)count;
  if (found == -2) {
    *index = MPI_UNDEFINED;
    empty_status(status);
    return MPI_SUCCESS;
  }
  *index = found;
  p2p::Request* r = find_request(requests[found]);
  auto* comm = static_cast<Comm*>(r->comm);
  if (int error = retire(&requests[found], r, status); error != MPI_SUCCESS) {
    return fail(comm, error, function, "the operation failed");
  }
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Waitany(int count, MPI_Request requests[], int* index,
                            MPI_Status* status) noexcept {
  if (int rc = check_initialized("MPI_Waitany"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (index == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Waitany", "index is NULL");
  }
  if (int rc = check_requests(count, requests, "MPI_Waitany");
      rc != MPI_SUCCESS) {
    return rc;
  }
  int found = find_completed(count, requests);
  if (found == -1) {
    state().engine->wait_until(
        [&] {
          found = find_completed(count, requests);
          return found != -1;
        },
        [&] { return any_hint(count, requests); });
  }
  return finish_any(count, requests, found, index, status, "MPI_Waitany");
}
SHMPI_PMPI_ALIAS(MPI_Waitany);

extern "C" int PMPI_Testany(int count, MPI_Request requests[], int* index,
                            int* flag, MPI_Status* status) noexcept {
  if (int rc = check_initialized("MPI_Testany"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (index == nullptr || flag == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Testany", "NULL argument");
  }
  if (int rc = check_requests(count, requests, "MPI_Testany");
      rc != MPI_SUCCESS) {
    return rc;
  }
  state().engine->progress();
  int found = find_completed(count, requests);
  if (found == -1) {
    *flag = 0;
    *index = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  *flag = 1;
  return finish_any(count, requests, found, index, status, "MPI_Testany");
}
SHMPI_PMPI_ALIAS(MPI_Testany);

namespace {

// Retires every completed request; MPI_UNDEFINED in outcount if none is
// active. The completed ones are first listed in `indices`, since more may
// complete meanwhile and whether any listed one failed decides whether
// their statuses get MPI_ERROR (MPI 4.0 §3.2.5).
int collect_some(int incount, MPI_Request requests[], int* outcount,
                 int indices[], MPI_Status statuses[], const char* function) {
  bool any_active = false;
  int done = 0;
  for (int i = 0; i < incount; ++i) {
    p2p::Request* r = find_request(requests[i]);
    if (is_idle(requests[i], r)) {
      continue;
    }
    any_active = true;
    if (is_complete(*r)) {
      indices[done++] = i;
    }
  }
  *outcount = any_active ? done : MPI_UNDEFINED;
  bool any_error = false;
  Comm* failed_comm = nullptr;  // of the first failed request
  for (int k = 0; k < done && !any_error; ++k) {
    p2p::Request* r = find_request(requests[indices[k]]);
    if (has_failed(*r)) {
      any_error = true;
      failed_comm = static_cast<Comm*>(r->comm);
    }
  }
  for (int k = 0; k < done; ++k) {
    MPI_Status* status =
        statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[k];
    MPI_Request* handle = &requests[indices[k]];
    const int error = retire(handle, find_request(*handle), status);
    if (any_error) {
      set_status_error(status, error);
    }
  }
  if (any_error) {
    return raise_in_status(failed_comm, function);
  }
  return MPI_SUCCESS;
}

bool some_ready(int incount, MPI_Request requests[]) {
  int found = find_completed(incount, requests);
  return found != -1;
}

}  // namespace

extern "C" int PMPI_Waitsome(int incount, MPI_Request requests[], int* outcount,
                             int indices[], MPI_Status statuses[]) noexcept {
  if (int rc = check_initialized("MPI_Waitsome"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (outcount == nullptr || (incount > 0 && indices == nullptr)) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Waitsome", "NULL argument");
  }
  if (int rc = check_requests(incount, requests, "MPI_Waitsome");
      rc != MPI_SUCCESS) {
    return rc;
  }
  state().engine->wait_until([&] { return some_ready(incount, requests); },
                             [&] { return any_hint(incount, requests); });
  return collect_some(incount, requests, outcount, indices, statuses,
                      "MPI_Waitsome");
}
SHMPI_PMPI_ALIAS(MPI_Waitsome);

extern "C" int PMPI_Testsome(int incount, MPI_Request requests[], int* outcount,
                             int indices[], MPI_Status statuses[]) noexcept {
  if (int rc = check_initialized("MPI_Testsome"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (outcount == nullptr || (incount > 0 && indices == nullptr)) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Testsome", "NULL argument");
  }
  if (int rc = check_requests(incount, requests, "MPI_Testsome");
      rc != MPI_SUCCESS) {
    return rc;
  }
  state().engine->progress();
  return collect_some(incount, requests, outcount, indices, statuses,
                      "MPI_Testsome");
}
SHMPI_PMPI_ALIAS(MPI_Testsome);

extern "C" int PMPI_Request_free(MPI_Request* request) noexcept {
  if (int rc = check_initialized("MPI_Request_free"); rc != MPI_SUCCESS) {
    return rc;
  }
  p2p::Request* r = request != nullptr ? find_request(*request) : nullptr;
  if (r == nullptr) {
    return fail(nullptr, MPI_ERR_REQUEST, "MPI_Request_free",
                "invalid request handle");
  }
  // MPI 4.0 section 6.12: freeing the request of a collective that has not
  // completed is erroneous (its driver still writes to the request).
  if (r->kind == p2p::RequestKind::kCollective && !is_complete(*r)) {
    return fail(static_cast<Comm*>(r->comm), MPI_ERR_REQUEST,
                "MPI_Request_free",
                "the collective operation has not completed");
  }
  *request = MPI_REQUEST_NULL;
  if (r->kind == p2p::RequestKind::kGeneralized) {
    // Freed now if MPI_Grequest_complete was called, else by it.
    if (int rc = grequest::release(r); rc != MPI_SUCCESS) {
      return raise_code(nullptr, rc, "MPI_Request_free");
    }
    return MPI_SUCCESS;
  }
  if (!r->active || is_complete(*r)) {
    partitioned::release(*r);
    state().requests.destroy(r);
    return MPI_SUCCESS;
  }
  // Still in flight: the engine releases it when it completes.
  if (state().engine->release_on_completion(*r)) {
    partitioned::release(*r);
    state().requests.destroy(r);
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Request_free);

extern "C" int PMPI_Request_get_status(MPI_Request request, int* flag,
                                       MPI_Status* status) noexcept {
  if (int rc = check_initialized("MPI_Request_get_status"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (flag == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Request_get_status", "flag is NULL");
  }
  p2p::Request* r = find_request(request);
  if (is_idle(request, r)) {
    *flag = 1;
    empty_status(status);
    return MPI_SUCCESS;
  }
  if (r == nullptr) {
    return fail(nullptr, MPI_ERR_REQUEST, "MPI_Request_get_status",
                "invalid request handle");
  }
  if (!is_complete(*r)) {
    state().engine->progress();
  }
  *flag = is_complete(*r) ? 1 : 0;
  if (*flag == 0) {
    return MPI_SUCCESS;
  }
  if (r->kind == p2p::RequestKind::kGeneralized) {
    grequest::query(*r);  // each look asks the program again
  }
  fill_status(status, r->status);
  // As MPI_Test does, but the request stays: a failed operation's error is
  // raised on its communicator now and again by the wait that retires it.
  if (r->status.error != MPI_SUCCESS) {
    return fail(static_cast<Comm*>(r->comm), r->status.error,
                "MPI_Request_get_status", "the operation failed");
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Request_get_status);

extern "C" int PMPI_Cancel(MPI_Request* request) noexcept {
  if (int rc = check_initialized("MPI_Cancel"); rc != MPI_SUCCESS) {
    return rc;
  }
  p2p::Request* r = request != nullptr ? find_request(*request) : nullptr;
  if (r == nullptr) {
    return fail(nullptr, MPI_ERR_REQUEST, "MPI_Cancel",
                "invalid request handle");
  }
  // MPI 4.0 section 6.12: cancelling a collective's request is erroneous.
  if (r->kind == p2p::RequestKind::kCollective) {
    return fail(static_cast<Comm*>(r->comm), MPI_ERR_REQUEST, "MPI_Cancel",
                "collective operations cannot be cancelled");
  }
  if (r->kind == p2p::RequestKind::kGeneralized) {
    if (int rc = grequest::cancel(*r); rc != MPI_SUCCESS) {
      return raise_code(nullptr, rc, "MPI_Cancel");
    }
    return MPI_SUCCESS;
  }
  if (r->kind == p2p::RequestKind::kRecv && r->active && !is_complete(*r)) {
    state().engine->cancel_recv(*r);
  }
  // Partitioned requests are not cancelled either: the request pair was
  // matched at set-up, and the receiver cannot stop the sender's preadys.
  // A send cannot be taken back once its envelope is in the ring; the
  // standard allows the cancel to fail (MPI_Test_cancelled then says false).
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Cancel);

extern "C" int PMPI_Test_cancelled(const MPI_Status* status,
                                   int* flag) noexcept {
  if (status == nullptr || flag == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Test_cancelled", "NULL argument");
  }
  *flag = status->MPI_internal[2] != 0;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Test_cancelled);
