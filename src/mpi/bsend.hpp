// SPDX-License-Identifier: MIT
// Buffered mode: the user's attached buffer (MPI_Buffer_attach) holds a copy
// of each MPI_Bsend's data until an internal send of that copy completes.
#pragma once

#include "datatype/pack.hpp"
#include "mpi/core.hpp"

namespace shmpi::mpi {

// Copies `data` into the attached buffer and starts an internal send.
// Returns MPI_SUCCESS or raises MPI_ERR_BUFFER through `comm`.
int bsend_start(Comm* comm, const datatype::Layout& data, int dest, int tag,
                const char* function) noexcept;
// Called when an internal buffered send completes: frees its block.
void bsend_release(p2p::Request* request) noexcept;
// Waits until every buffered send has completed (detach, finalize).
void bsend_flush() noexcept;

}  // namespace shmpi::mpi
