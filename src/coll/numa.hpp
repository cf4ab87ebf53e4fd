// SPDX-License-Identifier: MIT
// Collectives on a communicator whose members sit on several NUMA nodes:
// each runs on the NUMA sub-communicators of seed 000 (mpi/comm.hpp,
// make_numa_subcomms), first among the members of one node, then among the
// nodes' leaders, so that a message crosses each link between nodes once
// instead of once per member. The phases are the flat algorithms of
// coll/intra.hpp on the sub-communicators' own blocks.
//
// Order: the sub-communicators are also reachable by users
// (shmpi_comm_numa_subcomms), so a hierarchical collective takes a ticket
// in their queues when it is called, like any operation on them.
#pragma once

#include "coll/intra.hpp"

namespace shmpi::coll {

// True when `c` is an intracommunicator spanning several NUMA nodes with
// more than one member on at least one of them (makes the NUMA
// sub-communicators on first use; false if that fails).
bool spans_numa_nodes(Comm& c);

// The hierarchical forms; call only when spans_numa_nodes(c). Reductions
// regroup operands, so they are for commutative operations only.
Task numa_barrier(Comm& c);
Task numa_bcast(Comm& c, Layout data, int root);
Task numa_reduce(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
                 std::size_t count, int root);
Task numa_allreduce(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
                    std::size_t count);

}  // namespace shmpi::coll
