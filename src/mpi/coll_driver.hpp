// SPDX-License-Identifier: MIT
// Running a collective's coroutine (coll/task.hpp): to the end in the
// calling thread (blocking forms) or from the progress engine behind a
// request (nonblocking forms, and persistent ones at every MPI_Start). One
// driver for intra- and intercommunicators.
//
// Order: collectives on one communicator run one at a time, in the order
// they were called, with MPI_Comm_idup in the same queue: each nonblocking
// operation takes a ticket of its queue (the communicator's CommShared; an
// intercommunicator's local group for an intercommunicator), runs when the
// queue serves that ticket and then serves the next; a blocking operation
// first waits for the queue to drain (wait_pending). On an
// intracommunicator the task runs on the communicator's scratch block,
// which is attached before its first step.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <utility>

#include "base/small_vector.hpp"
#include "coll/task.hpp"
#include "mpi/comm.hpp"
#include "mpi/core.hpp"
#include "p2p/request.hpp"

namespace shmpi::mpi {

// What a running collective keeps alive besides its coroutine frame: the
// datatypes and the operation it was called with (retained while a
// nonblocking one runs, since the user may free them at once). Two types
// inline: a blocking call allocates nothing here.
struct Holds {
  boost::container::small_vector<TypeArg, 2> types;
  OpArg op;
  bool has_op = false;
  void retain() const;
  void release() const;
};

// How a collective entry point was called: the blocking form; the
// nonblocking one (MPI_Ixxx), which returns an active request; or the
// persistent one (MPI_Xxx_init, MPI 4.0 section 6.13), which returns an
// inactive request that every MPI_Start runs as the nonblocking form would.
enum class Form : std::uint8_t { kBlocking, kNonblocking, kPersistent };

struct Call {
  const char* fn = "";  // the MPI name, for error reports
  Form form = Form::kBlocking;
  MPI_Request* request = nullptr;  // where the request of the others goes
  MPI_Info info = MPI_INFO_NULL;   // persistent: checked, no hint is used

  static Call blocking(const char* fn) { return Call{fn}; }
  static Call nonblocking(const char* fn, MPI_Request* request) {
    return Call{fn, Form::kNonblocking, request};
  }
  static Call persistent(const char* fn, MPI_Info info, MPI_Request* request) {
    return Call{fn, Form::kPersistent, request, info};
  }
  bool is_blocking() const { return form == Form::kBlocking; }
};

// Blocking intracommunicator calls: waits for the nonblocking ones queued
// before and attaches the block, so that a direct path (coll/intra.hpp,
// *_now) may run. Returns an MPI error code (raised on `c`). The common
// case (block attached, nothing queued) is checked inline: every blocking
// collective passes here, and at two ranks each instruction before the
// round's publish shows in the time of the call.
int enter_blocking_slow(Comm* c, const char* function);
inline int enter_blocking(Comm* c, const char* function) {
  const detail::CommShared& shared = *c->shared;
  // Acquire: as wait_pending(): a nonblocking collective finished by
  // another thread is seen whole, the block it may have attached too (so
  // the count is read first: while one is queued, another thread may be
  // attaching the block).
  if (shared.pending.load(std::memory_order_acquire) == 0 &&
      shared.block != nullptr) [[likely]] {
    return MPI_SUCCESS;
  }
  return enter_blocking_slow(c, function);
}

// A new request for a nonblocking collective (or MPI_Comm_idup) on `c`:
// MPI_Cancel and an early MPI_Request_free refuse it, and only its driver
// completes it. nullptr when handles ran out.
p2p::Request* new_collective_request(Comm* c, const char* function);

// Runs `task` on `c` from the progress engine behind request `r` (from
// new_collective_request), in the order of c's queue, as a nonblocking
// call does: the first step runs now, the rest when progress finds its
// conditions met; the holds are retained until it ends. MPI_Comm_idup on
// an intercommunicator uses it directly (it makes its request itself).
void enqueue_task(Comm* c, p2p::Request* r, coll::Task task, Holds holds);

// Runs `task` on `c` as a blocking or nonblocking `call` asks: to the end
// now, or as a nonblocking request stored in *call.request. Returns an MPI
// error code (raised on `c`; a nonblocking call without a request is
// MPI_ERR_ARG).
int run_task(Comm* c, coll::Task task, Holds holds, const Call& call);

// A persistent `call`: stores in *call.request an inactive request whose
// every start runs make_task()'s task. The request keeps make_task and the
// holds (retained here) until it is freed. Returns an MPI error code
// (raised on `c`: MPI_ERR_ARG without a request, MPI_ERR_INFO for an
// invalid info handle).
int init_persistent(Comm* c, std::function<coll::Task()> make_task, Holds holds,
                    const Call& call);

// MPI_Start of a persistent collective's request (made active by the
// caller): queues its task as the nonblocking form queues one, in the
// communicator's collective order.
void start_persistent(p2p::Request& request);

// The collective that make_task() returns (a coll::Task), run as `call`
// asks. The arguments are checked; make_task holds copies of what the task
// needs, and a persistent request calls it at every start.
template <typename MakeTask>
int run_collective(Comm* c, MakeTask&& make_task, Holds holds,
                   const Call& call) {
  if (call.form == Form::kPersistent) {
    return init_persistent(
        c, std::function<coll::Task()>(std::forward<MakeTask>(make_task)),
        std::move(holds), call);
  }
  return run_task(c, std::forward<MakeTask>(make_task)(), std::move(holds),
                  call);
}

}  // namespace shmpi::mpi
