// SPDX-License-Identifier: MIT
// The neighbourhood collectives' exchange (coll_neighbor.hpp).
#include "mpi/coll_neighbor.hpp"

#include <utility>

#include "mpi/coll_requests.hpp"

namespace shmpi::mpi::neighbor {

namespace sc = ::shmpi::coll;  // tasks and their driver

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
      all.recv(c, x->sources[j], recv_tag(x->cartesian, j), x->recvs[j]);
    }
  }
  for (std::size_t i = 0; i < x->destinations.size(); ++i) {
    if (x->destinations[i] != MPI_PROC_NULL) {
      all.send(c, x->destinations[i], send_tag(x->cartesian, i), x->sends[i]);
    }
  }
  co_await all.all();
  coll::note(run, all);
}

}  // namespace shmpi::mpi::neighbor
