// SPDX-License-Identifier: MIT
#include "mpi/coll_driver.hpp"

#include <atomic>
#include <memory>
#include <utility>

#include "mpi/comm.hpp"
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
  bool needs_block;  // runs on the queue's scratch block
  bool started = false;

  bool step() {
    detail::CommShared& shared = *queue->shared;
    // Acquire: the previous operation's effects (on the block, or its
    // messages) are ours.
    if (shared.serving.load(std::memory_order_acquire) != ticket) {
      return false;
    }
    if (!started) {
      if (needs_block) {
        const char* why = "";
        const int rc = attach_block(*queue, false, &why);
        if (rc == MPI_ERR_PENDING) {
          return false;  // the lowest member has not made the block yet
        }
        if (rc != MPI_SUCCESS) {
          finish(rc);
          return true;
        }
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
    shared.pending.fetch_sub(1, std::memory_order_relaxed);
    // Release: the next queued operation on this communicator may run.
    shared.serving.fetch_add(1, std::memory_order_release);
    // Release: the results before the completion flag.
    request->complete.store(true, std::memory_order_release);
  }
};

}  // namespace

int enter_blocking(Comm* c, const char* function) {
  wait_pending(*c);
  const char* why = "";
  if (int rc = attach_block(*c, true, &why); rc != MPI_SUCCESS) {
    return fail(c, rc, function, "%s", why);
  }
  return MPI_SUCCESS;
}

int run_task(Comm* c, coll::Task task, Holds holds, const Call& call) {
  Comm* queue = queue_of(c);
  if (call.is_blocking()) {
    if (c->is_inter) {
      wait_pending(*queue);
    } else if (int rc = enter_blocking(c, call.fn); rc != MPI_SUCCESS) {
      return rc;
    }
    coll::Run state_of_run;
    task.bind(state_of_run);
    state().engine->wait_until([&] { return coll::step(task, state_of_run); });
    if (state_of_run.error != 0) {
      return fail(c, state_of_run.error, call.fn,
                  c->is_inter
                      ? "collective failed (the groups' arguments do not match)"
                      : "collective failed");
    }
    return MPI_SUCCESS;
  }
  if (call.request == nullptr) {
    return fail(c, MPI_ERR_ARG, call.fn, "request is NULL");
  }
  p2p::Request* r = new_request(c, call.fn);
  if (r == nullptr) {
    return MPI_ERR_NO_MEM;
  }
  r->kind = p2p::RequestKind::kCollective;
  r->peer = MPI_PROC_NULL;
  r->comm = c;
  *call.request = to_handle(r);
  auto pending = std::make_shared<Pending>(
      Pending{queue, queue->shared->next_ticket++, r, coll::Run{},
              std::move(task), std::move(holds), !c->is_inter});
  pending->holds.retain();
  queue->shared->pending.fetch_add(1, std::memory_order_relaxed);
  if (!pending->step()) {
    state().engine->add_task([pending] { return pending->step(); });
  }
  return MPI_SUCCESS;
}

}  // namespace shmpi::mpi
