// SPDX-License-Identifier: MIT
// MPI_Comm_get_parent and MPI_Comm_disconnect (MPI 4.0 §11.8.2, §11.8.3).
// The parent communicator is made in MPI_Init (mpi/spawn.hpp).
// MPI_Comm_disconnect is MPI_Comm_free after the communicator's pending
// operations have completed and its members have all arrived
// (docs/design.md, "Disconnecting").
#include <mpi.h>

#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"

using namespace shmpi;
using namespace shmpi::mpi;

namespace {

// An operation on `c` that has started and not completed: point-to-point
// and partitioned requests, the library's copies of buffered sends, and
// the requests of nonblocking and persistent collectives. Inactive
// persistent requests have nothing in flight; generalized requests belong
// to no communicator.
bool in_flight_on(const p2p::Request& r, const Comm* c) {
  return r.comm == c && r.kind != p2p::RequestKind::kGeneralized &&
         (!r.persistent || r.active) &&
         // Acquire: pairs with the completing thread's release, as any
         // waiter's does.
         !r.complete.load(std::memory_order_acquire);
}

bool any_in_flight(const Comm* c) {
  bool found = false;
  // Requests the program freed with MPI_Request_free stay in the arena
  // until the engine completes them, so they are found here too. Under
  // MPI_THREAD_MULTIPLE for_each holds the arena's lock; no other thread
  // may use `c` during a collective call on it.
  state().requests.for_each(
      [&](p2p::Request& r) { found = found || in_flight_on(r, c); });
  return found;
}

// Requests on `c` that outlive it (completed ones the program has not yet
// waited for, or inactive persistent ones) no longer name it: an error
// their wait reports goes to MPI_COMM_SELF's handler, not to freed memory.
void forget_comm(const Comm* c) {
  state().requests.for_each([&](p2p::Request& r) {
    if (r.comm == c) {
      r.comm = nullptr;
    }
  });
}

}  // namespace

extern "C" int PMPI_Comm_get_parent(MPI_Comm* parent) noexcept {
  if (int rc = check_initialized("MPI_Comm_get_parent"); rc != MPI_SUCCESS) {
    return rc;
  }
  if (parent == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, "MPI_Comm_get_parent", "parent is NULL");
  }
  // MPI 4.0 §11.8.2: MPI_COMM_NULL for a process that MPI_Comm_spawn did
  // not start, and once the parent communicator is freed or disconnected.
  *parent = state().parent;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Comm_get_parent);

extern "C" int PMPI_Comm_disconnect(MPI_Comm* comm) noexcept {
  constexpr const char* kFunction = "MPI_Comm_disconnect";
  if (int rc = check_initialized(kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (comm == nullptr) {
    return fail(nullptr, MPI_ERR_ARG, kFunction, "NULL argument");
  }
  Comm* c = nullptr;
  if (int rc = check_comm(*comm, &c, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (c->predefined) {
    return fail(c, MPI_ERR_COMM, kFunction, "cannot disconnect %s",
                c->name.c_str());
  }
  // "Waits for all pending communication on comm to complete internally"
  // (MPI 4.0 §11.8.3): the nonblocking collectives and idups first, then
  // every request still in flight on it, progressing as any wait does.
  wait_pending(*c);
  if (any_in_flight(c)) {
    state().engine->wait_until([c] { return !any_in_flight(c); });
  }
  // Collective: once every member has arrived, each has completed its own
  // operations on the communicator, so nothing moves on it any more.
  if (int rc = PMPI_Barrier(*comm); rc != MPI_SUCCESS) {
    return rc;
  }
  forget_comm(c);
  return release_comm(c, comm, kFunction);
}
SHMPI_PMPI_ALIAS(MPI_Comm_disconnect);
