// SPDX-License-Identifier: MIT
// Intercommunicator collectives (coll_inter.hpp).
#include "mpi/coll_inter.hpp"

#include <atomic>
#include <utility>
#include <vector>

#include "base/assert.hpp"
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

// Tags on the collective contexts, apart from coll_common's (which
// communicator creation still uses on the same contexts).
constexpr int kTagIn = 101;       // barrier arrivals, reduction trees
constexpr int kTagOut = 102;      // barrier releases, broadcast trees
constexpr int kTagLeaders = 103;  // leader <-> leader, leader <-> root
constexpr int kTagDirect = 104;   // member <-> remote member
constexpr int kTagScatter = 105;  // leader -> its group, reduce_scatter
// (coll_neighbor.cpp uses 110 and up.)

Layout packed(std::vector<std::byte>& bytes) {
  return Layout{bytes.data(), bytes.size(), nullptr};
}
Layout packed(std::byte* data, std::size_t bytes) {
  return Layout{data, bytes, nullptr};
}

// ---- within the local group (lc), rank 0 the leader ----

// Binomial broadcast of `data` from local rank 0.
sc::Task local_bcast(Comm& lc, Layout data) {
  sc::Run* run = co_await sc::current_run();
  const int size = lc.size;
  const int rank = lc.rank;
  int mask = 1;
  while (mask < size) {
    if ((rank & mask) != 0) {
      Requests in(1);
      in.recv(lc, rank - mask, kTagOut, data);
      co_await in.all();
      note(run, in);
      break;
    }
    mask <<= 1;
  }
  std::size_t children = 0;
  for (int m = mask >> 1; m > 0; m >>= 1) {
    children += rank + m < size ? 1 : 0;
  }
  Requests out(children);
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (rank + mask < size) {
      out.send(lc, rank + mask, kTagOut, data);
    }
  }
  co_await out.all();
}

// Reduces every member's `send` (count elements of type) at local rank 0,
// into `acc` (packed), in rank order: a binomial tree whose children hold
// higher ranks, acc = acc op child at every step.
sc::Task local_reduce(Comm& lc, Layout send, std::vector<std::byte>& acc,
                      TypeArg type, OpArg op, std::size_t count) {
  sc::Run* run = co_await sc::current_run();
  const std::size_t bytes = type.bytes(count);
  acc.resize(bytes);
  datatype::pack(send, 0, acc.data(), bytes);
  std::vector<std::byte> incoming;
  const int size = lc.size;
  const int rank = lc.rank;
  for (int mask = 1; mask < size; mask <<= 1) {
    if ((rank & mask) != 0) {
      Requests up(1);
      up.send(lc, rank - mask, kTagIn, packed(acc));
      co_await up.all();
      co_return;
    }
    if (rank + mask < size) {
      incoming.resize(bytes);
      Requests in(1);
      in.recv(lc, rank + mask, kTagIn, packed(incoming));
      co_await in.all();
      note(run, in);
      if (count != 0) {
        // incoming = acc op incoming: the lower ranks first.
        apply_op(op, type, acc.data(), incoming.data(), count);
      }
      acc.swap(incoming);
    }
  }
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
  Layout none{};
  if (lc.rank == 0) {
    Requests in(static_cast<std::size_t>(lc.size));
    for (int r = 1; r < lc.size; ++r) {
      in.recv(lc, r, kTagIn, none);
    }
    co_await in.all();
    // Everyone here has arrived; so has everyone there once their leader
    // answers.
    co_await leaders_swap(c, none, none);
  } else {
    Requests in(1);
    in.send(lc, 0, kTagIn, none);
    co_await in.all();
  }
  co_await local_bcast(lc, none);
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
  sc::Run* run = co_await sc::current_run();
  Comm& lc = *c.local_comm;
  std::size_t total = 0;
  for (std::size_t n : counts) {
    total += n;
  }
  std::vector<std::byte> acc;
  co_await local_reduce(lc, send, acc, type, op, total);
  if (lc.rank != 0) {
    Requests in(1);
    in.recv(lc, 0, kTagScatter, recv);
    co_await in.all();
    note(run, in);
    co_return;
  }
  // The remote group's reduction, scattered here by our counts.
  std::vector<std::byte> theirs(type.bytes(total));
  co_await leaders_swap(c, packed(acc), packed(theirs));
  Requests out(counts.size());
  std::size_t offset = type.bytes(counts[0]);
  for (std::size_t j = 1; j < counts.size(); ++j) {
    const std::size_t bytes = type.bytes(counts[j]);
    out.send(lc, static_cast<int>(j), kTagScatter,
             packed(theirs.data() + offset, bytes));
    offset += bytes;
  }
  datatype::unpack(recv, 0, theirs.data(), type.bytes(counts[0]));
  co_await out.all();
}

sc::Task exchange_via_leaders(Comm& c, Layout mine, Layout theirs) {
  Comm& lc = *c.local_comm;
  if (lc.rank == 0) {
    co_await leaders_swap(c, mine, theirs);
  }
  co_await local_bcast(lc, theirs);
}

}  // namespace shmpi::mpi::inter
