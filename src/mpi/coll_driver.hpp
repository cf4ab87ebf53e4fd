// SPDX-License-Identifier: MIT
// Running a collective's coroutine (coll/task.hpp): to the end in the
// calling thread (blocking forms) or from the progress engine behind a
// request (nonblocking forms). One driver for intra- and
// intercommunicators.
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

#include <boost/container/small_vector.hpp>

#include "coll/task.hpp"
#include "mpi/core.hpp"

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

// Blocking intracommunicator calls: waits for the nonblocking ones queued
// before and attaches the block, so that a direct path (coll/intra.hpp,
// *_now) may run. Returns an MPI error code (raised on `c`).
int enter_blocking(Comm* c, const char* function);

// Runs `task` on `c`: to the end now (request == nullptr) or as a
// nonblocking request stored in *request. Returns an MPI error code
// (raised on `c`).
int run_collective(Comm* c, coll::Task task, Holds holds, MPI_Request* request,
                   const char* function);

}  // namespace shmpi::mpi
