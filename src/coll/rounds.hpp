// SPDX-License-Identifier: MIT
// Rounds on a communicator's scratch block, as collectives use them. In
// every round each member publishes its slot of that round's parity (data
// inline, or in one of its two bulk buffers) and reads what the algorithm
// needs from the others. Every member takes part in every round, so round
// numbers agree; a member's round word says both "my data for round r is
// there" and "I have finished reading round r - 1".
//
// Reuse: a member rewrites its parity slot (and bulk buffer) of round r - 2
// in round r, so before writing data it waits until every member has
// published r - 1 (writable()). Rounds where everyone reads everyone make
// that free for the next round; rooted rounds make the writer look.
#pragma once

#include <cstddef>
#include <cstdint>

#include "coll/task.hpp"
#include "mpi/comm.hpp"
#include "scratch/comm_block.hpp"

namespace shmpi::coll {

using mpi::Comm;

// True when this member may write its slot of the next round now, inline
// or in a bulk buffer: every member has published the current round (so
// has finished reading the round before, whose slot parity and bulk buffer
// the next round reuses).
bool writable_now(Comm& comm);
// The same for data that fits inline: the next round's slot was last used
// scratch::slots_per_member() rounds before (32 in communicators of up to
// 16 members, else 8), so a member that only writes may run that many less
// one rounds ahead of the slowest reader.
bool writable_inline_now(Comm& comm);
// Waits (in the calling coroutine) until writable_now(); with more members
// than cores, as for all_arrived() (the same condition).
struct Writable {
  Comm* comm;
  bool operator()() { return writable_now(*comm); }
  p2p::PollHint hint();
};
inline auto writable(Comm& comm) { return until(Writable{&comm}); }
// Blocking form, for the agreement rounds of communicator creation.
void wait_writable(Comm& comm);

// Where this member writes `bytes` for the next round: inline in its slot
// or in its bulk buffer of that parity (made on first use). Call after
// writable(); at most scratch::kBulkBytes.
std::byte* write_area(Comm& comm, std::size_t bytes);
// Publishes the next round (release) and wakes sleeping members: once the
// round is complete, or at once if `others_wait_on_me` (a root whose data
// the others wait for, whatever the rest of the round does).
void publish(Comm& comm, bool others_wait_on_me = false);
// Publishes the next round along a chain, where member `waiter` waits for
// this one alone (a large scan's next member): wakes `waiter` if it
// sleeps, and everyone once the round is complete. -1: no one waits.
void publish_to(Comm& comm, int waiter);
// True when the communicator has no more members than the machine has
// CPUs: the same answer on every member, so algorithms may choose by it.
bool core_per_member(const Comm& comm);
// Publishes the next round as a barrier round: no data, everyone waits for
// everyone. When core_per_member(), in the small lane (scratch/
// comm_block.hpp, arrival entries): the round word in a line shared by up
// to four members instead of each in its own slot; else the slot. With
// more members than cores the shared line made 4-rank barriers 10-20%
// slower. Rounds with data use the slots: a member's work between seeing
// the others' round and publishing its next one costs a shared line more
// than two lines, and at two ranks 8-byte allreduces were 8-17% slower in
// it (docs/bench.md, stop 40). Members that only read in a rooted round (a
// broadcast's readers) use their slot too: there the shared line would
// travel to them and back to the root on every call (measured: 8-byte
// broadcasts 10-40% slower at two ranks). Waits accept either place.
void arrive(Comm& comm);
// The current round (the last one this member published).
inline std::uint64_t round(const Comm& comm) { return comm.shared->round; }

// True once member `m` has published the current round (with data or
// without).
bool arrived(Comm& comm, int m);
// True once member `m` has published round `r` or a later one.
bool reached(Comm& comm, int m, std::uint64_t r);
// Waits until member m has published the current round. With more
// members than cores: yields at once when m shares this process's core,
// polls longer when every mate here has published the round (only other
// cores can finish it), else waits as usual.
struct Arrival {
  Comm* comm;
  int m;
  bool operator()() { return arrived(*comm, m); }
  p2p::PollHint hint();
};
inline auto arrival(Comm& comm, int m) { return until(Arrival{&comm, m}); }
// Waits until every member has published the current round (and records
// that everyone has, for writable_now()). With more members than cores,
// as coll/core_mates.hpp's poll_hint_for_all() says.
struct AllArrived {
  Comm* comm;
  int next = 0;
  bool operator()();
  p2p::PollHint hint();
};
inline auto all_arrived(Comm& comm) { return until(AllArrived{&comm}); }

// Asks for the slot lines (round word and inline data) of members
// first..last for the round `ahead` rounds past the current one, to read.
// For a member that reads lower members' slots round after round while
// they run ahead (a scan): their next slots are then on the way before it
// looks. Two rounds ahead: a line the writer has not filled yet comes
// back with its write, so one fetch more, not a wait.
void prefetch_slots(Comm& comm, int first, int last, std::uint64_t ahead);
// Member m's data of the current round (valid after arrived(m)).
const std::byte* data_of(Comm& comm, int m);
// The same for the next round, which this member has not published yet:
// along a chain a member reads its predecessor's data before it writes.
bool arrived_next(Comm& comm, int m);
inline auto arrival_next(Comm& comm, int m) {
  return until([&comm, m] { return arrived_next(comm, m); });
}
const std::byte* next_data_of(Comm& comm, int m);

// Streaming a bulk round (a broadcast's root, when readers have cores of
// their own): after write_area(), the writer says how many bytes of the
// next round's data are in place, and readers of the current round copy
// them out before the round is published (the root's copy in and the
// readers' copies out then overlap instead of following each other).
// progress_of() is what member m has said of the current round, 0 when it
// has not started it or is already past it (then arrived(m) holds); where
// the bytes are is data_of(m), valid once progress_of(m) is not 0.
void publish_progress(Comm& comm, std::size_t bytes);
std::size_t progress_of(Comm& comm, int m);

// Bytes per round one member can write: inline in its slot for small
// operations, a bulk buffer otherwise. kInline is the slot's room;
// inline_bytes() what a communicator's rounds put there.
inline constexpr std::size_t kInline = scratch::CollSlot::kInlineBytes;
inline constexpr std::size_t kBulk = scratch::kBulkBytes;
// What fits in the line of the slot's round word.
inline constexpr std::size_t kInlineFirstLine =
    kCacheLineSize - offsetof(scratch::CollSlot, data);
static_assert(kInlineFirstLine > 0 && kInlineFirstLine <= kInline);
// With a core per member, rounds of more than kInlineFirstLine bytes go to
// a bulk buffer, whose lines the writer owns ahead (own_next_bulk()); the
// slot's further lines it took back from the readers one store at a time.
// Owning those ahead too (tried) helped allgather and allreduce but not
// bcast or scatter. At two ranks, 56-368 bytes: bcast 0.68-0.79 ->
// 0.53-0.59 us, allreduce 0.61-0.74 -> 0.52-0.59, allgather 0.49-0.59 ->
// 0.36-0.41. Members sharing cores keep the whole slot: a slot ring is 32
// rounds deep where the bulk ring is 8, and members that only write (scan,
// bcast) run ahead by that much (8 ranks on 2 cores, 56-368 bytes: scan
// 2.0-2.7 us with the slot, 3.2-4.6 with bulk buffers).
std::size_t inline_bytes(const Comm& comm);

// The same for data that goes to a bulk buffer: rounds with bulk data take
// this member's buffers in turn, so the next one was last written a ring's
// length of such rounds before, and a member that only writes may run up
// to ring - 1 of them ahead. After publishing such a round, a member asks
// for the lines of its next buffer (PREFETCHW) once its readers are known
// to be done with it.
bool writable_bulk_now(Comm& comm);

// Waits until this member may write `bytes` for the next round: the
// inline rule when they fit a slot, else the bulk rule. For members that
// only write in a pattern; rounds where everyone reads use writable().
inline auto writable_for(Comm& comm, std::size_t bytes) {
  return until([&comm, bytes] {
    return bytes <= inline_bytes(comm) ? writable_inline_now(comm)
                                       : writable_bulk_now(comm);
  });
}

// Buffers in the shared heap (MPI_Alloc_mem, or any malloc'd block of 64
// KiB or more: src/shared_malloc) can be read by every member directly.
// The offset of a contiguous buffer of `bytes` bytes there, or kNotInHeap.
inline constexpr std::uint64_t kNotInHeap = ~std::uint64_t{0};
std::uint64_t heap_offset_of(const void* base, std::size_t bytes,
                             bool contiguous);
// A member's buffer by the offset it published.
std::byte* heap_at(std::uint64_t offset);

}  // namespace shmpi::coll
