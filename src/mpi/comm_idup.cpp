// SPDX-License-Identifier: MIT
// MPI_Comm_idup: a dup that never waits inside the call. When the parent
// still has agreed IDs in reserve the new communicator exists at once; else
// the refill round runs from the progress engine, and idups on one parent
// complete in the order they were started (tickets), like every member's.
// On an intercommunicator it is a coroutine in the local group's queue of
// collectives: the dup's steps, none of which waits inside the call.
#include <mpi.h>

#include <memory>
#include <utility>
#include <vector>

#include "coll/rounds.hpp"
#include "coll/task.hpp"
#include "mpi/coll_driver.hpp"
#include "mpi/coll_inter.hpp"
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

// What MPI_Comm_idup on an intercommunicator keeps until it completes.
struct IdupInter {
  MPI_Comm* newcomm = nullptr;
  bool keep_hints = true;  // the parent's, else `hints`
  Hints hints;
  std::vector<Attribute> staged;  // copied in the call (idup_common)
};

// The steps of dup_intercomm as a coroutine the progress engine drives:
// its first step runs in the call; later ones wherever MPI makes progress.
// The agreement takes the local group's reserve (a refill round first
// when it is empty, offering the nonblocking rounds' part of the mask, as
// MPI_Comm_idup on an intracommunicator does), so it never waits inside
// another member's call.
coll::Task idup_intercomm_task(Comm& parent, IdupInter args) {
  coll::Run* run = co_await coll::current_run();
  Comm& lc = *parent.local_comm;
  const char* why = "";
  int rc = MPI_SUCCESS;
  // 1. The local group's block (its lowest member makes it).
  co_await coll::until([&] {
    rc = attach_block(lc, false, &why);
    return rc != MPI_ERR_PENDING;
  });
  // 2. An ID every member of the local group agreed on: the reserve's
  // next, the same on every member since they run the same creations on
  // it in the same order (the queue's tickets).
  contextid::Arbiter::Reach reach = contextid::Arbiter::Reach::kNonblocking;
  while (rc == MPI_SUCCESS && reserve_empty(lc)) {
    co_await coll::writable(lc);  // a member may still read our last slot
    DupRound round(lc, true, reach);
    round.start();
    co_await coll::until([&round] { return round.arrived(); });
    const DupRound::Outcome outcome = round.finish(&why);
    if (outcome == DupRound::Outcome::kWiden) {
      reach = contextid::Arbiter::Reach::kAll;
    } else if (outcome != DupRound::Outcome::kDone &&
               outcome != DupRound::Outcome::kRetry) {
      rc = outcome_class(outcome);
    }
  }
  if (rc != MPI_SUCCESS) {
    drop_staged_attributes(args.staged);  // no communicator will hold them
    *args.newcomm = MPI_COMM_NULL;
    co_await coll::fail_with(rc);
    co_return;
  }
  const detail::Reserved reserved = pop_reserve(lc);
  SplitResult local;
  local.joined = true;
  local.id = reserved.id;
  local.generation = reserved.generation;
  for (int m = 0; m < lc.size; ++m) {
    local.members.push_back(m);
  }
  // 3. The leaders swap the receive contexts and tell their groups.
  std::uint32_t mine = local.id;
  std::uint32_t remote_context = 0;
  auto bytes_of = [](std::uint32_t* word) {
    return datatype::Layout{static_cast<std::byte*>(static_cast<void*>(word)),
                            sizeof *word, nullptr};
  };
  co_await inter::exchange_via_leaders(parent, bytes_of(&mine),
                                       bytes_of(&remote_context));
  Comm* c =
      run->error != 0
          ? nullptr
          : build_intercomm(lc, local,
                            static_cast<contextid::ContextId>(remote_context),
                            parent.remote_lpids);
  if (c == nullptr) {
    undo_local(local);
    drop_staged_attributes(args.staged);
    *args.newcomm = MPI_COMM_NULL;
    if (run->error == 0) {
      co_await coll::fail_with(MPI_ERR_NO_MEM);  // out of communicator handles
    }
    co_return;
  }
  // 4. As dup_intercomm from here, with the staged attributes.
  finish_staged_dup(parent, c, args.keep_hints ? nullptr : &args.hints,
                    args.staged, args.newcomm);
}

// Queues MPI_Comm_idup on an intercommunicator behind request `r`.
void idup_intercomm(Comm& parent, p2p::Request* r, const Hints* hints,
                    std::vector<Attribute> staged, MPI_Comm* newcomm) {
  IdupInter args;
  args.newcomm = newcomm;
  args.keep_hints = hints == nullptr;
  if (hints != nullptr) {
    args.hints = *hints;
  }
  args.staged = std::move(staged);
  enqueue_task(&parent, r, idup_intercomm_task(parent, std::move(args)),
               Holds{});
}

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
  if (int rc = stage_comm_attributes(*parent, staged); rc != MPI_SUCCESS) {
    *newcomm = MPI_COMM_NULL;
    return raise_code(parent, rc, function);
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
    // On the local group's queue and block, like the intercommunicator's
    // nonblocking collectives.
    idup_intercomm(*parent, r, hints, std::move(staged), newcomm);
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
