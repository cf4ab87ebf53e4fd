// SPDX-License-Identifier: MIT
// MPI_Comm_idup: a dup that never waits inside the call. When the parent
// still has agreed IDs in reserve the new communicator exists at once; else
// the refill round runs from the progress engine, and idups on one parent
// complete in the order they were started (tickets), like every member's.
#include <mpi.h>

#include <memory>
#include <utility>
#include <vector>

#include "coll/rounds.hpp"
#include "mpi/coll_driver.hpp"
#include "mpi/comm.hpp"
#include "mpi/keyval.hpp"
#include "mpi/p2p_common.hpp"

namespace shmpi::mpi {

namespace {

struct IdupTask {
  Comm* parent;
  std::uint64_t ticket;
  MPI_Comm* newcomm;
  p2p::Request* request;
  bool keep_hints;
  Hints hints;
  // The parent's attributes, copied in the call (see idup_common).
  std::vector<Attribute> staged;
  std::unique_ptr<DupRound> round;
  // The nonblocking rounds' part of the mask first (contextid/arbiter.hpp),
  // then all of it; every member widens after the same round.
  contextid::Arbiter::Reach reach = contextid::Arbiter::Reach::kNonblocking;

  void complete(int error) {
    if (error != MPI_SUCCESS) {
      drop_staged_attributes(staged);  // no communicator will hold them
    }
    request->status = p2p::Status{};
    request->status.error = error;
    parent->shared->pending.fetch_sub(1, std::memory_order_relaxed);
    // Release: the next idup on this parent may run.
    parent->shared->serving.fetch_add(1, std::memory_order_release);
    // Release: the new communicator before the completion flag.
    request->complete.store(true, std::memory_order_release);
  }

  int take_from_reserve() {
    Comm* fresh = dup_from_reserve(*parent);
    if (fresh == nullptr) {
      return MPI_ERR_NO_MEM;
    }
    finish_staged_dup(*parent, fresh, keep_hints ? nullptr : &hints, staged,
                      newcomm);
    return MPI_SUCCESS;
  }

  // One progress step; true once the request is complete.
  bool step() {
    if (parent->shared->serving.load(std::memory_order_acquire) != ticket) {
      return false;  // an earlier idup on this parent is still running
    }
    if (!round) {
      if (!reserve_empty(*parent)) {
        complete(take_from_reserve());
        return true;
      }
      const char* why = "";
      if (int rc = attach_block(*parent, false, &why); rc != MPI_SUCCESS) {
        if (rc == MPI_ERR_PENDING) {
          return false;  // the lowest member has not made the block yet
        }
        complete(rc);
        return true;
      }
      if (!coll::writable_now(*parent)) {
        return false;  // a member still reads our slot of the last round
      }
      round = std::make_unique<DupRound>(*parent, true, reach);
      round->start();
    }
    if (!round->arrived()) {
      return false;
    }
    const char* why = "";
    const DupRound::Outcome outcome = round->finish(&why);
    if (outcome == DupRound::Outcome::kRetry ||
        outcome == DupRound::Outcome::kWiden) {
      if (outcome == DupRound::Outcome::kWiden) {
        reach = contextid::Arbiter::Reach::kAll;
      }
      round = std::make_unique<DupRound>(*parent, true, reach);
      round->start();
      return false;
    }
    round.reset();
    complete(outcome == DupRound::Outcome::kDone ? take_from_reserve()
                                                 : outcome_class(outcome));
    return true;
  }
};

}  // namespace

int idup_common(Comm* parent, const Hints* hints, MPI_Comm* newcomm,
                MPI_Request* request, const char* function) {
  // The copy callbacks run here, in the program's call, not when the new
  // communicator appears: that happens in a task of the progress engine,
  // and a callback calling MPI there (a probe, a collective) would re-enter
  // the engine and run this very task again. Before the idup counts as
  // pending, too, so a callback may use the parent collectively. A failing
  // callback fails the call itself.
  std::vector<Attribute> staged;
  if (!parent->is_inter) {
    if (int rc = stage_comm_attributes(*parent, staged); rc != MPI_SUCCESS) {
      *newcomm = MPI_COMM_NULL;
      return raise_code(parent, rc, function);
    }
  }
  // A collective's request: MPI_Cancel, and MPI_Request_free before
  // completion, are refused (the task below still writes to it).
  p2p::Request* r = new_collective_request(parent, function);
  if (r == nullptr) {
    drop_staged_attributes(staged);
    return MPI_ERR_NO_MEM;
  }
  *request = to_handle(r);
  if (parent->is_inter) {
    // Intercommunicator dup needs the remote group's leader: done in the
    // call (the remote leader answers from its own dup or idup call).
    Comm* fresh = nullptr;
    const char* why = "";
    int rc = dup_intercomm(*parent, &fresh, &why);
    if (rc == MPI_SUCCESS) {
      rc = finish_dup(*parent, fresh, hints, newcomm);
    }
    r->status = p2p::Status{};
    r->status.error = rc;
    r->complete.store(true, std::memory_order_release);
    return MPI_SUCCESS;
  }
  auto task = std::make_shared<IdupTask>();
  task->parent = parent;
  task->ticket = parent->shared->next_ticket++;
  task->newcomm = newcomm;
  task->request = r;
  task->keep_hints = hints == nullptr;
  task->staged = std::move(staged);
  if (hints != nullptr) {
    task->hints = *hints;
  }
  parent->shared->pending.fetch_add(1, std::memory_order_relaxed);
  // Run the first step now: with IDs in reserve the idup is done here.
  if (!task->step()) {
    state().engine->add_task([task] { return task->step(); });
  }
  return MPI_SUCCESS;
}

}  // namespace shmpi::mpi
