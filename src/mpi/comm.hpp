// SPDX-License-Identifier: MIT
// Communicator objects: the predefined ones, creation through agreement
// rounds on the parent's scratch block, and destruction.
#pragma once

#include <array>
#include <atomic>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "contextid/arbiter.hpp"
#include "mpi/core.hpp"
#include "scratch/block_pool.hpp"

namespace shmpi::mpi {

namespace detail {

// A context ID that every member already agreed on, with the generation
// that names its communicator's block: MPI_Comm_dup takes the next one
// without any communication. Agreement rounds hand them out in batches.
struct Reserved {
  contextid::ContextId id;
  std::uint64_t generation;
};

struct CommShared {
  // The communicator's block, attached at its first round (attach_block),
  // with room for `capacity` members (its header's; the segment's for the
  // world's block), which says where the slots and words are
  // (scratch/comm_block.hpp). Set through use_block() only.
  scratch::CommBlock* block = nullptr;
  std::uint32_t capacity = 0;
  // scratch::slots_per_member(capacity), kept: every slot lookup needs it,
  // and deriving it there measured slower (docs/bench.md, 32 slots).
  std::uint32_t slots = 0;
  void use_block(scratch::CommBlock* b, std::uint32_t members) {
    block = b;
    capacity = members;
    slots = scratch::slots_per_member(members);
  }
  std::uint64_t key = 0;    // its directory key (0: not in the directory)
  std::uint64_t round = 0;  // the last round this process published
  // Every member had published at least this round when we last looked,
  // so nobody still reads rounds before it: the slots and bulk buffers
  // they used may be rewritten. Collective rounds in which not everyone
  // reads everyone lag.
  std::uint64_t all_seen = 0;
  std::atomic<std::uint64_t>* bulk = nullptr;      // the block's bulk words
  scratch::ArrivalEntry* arrivals = nullptr;       // and its arrival entries
  std::atomic<std::uint64_t>* progress = nullptr;  // and progress words
  // The last round this process published in the small lane (a barrier
  // round, coll/rounds.hpp: arrive()): waits look at the members' arrival
  // entries first in it (members choose the lane alike).
  std::uint64_t small_round = 0;
  // This member's bulk buffers (coll/rounds.cpp: write_area): rounds that
  // wrote one take the next buffer of the ring, whatever rounds without
  // bulk data came between, so the buffer a round will write is known
  // before it starts. bulk_writes counts those rounds; bulk_round is the
  // last of them; bulk_used[i] is the round that last wrote buffer i (0:
  // none on this communicator). own_lines: lines of the next buffer to ask
  // for after the round being written is published.
  std::uint64_t bulk_writes = 0;
  std::uint64_t bulk_round = 0;
  std::array<std::uint64_t, scratch::kMaxBulkRing> bulk_used{};
  std::uint32_t own_lines = 0;
  // With more ranks than cores (coll/core_mates.hpp): the other members
  // bound to this process's core, in rank order, found on first use;
  // cores_found 0 not yet, 1 found, -1 not oversubscribed or not bound to
  // single cores. rooted_since_all: this member read a rooted round since
  // the last round in which everyone waited for everyone.
  std::int8_t cores_found = 0;
  bool core_outsiders = false;  // ranks outside it share our core
  bool rooted_since_all = false;
  std::vector<int> core_mates;
  std::uint32_t leader = 0;  // local rank of the member with the lowest slot
  std::uint64_t generation = 0;   // the leader's number for this communicator
  std::vector<Reserved> reserve;  // agreed IDs from reserve_head on
  std::size_t reserve_head = 0;
  // Nonblocking creations (MPI_Comm_idup) still running on this parent:
  // blocking ones wait for them, so every member sees the same order.
  std::atomic<std::uint32_t> pending{0};
  std::uint64_t next_ticket = 0;          // idups started on this parent
  std::atomic<std::uint64_t> serving{0};  // the idup allowed to run
};

}  // namespace detail

// Fills MPI_COMM_WORLD and MPI_COMM_SELF (MPI_Init).
void init_predefined_comms(MpiState& s, const runtime::WorldInfo& world);

contextid::Arbiter& arbiter();
scratch::BlockPool& block_pool();

// What one split-style round decided for this process.
struct SplitResult {
  bool joined = false;
  std::vector<int> members;  // parent ranks of the new group, in rank order
  contextid::ContextId id = 0;
  std::uint64_t generation = 0;  // of the group's lowest-slot member
  Comm* created = nullptr;       // create_group_round: the new communicator
  std::vector<int> colors;       // every parent member's color and key
  std::vector<int> keys;
};

// One agreement round on `parent` (an intracommunicator with a block):
// every member gives a color (MPI_UNDEFINED: does not join) and a key; the
// members agree on one context ID for all the resulting groups and each
// group gets its lowest-slot member's block. Returns an MPI error class
// (raised by the caller) or MPI_SUCCESS; on error `*why` explains.
int split_round(Comm& parent, int color, int key, std::uint32_t tag,
                SplitResult* out, const char** why);

// A new intracommunicator object for `result` (error handler, name etc.
// are the caller's to set); nullptr when handles run out.
Comm* make_intracomm(const Comm& parent, const SplitResult& result);

// Local teardown: releases the context ID, the block and the reserve.
void destroy_comm(Comm* comm);
// Frees a communicator's NUMA sub-communicators (destroy_comm does it for
// the communicators it frees; MPI_Finalize for the predefined ones, which
// are never freed), so they may be made again.
void destroy_numa_subcomms(Comm& comm);

// MPI_Comm_dup's core for intracommunicators (no attributes copied).
int dup_intracomm(Comm& parent, Comm** out, const char** why);

// The round that refills a parent's reserve of agreed IDs, in two halves so
// that MPI_Comm_idup can run it from the progress engine.
class DupRound {
 public:
  // kWiden: no ID common to every member within the round's reach; the
  // next round should offer the whole mask (contextid/arbiter.hpp).
  enum class Outcome { kDone, kRetry, kWiden, kNoId, kNoMemory };
  // `nonblocking`: run from the progress engine (MPI_Comm_idup), so other
  // creations on this process may start while it waits.
  DupRound(Comm& parent, bool nonblocking, contextid::Arbiter::Reach reach);
  ~DupRound();
  DupRound(const DupRound&) = delete;
  DupRound& operator=(const DupRound&) = delete;
  void start();    // publishes this member's slot
  bool arrived();  // every member has published
  Outcome finish(const char** why);

 private:
  Comm& parent_;
  contextid::Arbiter::Key key_;
  bool leader_;
  bool nonblocking_;
  contextid::Arbiter::Reach reach_;
  int next_member_ = 0;
};
int outcome_class(DupRound::Outcome outcome);
// Takes the parent's next reserved ID (the reserve must not be empty):
// the ID and its generation, or a new communicator over the parent's
// members with them.
detail::Reserved pop_reserve(Comm& parent);
Comm* dup_from_reserve(Comm& parent);
bool reserve_empty(const Comm& parent);
// Finds (or, on its lowest member, makes) a communicator's block. With
// `wait` false returns MPI_ERR_PENDING instead of waiting for the lowest
// member to make it.
int attach_block(Comm& comm, bool wait, const char** why);
// MPI_Intercomm_merge's local half: every member of `local` offers its mask
// (kept owned until settle_merge), a generation number and `high`; the result
// is the AND of the group's masks and what the leaders exchange.
struct GroupOffer {
  std::uint32_t mask[contextid::kMaskWords];
  std::uint32_t all_real;     // every member offered its real mask
  std::uint32_t lent_out;     // some member left out IDs lent elsewhere
  std::uint32_t no_free;      // some member has no free ID at all
  std::int32_t high;          // the group's high argument
  std::uint32_t lowest_slot;  // segment slot of the group's lowest member
  std::uint64_t generation;   // that member's number for the merged block
};
int merge_offer_round(Comm& local, int high, std::uint32_t tag,
                      contextid::Arbiter::Reach reach, GroupOffer* out);
// Ends the allocation merge_offer_round began: commit `id` (0 with
// `ok` false: abandon, or with `retry` try again).
void settle_merge(Comm& local, std::uint32_t tag, bool ok, bool retry,
                  contextid::ContextId id);
// A new intracommunicator over explicit members (merge, and the base of
// make_intracomm and dup); its lowest-slot member names its block.
Comm* make_comm_from(std::vector<std::uint32_t> slots,
                     std::vector<std::int32_t> lpids, int rank,
                     contextid::ContextId id, std::uint64_t generation);

// MPI_Comm_create_group's agreement among the members of `lpids` only (in
// group order; the caller is one of them), on a rendezvous block found in
// the scratch directory. On success out->created is the new communicator.
int create_group_round(Comm& parent, const std::vector<std::int32_t>& lpids,
                       int tag, SplitResult* out, const char** why);
// MPI_Comm_create_from_group's: the same among the members of `lpids`
// (this process is lpids[index]), with no parent, keyed by the group and
// the whole string tag. The new communicator gets `errhandler`.
// `purpose` (part of the key) keeps the library's own uses apart from the
// program's: 0 for MPI_Comm_create_from_group.
int create_from_group_round(const std::vector<std::int32_t>& lpids, int index,
                            std::string_view stringtag,
                            MPI_Errhandler errhandler, SplitResult* out,
                            const char** why, std::uint64_t purpose = 0);

// The NUMA sub-communicators of an intracommunicator (seed 000's
// sub-communicator type field): computed by every member from the rank
// table, no communication. Returns MPI_SUCCESS or an error class.
int make_numa_subcomms(Comm& comm);

// A barrier over an intracommunicator's members: one empty round.
void block_barrier(Comm& comm);
// The communicator operations of comm_api.cpp, by kind of parent. A null
// *out with MPI_SUCCESS means MPI_COMM_NULL.
int split_intracomm(Comm& parent, int color, int key, Comm** out,
                    const char** why);
int dup_intercomm(Comm& parent, Comm** out, const char** why);
int split_intercomm(Comm& parent, int color, int key, Comm** out,
                    const char** why);
// The intercommunicator (and its local communicator) over the local group
// that `local` agreed on in a round of `local_parent`, with the remote
// group `remote_lpids` whose receive context is `remote_context`; nullptr
// when handles run out. undo_local() gives the agreed ID back after a
// failure.
Comm* build_intercomm(const Comm& local_parent, const SplitResult& local,
                      contextid::ContextId remote_context,
                      const std::vector<std::int32_t>& remote_lpids);
void undo_local(const SplitResult& local);
// MPI_Comm_idup and MPI_Comm_idup_with_info (hints: nullptr keeps the
// parent's).
using Hints = std::vector<std::pair<std::string, std::string>>;
int idup_common(Comm* parent, const Hints* hints, MPI_Comm* newcomm,
                MPI_Request* request, const char* function);

// The rest of a dup once the new communicator exists: the parent's error
// handler, the hints (nullptr: the parent's), the attributes' copy
// callbacks; then *newcomm. On a callback error the new communicator is
// destroyed and the error code returned.
int finish_dup(Comm& parent, Comm* fresh, const Hints* hints,
               MPI_Comm* newcomm);

// The same for MPI_Comm_idup, whose copy callbacks ran in the call
// (stage_comm_attributes in mpi/keyval.hpp): attaches the staged copies
// instead of running callbacks, so it may run inside the progress engine.
void finish_staged_dup(Comm& parent, Comm* fresh, const Hints* hints,
                       std::vector<Attribute>& staged, MPI_Comm* newcomm);

// Waits until no nonblocking creation is running on `comm`.
void wait_pending(Comm& comm);

// The end of MPI_Comm_free and MPI_Comm_disconnect, once `c` (found
// through *handle) may go: deletes its attributes, destroys it and sets
// *handle to MPI_COMM_NULL; a failing delete callback is raised on the
// freed communicator's error handler.
int release_comm(Comm* c, MPI_Comm* handle, const char* function);

}  // namespace shmpi::mpi
