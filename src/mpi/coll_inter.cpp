// SPDX-License-Identifier: MIT
// Intercommunicator collectives (coll_inter.hpp).
#include "mpi/coll_inter.hpp"

#include <atomic>
#include <utility>
#include <vector>

#include "base/assert.hpp"
#include "coll/intra.hpp"
#include "mpi/coll_common.hpp"
#include "mpi/coll_requests.hpp"
#include "mpi/comm.hpp"
#include "mpi/p2p_common.hpp"
#include "p2p/engine.hpp"

namespace shmpi::mpi::inter {

namespace sc = ::shmpi::coll;  // tasks and their driver

using mpi::coll::note;
using mpi::coll::Requests;

namespace {

// Tags on the intercommunicator's collective contexts, apart from
// coll_common's (which communicator creation still uses on the same
// contexts).
constexpr int kTagLeaders = 103;  // leader <-> leader, leader <-> root
constexpr int kTagDirect = 104;   // member <-> remote member
// (coll_neighbor.cpp uses 110 and up.)

Layout packed(std::vector<std::byte>& bytes) {
  return Layout{bytes.data(), bytes.size(), nullptr};
}
Layout packed(std::byte* data, std::size_t bytes) {
  return Layout{data, bytes, nullptr};
}

// ---- within the local group (lc), rank 0 the leader ----
// These are the intracommunicator collectives on the local group's own
// block (coll/intra.hpp): the driver attached it before the first step.

// Broadcast of `data` from local rank 0.
sc::Task local_bcast(Comm& lc, Layout data) { return sc::bcast(lc, data, 0); }

// Reduces every member's `send` (count elements of type) at local rank 0,
// into `acc` (packed), in rank order, so non-commutative operations get the
// group's rank order.
sc::Task local_reduce(Comm& lc, Layout send, std::vector<std::byte>& acc,
                      TypeArg type, OpArg op, std::size_t count) {
  acc.resize(lc.rank == 0 ? type.bytes(count) : 0);
  return sc::reduce(lc, send, packed(acc), type, op, count, 0);
}

// The leaders swap `mine` for the remote group's `theirs` (leaders only).
sc::Task leaders_swap(Comm& c, Layout mine, Layout theirs) {
  sc::Run* run = co_await sc::current_run();
  Requests swap(2);
  swap.recv(c, 0, kTagLeaders, theirs);
  swap.send(c, 0, kTagLeaders, mine);
  co_await swap.all();
  note(run, swap);
}

// The root's side of a rooted call with the remote leader.
sc::Task with_one(Comm& c, int peer, Layout data, bool sending) {
  sc::Run* run = co_await sc::current_run();
  Requests one(1);
  if (sending) {
    one.send(c, peer, kTagLeaders, data);
  } else {
    one.recv(c, peer, kTagLeaders, data);
  }
  co_await one.all();
  note(run, one);
}

}  // namespace

// ---- the collectives ----

sc::Task barrier(Comm& c) {
  Comm& lc = *c.local_comm;
  if (lc.size == 1) {
    co_await leaders_swap(c, Layout{}, Layout{});
    co_return;
  }
  // A byte from everyone here at the leader: everyone here has arrived; so
  // has everyone there once their leader answers; then the leader lets its
  // group go. The others wait once, for the release.
  std::byte token{};
  std::vector<std::byte> arrivals(lc.rank == 0 ? lc.size : 0);
  co_await sc::gather(lc, packed(&token, 1), packed(arrivals), 0, false);
  if (lc.rank == 0) {
    co_await leaders_swap(c, Layout{}, Layout{});
  }
  co_await local_bcast(lc, packed(&token, 1));
}

sc::Task bcast(Comm& c, Layout data, int root) {
  if (root == MPI_ROOT) {
    co_await with_one(c, 0, data, true);
  } else if (root != MPI_PROC_NULL) {
    Comm& lc = *c.local_comm;
    if (lc.rank == 0) {
      co_await with_one(c, root, data, false);
    }
    co_await local_bcast(lc, data);
  }
}

sc::Task reduce(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
                std::size_t count, int root) {
  if (root == MPI_ROOT) {
    co_await with_one(c, 0, recv, false);
  } else if (root != MPI_PROC_NULL) {
    Comm& lc = *c.local_comm;
    if (lc.size == 1) {
      co_await with_one(c, root, send, true);  // the reduction of one
      co_return;
    }
    std::vector<std::byte> acc;
    co_await local_reduce(lc, send, acc, type, op, count);
    if (lc.rank == 0) {
      co_await with_one(c, root, packed(acc), true);
    }
  }
}

sc::Task allreduce(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
                   std::size_t count) {
  Comm& lc = *c.local_comm;
  if (lc.size == 1) {
    co_await leaders_swap(c, send, recv);  // the reduction of one
    co_return;
  }
  std::vector<std::byte> acc;
  co_await local_reduce(lc, send, acc, type, op, count);
  if (lc.rank == 0) {
    co_await leaders_swap(c, packed(acc), recv);
  }
  co_await local_bcast(lc, recv);
}

sc::Task gatherv(Comm& c, Layout send, Blocks recv_blocks, int root) {
  sc::Run* run = co_await sc::current_run();
  if (root == MPI_ROOT) {
    Requests in(recv_blocks.size());
    for (std::size_t r = 0; r < recv_blocks.size(); ++r) {
      in.recv(c, static_cast<int>(r), kTagDirect, recv_blocks[r]);
    }
    co_await in.all();
    note(run, in);
  } else if (root != MPI_PROC_NULL) {
    Requests out(1);
    out.send(c, root, kTagDirect, send);
    co_await out.all();
  }
}

sc::Task scatterv(Comm& c, Blocks send_blocks, Layout recv, int root) {
  sc::Run* run = co_await sc::current_run();
  if (root == MPI_ROOT) {
    Requests out(send_blocks.size());
    for (std::size_t r = 0; r < send_blocks.size(); ++r) {
      out.send(c, static_cast<int>(r), kTagDirect, send_blocks[r]);
    }
    co_await out.all();
  } else if (root != MPI_PROC_NULL) {
    Requests in(1);
    in.recv(c, root, kTagDirect, recv);
    co_await in.all();
    note(run, in);
  }
}

sc::Task allgatherv(Comm& c, Layout send, Blocks recv_blocks) {
  // An alltoallv whose blocks to every remote member are the same.
  return alltoallv(c, Blocks(static_cast<std::size_t>(c.remote_size), send),
                   std::move(recv_blocks));
}

sc::Task alltoallv(Comm& c, Blocks send_blocks, Blocks recv_blocks) {
  sc::Run* run = co_await sc::current_run();
  const auto n = static_cast<std::size_t>(c.remote_size);
  Requests both(2 * n);
  for (std::size_t r = 0; r < n; ++r) {
    both.recv(c, static_cast<int>(r), kTagDirect, recv_blocks[r]);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t r = (i + static_cast<std::size_t>(c.rank)) % n;
    both.send(c, static_cast<int>(r), kTagDirect, send_blocks[r]);
  }
  co_await both.all();
  note(run, both);
}

sc::Task reduce_scatter(Comm& c, Layout send, Layout recv, TypeArg type,
                        OpArg op, datatype::Counts counts) {
  Comm& lc = *c.local_comm;
  std::size_t total = 0;
  for (std::size_t n : counts) {
    total += n;
  }
  std::vector<std::byte> acc;
  co_await local_reduce(lc, send, acc, type, op, total);
  // The remote group's reduction, scattered here by our counts.
  std::vector<std::byte> theirs;
  Blocks blocks;
  if (lc.rank == 0) {
    theirs.resize(type.bytes(total));
    co_await leaders_swap(c, packed(acc), packed(theirs));
    std::size_t offset = 0;
    for (std::size_t n : counts) {
      const std::size_t bytes = type.bytes(n);
      blocks.push_back(packed(theirs.data() + offset, bytes));
      offset += bytes;
    }
  }
  co_await sc::scatterv(lc, std::move(blocks), recv, 0, false);
}

sc::Task exchange_via_leaders(Comm& c, Layout mine, Layout theirs) {
  Comm& lc = *c.local_comm;
  if (lc.rank == 0) {
    co_await leaders_swap(c, mine, theirs);
  }
  co_await local_bcast(lc, theirs);
}

}  // namespace shmpi::mpi::inter
