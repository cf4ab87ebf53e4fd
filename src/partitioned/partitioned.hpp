// SPDX-License-Identifier: MIT
// Partitioned point-to-point (MPI 4.0 chapter 4) on a channel record in the
// shared heap (channel.hpp, docs/design.md#partitioned-communication).
//
// Set-up is local: psend_init builds the channel and pushes the RTS through
// the ring; precv_init matches an RTS that already arrived or queues itself
// on the engine's partitioned queues (never the ordinary ones). The
// receiver answers with a CTS at its first start once matched, and at
// every start after that. pready copies the partition at once, whatever
// the CTS: into staging, or straight into the receive buffer when that is
// contiguous in the shared heap and this iteration's CTS is already there;
// parrived copies arrived staged send partitions into the receive buffer
// and says whether every send partition overlapping the asked one is there.
// Completion of an iteration runs as an engine task, so MPI_Wait/Test and their
// array forms work unchanged.
//
// The seed's counters (003) keep their meaning, on this process's side:
//  - cc: the request's completion (Request::complete), cleared by start and
//    set by the engine task;
//  - cc_part: per send partition, the iteration it was last made ready in
//    (sender) or last copied out in (receiver). Keyed by iteration, so no
//    per-partition state is ever reset: the next CTS may arrive while the
//    previous iteration's data is still being copied, and nothing races;
//  - cc_send: the partitions made ready in the current iteration (sender);
//    reset by start, which the standard orders after the previous
//    completion (the seed's "reset before the last send" rule).
//
// Threads: pready (sender) and parrived (receiver) may be called from any
// number of threads at once for different partitions; they take no lock,
// allocate nothing and make no system call (a sleeping peer is woken with
// one conditional futex call). start and the set-up calls follow the
// standard: not concurrent with other calls on the same request.
#pragma once

#include <cstdint>

#include "base/result.hpp"
#include "p2p/engine.hpp"
#include "p2p/request.hpp"

namespace shmpi::partitioned {

// Error classes this module reports (mpi.h ABI values).
inline constexpr int kErrArg = 13;       // MPI_ERR_ARG
inline constexpr int kErrNoMem = 39;     // MPI_ERR_NO_MEM
inline constexpr int kErrTruncate = 15;  // MPI_ERR_TRUNCATE
inline constexpr int kProcNull = -3;     // MPI_PROC_NULL

// Hooks the module into the engine (MPI_Init).
void install(p2p::Engine& engine);

// `request` is set up as for a send (layout of the whole buffer, peer,
// peer_slot, my_rank, tag, context_id) or a receive (layout, peer, tag,
// context_id); `partitions` >= 1 and divides the layout evenly.
Result<void> psend_init(p2p::Request& request, std::uint32_t partitions);
Result<void> precv_init(p2p::Request& request, std::uint32_t partitions);

// Starts an iteration of an inactive request (the caller set `active`).
void start(p2p::Request& request);

// Sender: partition `partition` of the current iteration is ready.
// MPI_ERR_ARG when out of range or already ready in this iteration.
Result<void> pready(p2p::Request& request, std::int64_t partition);
// MPI_Pready_range / MPI_Pready_list: partitions list[0..count) or, with a
// null list, low..low+count-1. Wakes the receiver once for the batch. On an
// error the partitions before the bad one stay ready; *failed names it.
Result<void> pready_batch(p2p::Request& request, const int* list,
                          std::int64_t low, std::int64_t count,
                          std::int64_t* failed);
// Receiver, active request: whether partition `partition` has arrived.
Result<bool> parrived(p2p::Request& request, std::int64_t partition);

std::uint32_t partition_count(const p2p::Request& request);

// Before the request's memory goes (MPI_Request_free, or the engine's
// release of a freed request on completion): withdraws an RTS nobody
// started, dequeues an unmatched receive, drops the channel reference.
// Never takes the engine lock for a request that was started (the engine
// may call this from inside progress).
void release(p2p::Request& request);

}  // namespace shmpi::partitioned
