// SPDX-License-Identifier: MIT
// The collectives on an intracommunicator, as coroutines over block rounds
// (coll/rounds.hpp). Arguments are already checked and taken by value (a
// nonblocking collective outlives its call). Buffers are Layouts of the
// user's data in packed form; `count`s are elements of the TypeArg.
// Reductions combine contributions in rank order, the same way on every
// member, so results are bit-identical everywhere and do not depend on
// timing; a non-commutative operation gets x0 op x1 op ... op x(n-1).
#pragma once

#include <cstddef>
#include <vector>

#include "coll/task.hpp"
#include "datatype/pack.hpp"
#include "datatype/reduce_ops.hpp"
#include "mpi/core.hpp"

namespace shmpi::coll {

using datatype::Blocks;
using datatype::Layout;
using mpi::Comm;
using mpi::OpArg;
using mpi::TypeArg;

Task barrier(Comm& c);
Task bcast(Comm& c, Layout data, int root);
// `send` may be the same Layout as `recv` (MPI_IN_PLACE at the root).
Task reduce(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
            std::size_t count, int root);
Task allreduce(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
               std::size_t count);
// recv: every member's block at the root, rank order; `in_place`: the
// root's block is already there.
Task gather(Comm& c, Layout send, Layout recv, int root, bool in_place);
// recv_blocks: at the root, one Layout per member.
Task gatherv(Comm& c, Layout send, Blocks recv_blocks, int root, bool in_place);
Task scatter(Comm& c, Layout send, Layout recv, int root, bool in_place);
Task scatterv(Comm& c, Blocks send_blocks, Layout recv, int root,
              bool in_place);
// blocks: one Layout per member, this member's included (its own is
// filled from `send` unless in place).
Task allgatherv(Comm& c, Layout send, Blocks blocks, bool in_place);
// send_blocks[j] goes to member j, recv_blocks[j] comes from it.
// `uniform`: every block has the same size on every member (MPI_Alltoall),
// so no round is spent agreeing on the largest.
Task alltoallv(Comm& c, Blocks send_blocks, Blocks recv_blocks,
               bool uniform = false);
// Member j gets the reduction of everyone's block j (counts[j] elements;
// send holds them back to back).
Task reduce_scatter(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
                    datatype::Counts counts);
// Inclusive (exclusive = false) or exclusive prefix reduction.
Task scan(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
          std::size_t count, bool exclusive);

// Blocking fast paths for data that fits one round (inline or bulk; bcast:
// not streamed; allreduce: folded whole by everyone): the same round as the
// coroutine above, run straight through in the caller with the engine's
// waiting (no coroutine frame). Each returns false, having done nothing,
// when its case does not fit; the caller then runs the coroutine.
// The block must be attached and no nonblocking collective pending.
bool barrier_now(Comm& c);
bool bcast_now(Comm& c, const Layout& data, int root);
bool gather_now(Comm& c, const Layout& send, const Layout& recv, int root,
                bool in_place);
bool scatter_now(Comm& c, const Layout& send, const Layout& recv, int root,
                 bool in_place);
bool reduce_now(Comm& c, const Layout& send, const Layout& recv,
                const TypeArg& type, const OpArg& op, std::size_t count,
                int root);
bool allreduce_now(Comm& c, const Layout& send, const Layout& recv,
                   const TypeArg& type, const OpArg& op, std::size_t count);
// MPI_Reduce_scatter_block of `count` elements per member.
bool reduce_scatter_block_now(Comm& c, const Layout& send, const Layout& recv,
                              const TypeArg& type, const OpArg& op,
                              std::size_t count);
bool scan_now(Comm& c, const Layout& send, const Layout& recv,
              const TypeArg& type, const OpArg& op, std::size_t count,
              bool exclusive);
// True when allreduce_small_now() applies to `c` for `bytes` of data: two
// or more members, data that fits inline in a slot, no NUMA hierarchy (the
// same answer on every member).
bool allreduce_small_fits(Comm& c, std::size_t bytes);
// MPI_Allreduce of `count` elements of one predefined type (`bytes` in
// all, 0 < bytes) with a predefined operation's `reduce`, on a
// communicator where allreduce_small_fits(): allreduce()'s one inline
// round, folded as allreduce() folds, straight into `recv` (`send` ==
// `recv`: in place). The block must be attached and no nonblocking
// collective pending, as for the other direct paths.
void allreduce_small_now(Comm& c, const void* send, void* recv,
                         std::size_t bytes, std::size_t count,
                         datatype::ReduceFn reduce);
// MPI_Allgather of contiguous blocks of `block` bytes (send null: in
// place), as allgatherv's round.
bool allgather_now(Comm& c, const std::byte* send, std::byte* recv,
                   std::size_t block);
// MPI_Alltoall of contiguous blocks of `block` bytes (send == recv: in
// place), laid out as alltoallv's round.
bool alltoall_now(Comm& c, const std::byte* send, std::byte* recv,
                  std::size_t block);

}  // namespace shmpi::coll
