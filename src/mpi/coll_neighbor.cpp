// SPDX-License-Identifier: MIT
// The neighbourhood collectives' exchange (coll_neighbor.hpp).
#include "mpi/coll_neighbor.hpp"

#include <utility>

#include "mpi/coll_requests.hpp"

namespace shmpi::mpi::neighbor {

namespace sc = ::shmpi::coll;  // tasks and their driver

namespace {

// Tags on the collective context, apart from coll_common's (1-5) and the
// intercommunicator collectives' (101-105).
constexpr int kTagGraph = 110;
// Cartesian: kTagCartesian + the receive block the message fills, 2d for
// "from the -1 neighbour of dimension d", 2d + 1 for "from the +1 one".
constexpr int kTagCartesian = 111;

}  // namespace

int recv_tag(const Exchange& x, std::size_t j) {
  return x.cartesian ? kTagCartesian + static_cast<int>(j) : kTagGraph;
}

int send_tag(const Exchange& x, std::size_t i) {
  // Block 2d goes to the -1 neighbour, which receives it from its +1
  // neighbour (block 2d + 1), and the other way round.
  return x.cartesian ? kTagCartesian + static_cast<int>(i ^ 1U) : kTagGraph;
}

sc::Task exchange(Comm& c, std::shared_ptr<const Exchange> x) {
  sc::Run* run = co_await sc::current_run();
  std::size_t edges = 0;
  for (int r : x->sources) {
    edges += r != MPI_PROC_NULL ? 1 : 0;
  }
  for (int r : x->destinations) {
    edges += r != MPI_PROC_NULL ? 1 : 0;
  }
  coll::Requests all(edges);
  // Receives first: a message to ourselves (a self edge) then finds its
  // receive posted.
  for (std::size_t j = 0; j < x->sources.size(); ++j) {
    if (x->sources[j] != MPI_PROC_NULL) {
      all.recv(c, x->sources[j], recv_tag(*x, j), x->recvs[j]);
    }
  }
  for (std::size_t i = 0; i < x->destinations.size(); ++i) {
    if (x->destinations[i] != MPI_PROC_NULL) {
      all.send(c, x->destinations[i], send_tag(*x, i), x->sends[i]);
    }
  }
  co_await all.all();
  coll::note(run, all);
}

}  // namespace shmpi::mpi::neighbor
