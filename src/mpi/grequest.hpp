// SPDX-License-Identifier: MIT
// Generalized requests (MPI 4.0 section 13.2): requests the program
// completes itself with MPI_Grequest_complete, whose status comes from its
// query callback and whose clean-up is its free callback. The wait/test
// family treats them as any other request once complete; these are the
// points where it hands over to the program's callbacks.
#pragma once

#include <mpi.h>

#include "p2p/request.hpp"

namespace shmpi::mpi::grequest {

// Runs the query callback once, when the request is first looked at after
// completing, and keeps its answer in request.status (error: the callback's
// return code). The calls that complete several requests look at every
// status before retiring any, so the callback runs before the first.
void settle(p2p::Request& request);

// MPI_Request_get_status: the query callback again (the request stays), its
// status in request.status.
void query(p2p::Request& request);

// Retires a completed generalized request (settle() first): the status
// out, then the free callback, then the handle. Returns the query
// callback's error code or, if that succeeded, the free callback's.
int retire(MPI_Request* handle, p2p::Request* request, MPI_Status* status);

// MPI_Request_free: frees now if MPI_Grequest_complete was called, else
// when it is. Returns the free callback's error code (or MPI_SUCCESS).
int release(p2p::Request* request);

// MPI_Cancel: the cancel callback, told whether the request has completed.
int cancel(p2p::Request& request);

}  // namespace shmpi::mpi::grequest
