// SPDX-License-Identifier: MIT
// The neighbourhood collectives (MPI 4.0 sections 8.6-8.8) as one
// coroutine (coll/task.hpp): every receive from the sources and every send
// to the destinations posted at once as point-to-point messages on the
// communicator's collective context, then one wait for all of them.
// Allgather(v) and alltoall(v) are alltoallw with their blocks laid out.
//
// Matching: a graph or distributed graph sends every block with one tag,
// so repeated edges between two processes pair up in the order of the
// edges (FIFO matching). A Cartesian topology tags each block with the
// direction it arrives from: the block sent to the -1 neighbour of
// dimension d is the one that neighbour receives from its +1 neighbour,
// even where both neighbours are one process (a periodic dimension of
// extent 1 or 2). MPI_PROC_NULL neighbours are skipped: their receive
// blocks stay untouched.
//
// Arguments are checked by the caller (coll_neighbor_api.cpp), which runs
// the task with run_collective (coll_driver.hpp): collectives on one
// communicator run one at a time in call order, so the messages of
// successive neighbourhood collectives never match each other's receives.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "coll/task.hpp"
#include "datatype/pack.hpp"
#include "mpi/core.hpp"

namespace shmpi::mpi::neighbor {

// One neighbourhood collective's arguments, checked: block j of `recvs`
// comes from sources[j], block i of `sends` goes to destinations[i]
// (neighbor_lists' order). Shared by the starts of a persistent request.
struct Exchange {
  std::vector<int> sources;
  std::vector<int> destinations;
  bool cartesian = false;
  datatype::Blocks sends;
  datatype::Blocks recvs;
};

// Tags on the collective context, apart from coll_common's (1-5) and the
// intercommunicator collectives' (101-105).
inline constexpr int kTagGraph = 110;
// Cartesian: kTagCartesian + the receive block the message fills, 2d for
// "from the -1 neighbour of dimension d", 2d + 1 for "from the +1 one".
inline constexpr int kTagCartesian = 111;

// The tag of receive block j and of send block i.
inline int recv_tag(bool cartesian, std::size_t j) {
  return cartesian ? kTagCartesian + static_cast<int>(j) : kTagGraph;
}
inline int send_tag(bool cartesian, std::size_t i) {
  // Block 2d goes to the -1 neighbour, which receives it from its +1
  // neighbour (block 2d + 1), and the other way round.
  return cartesian ? kTagCartesian + static_cast<int>(i ^ 1U) : kTagGraph;
}

::shmpi::coll::Task exchange(Comm& c, std::shared_ptr<const Exchange> x);

}  // namespace shmpi::mpi::neighbor
