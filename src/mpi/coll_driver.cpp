// SPDX-License-Identifier: MIT
#include "mpi/coll_driver.hpp"

#include <atomic>
#include <memory>
#include <utility>

#include "mpi/comm.hpp"
#include "mpi/info.hpp"
#include "mpi/p2p_common.hpp"
#include "p2p/engine.hpp"

namespace shmpi::mpi {

void Holds::retain() const {
  for (const TypeArg& t : types) {
    retain_type(t);
  }
  if (has_op) {
    retain_op(op);
  }
}

void Holds::release() const {
  for (const TypeArg& t : types) {
    release_type(t);
  }
  if (has_op) {
    release_op(op);
  }
}

namespace {

// The communicator whose tickets order collectives on `c`.
Comm* queue_of(Comm* c) { return c->is_inter ? c->local_comm : c; }

struct Pending {
  Comm* queue;
  std::uint64_t ticket;
  p2p::Request* request;
  coll::Run run;
  coll::Task task;
  Holds holds;
  bool started = false;

  bool step() {
    detail::CommShared& shared = *queue->shared;
    // Acquire: the previous operation's effects (on the block, or its
    // messages) are ours.
    if (shared.serving.load(std::memory_order_acquire) != ticket) {
      return false;
    }
    if (!started) {
      // Every collective runs on the queue's block (an intercommunicator's
      // local phases on its local group's).
      const char* why = "";
      const int rc = attach_block(*queue, false, &why);
      if (rc == MPI_ERR_PENDING) {
        return false;  // the lowest member has not made the block yet
      }
      if (rc != MPI_SUCCESS) {
        finish(rc);
        return true;
      }
      started = true;
      task.bind(run);
    }
    if (!coll::step(task, run)) {
      return false;
    }
    finish(run.error);
    return true;
  }

  void finish(int error) {
    holds.release();
    request->status = p2p::Status{};
    request->status.error = error;
    detail::CommShared& shared = *queue->shared;
    // Release: everything this operation did with the communicator (its
    // rounds, run by whichever thread progressed it) happens before a
    // blocking call that sees the count reach zero and goes on (pairs with
    // the acquire in enter_blocking() and wait_pending()).
    shared.pending.fetch_sub(1, std::memory_order_release);
    // Release: the next queued operation on this communicator may run.
    shared.serving.fetch_add(1, std::memory_order_release);
    // Release: the results before the completion flag.
    request->complete.store(true, std::memory_order_release);
  }
};

}  // namespace

int enter_blocking_slow(Comm* c, const char* function) {
  wait_pending(*c);
  const char* why = "";
  if (int rc = attach_block(*c, true, &why); rc != MPI_SUCCESS) {
    return fail(c, rc, function, "%s", why);
  }
  return MPI_SUCCESS;
}

namespace {

// A persistent collective: what every MPI_Start runs again. Its holds
// were retained at init and are released with it (MPI_Request_free), so
// the program may free the datatypes and the operation after init.
struct Persistent {
  Comm* comm;
  std::function<coll::Task()> make_task;
  Holds holds;

  Persistent(Comm* c, std::function<coll::Task()> make, Holds h)
      : comm(c), make_task(std::move(make)), holds(std::move(h)) {}
  Persistent(const Persistent&) = delete;
  Persistent& operator=(const Persistent&) = delete;
  Persistent(Persistent&&) = delete;
  Persistent& operator=(Persistent&&) = delete;
  ~Persistent() { holds.release(); }
};

// The request of a nonblocking or persistent `call` on `c`, not yet
// handed out; nullptr, with the error raised and its code in *rc, when the
// call has no request argument or handles ran out.
p2p::Request* collective_request(Comm* c, const Call& call, int* rc) {
  if (call.request == nullptr) {
    *rc = fail(c, MPI_ERR_ARG, call.fn, "request is NULL");
    return nullptr;
  }
  p2p::Request* r = new_collective_request(c, call.fn);
  if (r == nullptr) {
    *rc = MPI_ERR_NO_MEM;
  }
  return r;
}

}  // namespace

p2p::Request* new_collective_request(Comm* c, const char* function) {
  p2p::Request* r = new_request(c, function);
  if (r != nullptr) {
    r->kind = p2p::RequestKind::kCollective;
    r->peer = MPI_PROC_NULL;
    r->comm = c;
  }
  return r;
}

void enqueue_task(Comm* c, p2p::Request* r, coll::Task task, Holds holds) {
  Comm* queue = queue_of(c);
  auto pending = std::make_shared<Pending>(
      Pending{queue, queue->shared->next_ticket++, r, coll::Run{},
              std::move(task), std::move(holds)});
  pending->holds.retain();
  queue->shared->pending.fetch_add(1, std::memory_order_relaxed);
  if (!pending->step()) {
    state().engine->add_task([pending] { return pending->step(); });
  }
}

int run_task(Comm* c, coll::Task task, Holds holds, const Call& call) {
  if (call.is_blocking()) {
    if (c->is_inter) {
      // As enter_blocking, on the local group's communicator (the queue,
      // whose block the local phases use); errors are raised on `c`.
      Comm* queue = queue_of(c);
      wait_pending(*queue);
      const char* why = "";
      if (int rc = attach_block(*queue, true, &why); rc != MPI_SUCCESS) {
        return fail(c, rc, call.fn, "%s", why);
      }
    } else if (int rc = enter_blocking(c, call.fn); rc != MPI_SUCCESS) {
      return rc;
    }
    coll::Run state_of_run;
    task.bind(state_of_run);
    p2p::Engine& engine = *state().engine;
    // One wait per suspension, so that each starts with its own hint
    // (coll::Poll): a wait ends when the task finishes or moves on to the
    // next one.
    while (!coll::step(task, state_of_run)) {
      const std::uint64_t waits = state_of_run.waits;
      engine.wait_until(
          [&] {
            return coll::step(task, state_of_run) ||
                   state_of_run.waits != waits;
          },
          [&] { return coll::hint_of(state_of_run); });
    }
    if (state_of_run.error != 0) {
      return fail(c, state_of_run.error, call.fn,
                  c->is_inter
                      ? "collective failed (the groups' arguments do not match)"
                      : "collective failed");
    }
    return MPI_SUCCESS;
  }
  int rc = MPI_SUCCESS;
  p2p::Request* r = collective_request(c, call, &rc);
  if (r == nullptr) {
    return rc;
  }
  *call.request = to_handle(r);
  enqueue_task(c, r, std::move(task), std::move(holds));
  return MPI_SUCCESS;
}

int init_persistent(Comm* c, std::function<coll::Task()> make_task, Holds holds,
                    const Call& call) {
  if (call.info != MPI_INFO_NULL && find_info(call.info) == nullptr) {
    return fail(c, MPI_ERR_INFO, call.fn, "invalid info handle %p",
                static_cast<void*>(call.info));
  }
  int rc = MPI_SUCCESS;
  p2p::Request* r = collective_request(c, call, &rc);
  if (r == nullptr) {
    return rc;
  }
  r->persistent = true;
  r->complete.store(true, std::memory_order_relaxed);  // inactive
  auto persistent =
      std::make_shared<Persistent>(c, std::move(make_task), std::move(holds));
  persistent->holds.retain();  // released by ~Persistent
  r->owned = std::move(persistent);
  *call.request = to_handle(r);
  return MPI_SUCCESS;
}

void start_persistent(p2p::Request& request) {
  const auto& p = *static_cast<const Persistent*>(request.owned.get());
  enqueue_task(p.comm, &request, p.make_task(), p.holds);
}

}  // namespace shmpi::mpi
