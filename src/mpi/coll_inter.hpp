// SPDX-License-Identifier: MIT
// The collectives on an intercommunicator, as coroutines (coll/task.hpp).
// Between the groups they send point-to-point messages on the
// intercommunicator's collective context (Z = 1); within a group they run
// the intracommunicator collectives (coll/intra.hpp) on the local group's
// communicator (Comm::local_comm) and its scratch block. Each group's
// rank 0 is its leader.
//  - rooted calls (bcast, reduce): root <-> remote leader, then a bcast or
//    a reduce in the leader's group; gather(v), scatter(v): the root <->
//    every remote member directly;
//  - allreduce, reduce_scatter(_block): each group reduces at its leader
//    (in rank order, so non-commutative operations get the group's rank
//    order), the leaders swap, each leader broadcasts or scatters the
//    other group's result in its group;
//  - allgather(v), alltoall(v,w): every member <-> every remote member;
//  - barrier: a byte gathered at the leader, leaders swap, a byte
//    broadcast from the leader.
// A group of one skips its local phases. Data stay in the user's Layouts
// (derived datatypes are packed by the point-to-point protocols and the
// intracommunicator collectives); the leaders' reductions are packed.
//
// Arguments are checked by the caller (coll_api.cpp) and taken by value;
// the caller runs the tasks with run_collective (coll_driver.hpp), which
// queues collectives on one intercommunicator on its local group's
// tickets, so the point-to-point messages of successive collectives can
// never match each other's receives.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "coll/task.hpp"
#include "datatype/pack.hpp"
#include "mpi/core.hpp"

namespace shmpi::mpi::inter {

namespace sc = ::shmpi::coll;  // tasks and their driver

using datatype::Blocks;
using datatype::Layout;

// root: MPI_ROOT, MPI_PROC_NULL, or the root's rank in the remote group.
sc::Task barrier(Comm& c);
sc::Task bcast(Comm& c, Layout data, int root);
// recv: at MPI_ROOT only. count: elements of `type` in send (and recv).
sc::Task reduce(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
                std::size_t count, int root);
sc::Task allreduce(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
                   std::size_t count);
// recv_blocks (at MPI_ROOT): one per remote member, in rank order.
sc::Task gatherv(Comm& c, Layout send, Blocks recv_blocks, int root);
// send_blocks (at MPI_ROOT): one per remote member.
sc::Task scatterv(Comm& c, Blocks send_blocks, Layout recv, int root);
// recv_blocks: one per remote member; `send` goes to every remote member.
sc::Task allgatherv(Comm& c, Layout send, Blocks recv_blocks);
// send_blocks[j] goes to remote member j, recv_blocks[j] comes from it.
sc::Task alltoallv(Comm& c, Blocks send_blocks, Blocks recv_blocks);
// counts: elements each member of the local group receives (the same on
// every member); `send` holds their sum, which is the remote group's sum
// too. Local member j gets block j of the remote group's reduction.
sc::Task reduce_scatter(Comm& c, Layout send, Layout recv, TypeArg type,
                        OpArg op, datatype::Counts counts);

// Not a user collective: for communicator creation on an intercommunicator
// (MPI_Comm_idup). The leaders swap `mine` for the remote leader's, and
// each leader broadcasts what it got in its group: every member ends with
// the remote group's value in `theirs` (the same size in both groups).
sc::Task exchange_via_leaders(Comm& c, Layout mine, Layout theirs);

}  // namespace shmpi::mpi::inter
