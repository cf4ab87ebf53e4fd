// SPDX-License-Identifier: MIT
// Every hierarchical collective has the same three phases: inside each
// node, between the nodes' leaders (the lowest segment slot of each node,
// which need not be the node's lowest rank), inside each node again.
// Members that have nothing to do in a phase skip it; the sub-communicators'
// blocks keep their own round numbers.
#include "coll/numa.hpp"

#include <memory>
#include <utility>
#include <vector>

#include "contextid/context_id.hpp"
#include "mpi/comm.hpp"
#include "runtime/runtime.hpp"

namespace shmpi::coll {

namespace {

// One place in a sub-communicator's queue of operations (mpi/comm.hpp,
// CommShared::next_ticket / serving).
struct Turn {
  Comm* sub = nullptr;  // nullptr: not a member (internode on non-leaders)
  std::uint64_t ticket = 0;
};

Turn take_turn(Comm* sub) {
  if (sub == nullptr) {
    return {};
  }
  // Relaxed: pending only tells this process's own blocking calls to wait
  // (wait_pending polls it); the ticket is ours alone.
  sub->shared->pending.fetch_add(1, std::memory_order_relaxed);
  return Turn{sub, sub->shared->next_ticket++};
}

struct Turns {
  Turn intranode;
  Turn internode;
};

Turns take_turns(Comm& c) {
  return Turns{take_turn(c.intranode), take_turn(c.internode)};
}

// Leaves both queues when the collective ends (constructed once it has
// entered them).
class Leave {
 public:
  explicit Leave(const Turns& turns) : turns_(turns) {}
  Leave(const Leave&) = delete;
  Leave& operator=(const Leave&) = delete;
  ~Leave() {
    const Turn both[] = {turns_.intranode, turns_.internode};
    for (const Turn& t : both) {
      if (t.sub != nullptr) {
        t.sub->shared->pending.fetch_sub(1, std::memory_order_relaxed);
        // Release: what this collective did on the block happens before the
        // next queued operation starts (it acquires serving).
        t.sub->shared->serving.fetch_add(1, std::memory_order_release);
      }
    }
  }

 private:
  Turns turns_;
};

// Waits for our turn on both sub-communicators; *rc: attaching their
// blocks failed (an MPI error class) or MPI_SUCCESS.
Task enter(Turns turns, int* rc) {
  const Turn both[] = {turns.intranode, turns.internode};
  for (const Turn& t : both) {
    if (t.sub != nullptr) {
      // Acquire: the previous operation's effects on the block are ours.
      co_await until([t] {
        return t.sub->shared->serving.load(std::memory_order_acquire) ==
               t.ticket;
      });
    }
  }
  *rc = MPI_SUCCESS;
  for (const Turn& t : both) {
    if (t.sub != nullptr && *rc == MPI_SUCCESS) {
      const char* why = "";
      co_await until([t, rc, &why] {
        *rc = mpi::attach_block(*t.sub, false, &why);
        return *rc != MPI_ERR_PENDING;
      });
    }
  }
}

int node_of(const Comm& c, int rank) {
  return c.numa_node_of[static_cast<std::size_t>(rank)];
}

// `rank`'s rank in the sub-communicator of its node (members in rank order).
int intranode_rank(const Comm& c, int rank) {
  int before = 0;
  for (int r = 0; r < rank; ++r) {
    before += node_of(c, r) == node_of(c, rank) ? 1 : 0;
  }
  return before;
}

int my_leader(const Comm& c) {
  return intranode_rank(
      c, c.numa_leaders[static_cast<std::size_t>(node_of(c, c.rank))]);
}

bool is_leader(const Comm& c) { return c.internode != nullptr; }

Task barrier_phases(Comm& c, Turns turns) {
  int rc = MPI_SUCCESS;
  co_await enter(turns, &rc);
  Leave leave(turns);
  if (rc != MPI_SUCCESS) {
    co_await fail_with(rc);
    co_return;
  }
  co_await barrier(*c.intranode);
  if (is_leader(c)) {
    co_await barrier(*c.internode);
  }
  co_await barrier(*c.intranode);
}

Task bcast_phases(Comm& c, Layout data, int root, Turns turns) {
  int rc = MPI_SUCCESS;
  co_await enter(turns, &rc);
  Leave leave(turns);
  if (rc != MPI_SUCCESS) {
    co_await fail_with(rc);
    co_return;
  }
  const int root_node = node_of(c, root);
  const bool on_root_node = node_of(c, c.rank) == root_node;
  if (on_root_node) {  // the root's node first, so its leader has the data
    co_await bcast(*c.intranode, data, intranode_rank(c, root));
  }
  if (is_leader(c)) {
    co_await bcast(*c.internode, data, root_node);
  }
  if (!on_root_node) {
    co_await bcast(*c.intranode, data, my_leader(c));
  }
}

// Phase one of both reductions: this node's contributions folded into
// `partial` (packed, at the leader; unused elsewhere).
Task reduce_node(Comm& c, Layout send, Layout partial, const TypeArg& type,
                 const OpArg& op, std::size_t count) {
  co_await reduce(*c.intranode, send, partial, type, op, count, my_leader(c));
}

Task reduce_phases(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
                   std::size_t count, int root, Turns turns) {
  int rc = MPI_SUCCESS;
  co_await enter(turns, &rc);
  Leave leave(turns);
  if (rc != MPI_SUCCESS) {
    co_await fail_with(rc);
    co_return;
  }
  const std::size_t bytes = type.bytes(count);
  std::unique_ptr<std::byte[]> buffer;
  if (is_leader(c)) {
    buffer = std::make_unique<std::byte[]>(bytes);
  }
  const Layout partial{buffer.get(), is_leader(c) ? bytes : 0, nullptr};
  co_await reduce_node(c, send, partial, type, op, count);
  const int root_node = node_of(c, root);
  if (is_leader(c)) {
    co_await reduce(*c.internode, partial, partial, type, op, count, root_node);
    if (c.rank == root) {
      datatype::unpack(recv, 0, partial.base, bytes);
    }
  }
  const int leader = c.numa_leaders[static_cast<std::size_t>(root_node)];
  if (leader != root && node_of(c, c.rank) == root_node) {
    // The result is at the leader of the root's node: hand it over.
    Blocks blocks;
    if (c.rank == root) {
      blocks.resize(static_cast<std::size_t>(c.intranode->size));
      blocks[static_cast<std::size_t>(intranode_rank(c, leader))] = recv;
    }
    co_await gatherv(*c.intranode, c.rank == leader ? partial : Layout{},
                     std::move(blocks), intranode_rank(c, root), true);
  }
}

Task allreduce_phases(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
                      std::size_t count, Turns turns) {
  int rc = MPI_SUCCESS;
  co_await enter(turns, &rc);
  Leave leave(turns);
  if (rc != MPI_SUCCESS) {
    co_await fail_with(rc);
    co_return;
  }
  const std::size_t bytes = type.bytes(count);
  std::unique_ptr<std::byte[]> buffer;
  if (is_leader(c)) {
    buffer = std::make_unique<std::byte[]>(bytes);
  }
  const Layout partial{buffer.get(), is_leader(c) ? bytes : 0, nullptr};
  co_await reduce_node(c, send, partial, type, op, count);
  if (is_leader(c)) {
    co_await allreduce(*c.internode, partial, partial, type, op, count);
    datatype::unpack(recv, 0, partial.base, bytes);
  }
  co_await bcast(*c.intranode, recv, my_leader(c));
}

}  // namespace

bool spans_numa_nodes(Comm& c) {
  if (c.numa_hierarchy >= 0) [[likely]] {
    return c.numa_hierarchy != 0;
  }
  c.numa_hierarchy = 0;
  if (c.is_inter || c.size < 3 ||
      contextid::subcomm(c.recv_context_id) != contextid::SubComm::kParent) {
    return false;
  }
  // A first look at the rank table, so that one-node machines (most) make
  // no sub-communicators at all.
  const segment::Segment& segment = mpi::state().runtime->segment();
  auto node_of_rank = [&](int r) {
    return segment.rank_info(c.slots[static_cast<std::size_t>(r)]).numa_node;
  };
  bool several = false;
  for (int r = 1; r < c.size && !several; ++r) {
    several = node_of_rank(r) != node_of_rank(0);
  }
  if (!several || (!c.subcomms_made && mpi::make_numa_subcomms(c) != 0)) {
    return false;
  }
  const std::size_t nodes = c.numa_leaders.size();
  c.numa_hierarchy =
      nodes > 1 && nodes < static_cast<std::size_t>(c.size) ? 1 : 0;
  return c.numa_hierarchy != 0;
}

Task numa_barrier(Comm& c) { return barrier_phases(c, take_turns(c)); }

Task numa_bcast(Comm& c, Layout data, int root) {
  return bcast_phases(c, data, root, take_turns(c));
}

Task numa_reduce(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
                 std::size_t count, int root) {
  return reduce_phases(c, send, recv, type, op, count, root, take_turns(c));
}

Task numa_allreduce(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
                    std::size_t count) {
  return allreduce_phases(c, send, recv, type, op, count, take_turns(c));
}

}  // namespace shmpi::coll
