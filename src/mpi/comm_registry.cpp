// SPDX-License-Identifier: MIT
// Communicator creation on the parent's scratch block. One round decides
// everything: each member publishes its color and key, its context-ID mask
// (or zeros while another thread's allocation holds the mask, or all ones
// when it does not join) and a generation number; every member then reads
// every slot and computes the same answer: groups, context ID, and each new
// communicator's directory key (its lowest member's slot and generation).
// The new communicator's own block is made only when it first needs one.
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <new>

#include "coll/rounds.hpp"
#include "contextid/context_id.hpp"
#include "mpi/comm.hpp"
#include "mpi/lpid_table.hpp"
#include "scratch/directory.hpp"
#include "segment/layout.hpp"
#include "segment/wake_word.hpp"

namespace shmpi::mpi {

using contextid::ContextId;
using scratch::CommBlock;
using scratch::MemberSlot;
namespace slot_flags = scratch::slot_flags;

namespace {

// Where MPI_COMM_WORLD's block sits: a fixed place in the scratch area, so
// that no rank has to tell the others at start-up.
constexpr std::size_t kWorldBlockInScratch = segment::kScratchFixedBytes;
// Dup batches: IDs agreed per round while IDs are plentiful.
constexpr unsigned kDupBatch = 32;
constexpr unsigned kBatchWhileFree = 512;

// This process's generation numbers: unique for ever, so (slot, context
// ID, generation) never names two communicators.
std::uint64_t take_generations(std::uint64_t count) {
  static std::atomic<std::uint64_t> next{1};
  // Relaxed: only uniqueness matters.
  return next.fetch_add(count, std::memory_order_relaxed);
}

scratch::Directory& directory() {
  static scratch::Directory instance(state().runtime->segment());
  return instance;
}

std::uint64_t comm_key(std::uint32_t leader_slot, ContextId id,
                       std::uint64_t generation) {
  const std::uint64_t words[3] = {leader_slot, contextid::without_suffix(id),
                                  generation};
  return scratch::homed_key(scratch::digest(words, 3), leader_slot);
}

MemberSlot& next_slot(Comm& c) {
  // A collective round may have left members behind that still read our
  // slot of this parity (coll/rounds.hpp); MPI_Comm_idup checks first.
  coll::wait_writable(c);
  return c.shared->block->slot(
      c.shared->slots, static_cast<std::uint32_t>(c.rank), c.shared->round + 1);
}

// After the release store of an event the other members may be asleep
// waiting for: wakes those that are.
void wake_others(const std::vector<std::uint32_t>& slots, std::size_t me) {
  p2p::Engine& engine = *state().engine;
  for (std::size_t m = 0; m < slots.size(); ++m) {
    if (m != me) {
      segment::wake_if_sleeping(engine.control(slots[m]));
    }
  }
}

void publish(Comm& c, MemberSlot& slot) {
  const std::uint64_t round = ++c.shared->round;
  // Release: the slot's contents before its round number.
  slot.round.store(round, std::memory_order_release);
  wake_others(c.slots, static_cast<std::size_t>(c.rank));
}

bool round_arrived(Comm& c, int* next) {
  CommBlock* block = c.shared->block;
  const std::uint64_t round = c.shared->round;
  // Acquire: pairs with the member's release in publish().
  while (*next < c.size &&
         block->slot(c.shared->slots, static_cast<std::uint32_t>(*next), round)
                 .round.load(std::memory_order_acquire) >= round) {
    ++*next;
  }
  if (*next == c.size) {
    c.shared->all_seen = round;
    return true;
  }
  return false;
}

void wait_round(Comm& c) {
  int next = 0;
  state().engine->wait_until([&] { return round_arrived(c, &next); });
}

std::uint32_t lowest_slot_rank(const std::vector<std::uint32_t>& slots,
                               const std::vector<int>& members) {
  std::uint32_t best = 0;
  for (std::size_t i = 1; i < members.size(); ++i) {
    if (slots[static_cast<std::size_t>(members[i])] <
        slots[static_cast<std::size_t>(members[best])]) {
      best = static_cast<std::uint32_t>(i);
    }
  }
  return best;
}

detail::CommShared* new_shared(std::uint32_t leader, std::uint64_t generation) {
  auto* shared = new (std::nothrow) detail::CommShared();
  if (shared != nullptr) {
    shared->leader = leader;
    shared->generation = generation;
  }
  return shared;
}

contextid::Arbiter::Key arbiter_key(const Comm& parent, std::uint32_t tag) {
  return std::uint64_t{parent.recv_context_id} << 32 | tag;
}

// Why a round found no common ID, from what every member published.
const char* no_id_reason(Comm& c) {
  for (int m = 0; m < c.size; ++m) {
    const MemberSlot& s = c.shared->block->slot(
        c.shared->slots, static_cast<std::uint32_t>(m), c.shared->round);
    if ((s.flags & slot_flags::kJoins) != 0 && s.free_ids == 0) {
      return "too many communicators: a member process has no free context "
             "ID left (2045 in use); free some communicators";
    }
  }
  return "no context ID is free on every member process (the free IDs of "
         "the members are disjoint); free communicators shared by these "
         "processes";
}

}  // namespace

contextid::Arbiter& arbiter() {
  static contextid::Arbiter instance;
  return instance;
}

scratch::BlockPool& block_pool() {
  static scratch::BlockPool pool(state().runtime->segment());
  return pool;
}

int attach_block(Comm& c, bool wait, const char** why) {
  detail::CommShared& shared = *c.shared;
  if (shared.block != nullptr) {
    return MPI_SUCCESS;
  }
  const std::uint32_t leader_slot = c.slots[shared.leader];
  const std::uint64_t key =
      comm_key(leader_slot, c.recv_context_id, shared.generation);
  CommBlock* block = nullptr;
  if (c.rank == static_cast<int>(shared.leader)) {
    block = block_pool().acquire(static_cast<std::uint32_t>(c.size),
                                 static_cast<std::uint32_t>(c.size));
    if (block == nullptr) {
      *why = "the shared heap has no room for another communicator block";
      return MPI_ERR_NO_MEM;
    }
    block->header.key = key;
    if (!directory().insert(key, block_pool().offset_of(block))) {
      block->header.references.store(1, std::memory_order_relaxed);
      block_pool().release(block);
      *why =
          "the scratch directory is full (too many communicators with "
          "collective activity in the job)";
      return MPI_ERR_NO_MEM;
    }
    // The members may be asleep in the wait below.
    wake_others(c.slots, static_cast<std::size_t>(c.rank));
  } else {
    std::uint64_t offset = directory().find(key);
    if (offset == 0 && !wait) {
      return MPI_ERR_PENDING;
    }
    if (offset == 0) {
      state().engine->wait_until([&] {
        offset = directory().find(key);
        return offset != 0;
      });
    }
    block = block_pool().at(offset);
  }
  shared.use_block(block, block->header.capacity);
  shared.key = key;
  // Relaxed: the offset came through the directory (acquire), after the
  // pop that handed the block out saw its last user's store.
  shared.round = block->header.base_round.load(std::memory_order_relaxed);
  shared.all_seen = shared.round;  // older slots are nobody's to read
  return MPI_SUCCESS;
}

namespace {

// Drops this member's hold on a communicator's block; the last member
// removes the directory entry and recycles the block.
void detach_block(detail::CommShared& shared) {
  CommBlock* block = shared.block;
  if (block == nullptr || shared.key == 0) {
    return;  // never attached, or the world's fixed block
  }
  if (block_pool().drop(block)) {
    // The next communicator on this block counts rounds from here. Only
    // the last member writes it: a member may attach only after the others
    // have run every round and left (nothing in a broadcast waits for a
    // reader), and it takes base_round as this communicator's first round.
    // Every member ends on the same round. Relaxed: recycle() publishes
    // the block with a release.
    block->header.base_round.store(shared.round, std::memory_order_relaxed);
    directory().remove(shared.key);
    block_pool().recycle(block);
  }
  shared.block = nullptr;
}

// The world block and MPI_COMM_SELF are attached before use, by init.
int attach_or_fail(Comm& c, const char** why) {
  return attach_block(c, true, why);
}

}  // namespace

void init_predefined_comms(MpiState& s, const runtime::WorldInfo& world) {
  using contextid::collective;
  using contextid::from_mask_index;
  Comm& w = s.world;
  w.context_id = w.recv_context_id = from_mask_index(0);  // mask bit 0
  w.coll_context_id = w.coll_recv_context_id = collective(w.context_id);
  w.rank = static_cast<int>(world.rank);
  w.size = w.remote_size = static_cast<int>(world.size);
  w.slots.resize(world.size);
  w.lpids.resize(world.size);
  for (std::uint32_t r = 0; r < world.size; ++r) {
    w.slots[r] = world.base_slot() + r;  // the first world: slots 0..size-1
    w.lpids[r] = static_cast<std::int32_t>(r);  // lpid = world rank (seed 002)
  }
  w.predefined = true;
  w.name = "MPI_COMM_WORLD";
  w.handle = MPI_COMM_WORLD;
  const segment::Segment& segment = s.runtime->segment();
  static_assert(kWorldBlockInScratch >=
                scratch::kPoolHeadsInScratch + sizeof(scratch::PoolHeads));
  // The world block lives in the scratch area's per-rank room (layout.cpp:
  // a line plus at least segment::kScratchRoomPerRank).
  static_assert(CommBlock::bytes_for(1) <= kFalseSharingRange +
                                               kFalseSharingRange +
                                               segment::kScratchRoomPerRank);
  // The segment starts zeroed, so every round word is 0; the block is never
  // freed (key 0: not in the directory).
  w.shared = new detail::CommShared();
  // Room for the world's ranks: spare slots (spawn) never join this world.
  // A spawned world's block comes from the spawning root (mpi/spawn_api.cpp).
  if (world.world_block != 0) {
    CommBlock* block = block_pool().at(world.world_block);
    w.shared->use_block(block, block->header.capacity);
    // The pool may have handed the root a block an earlier communicator
    // used: its slots hold round words up to base_round, so this world
    // counts on from there, as attach_block does. Relaxed: the root took
    // the block from the pool (acquire) before it published the spawn
    // request, which reached us through the launcher's release.
    w.shared->round = block->header.base_round.load(std::memory_order_relaxed);
    w.shared->all_seen = w.shared->round;
  } else {
    w.shared->use_block(segment.at<CommBlock>(segment.layout().scratch_offset +
                                              kWorldBlockInScratch),
                        world.size);
  }
  w.shared->leader = 0;

  Comm& self = s.self;
  self.context_id = self.recv_context_id = from_mask_index(1);  // mask bit 1
  self.coll_context_id = self.coll_recv_context_id =
      collective(self.context_id);
  self.rank = 0;
  self.size = self.remote_size = 1;
  self.slots = {world.slot};
  self.lpids = {static_cast<std::int32_t>(world.rank)};
  self.predefined = true;
  self.name = "MPI_COMM_SELF";
  self.handle = MPI_COMM_SELF;
  self.shared = new detail::CommShared();
  self.shared->generation = take_generations(1);
  // Mask bit 2 stays reserved, as the seeds reserve it for the third
  // predefined communicator (MPICH's internal ICOMM_WORLD).
  arbiter().set_thread_safe(s.thread_multiple);
}

namespace {

// Offers this process's mask to allocation `key` in `slot` and flags what
// went there (kRealMask, kLentOut; contextid/arbiter.hpp).
void offer_into(MemberSlot& slot, contextid::Arbiter::Key key, bool nonblocking,
                contextid::Arbiter::Reach reach) {
  const contextid::Arbiter::Offered offered =
      arbiter().offer(key,
                      std::span<std::uint32_t, contextid::kMaskWords>(
                          slot.mask, contextid::kMaskWords),
                      nonblocking, reach);
  slot.flags &= ~(slot_flags::kRealMask | slot_flags::kLentOut);
  slot.flags |= (offered.real ? slot_flags::kRealMask : 0u) |
                (offered.lent_out ? slot_flags::kLentOut : 0u);
}

}  // namespace

int split_round(Comm& parent, int color, int key, std::uint32_t tag,
                SplitResult* out, const char** why) {
  wait_pending(parent);
  if (int rc = attach_or_fail(parent, why); rc != MPI_SUCCESS) {
    return rc;
  }
  // A split on a communicator (tag 0) with agreed IDs in reserve takes the
  // next one, like MPI_Comm_dup: every member takes the same ID, members
  // that do not join give it back, and the round carries no mask. Without
  // a reserve the round agrees on masks, members that do not join offering
  // all ones; when everybody joins it agrees on a batch and keeps the rest
  // in reserve. Rendezvous rounds (create_group) always agree on masks.
  const bool from_reserve = tag == 0 && !reserve_empty(parent);
  const bool joins = color != MPI_UNDEFINED;
  const bool parent_leader =
      parent.rank == static_cast<int>(parent.shared->leader);
  const contextid::Arbiter::Key akey = arbiter_key(parent, tag);
  contextid::Arbiter& ids = arbiter();
  // The generation this member would give a group it ends up leading.
  const std::uint64_t generation = joins ? take_generations(1) : 0;
  // Blocking rounds' part of the mask, then all of it (arbiter.hpp).
  contextid::Arbiter::Reach reach = contextid::Arbiter::Reach::kBlocking;
  for (;;) {
    MemberSlot& mine = next_slot(parent);
    mine.color = joins ? color : -1;
    mine.key = key;
    mine.flags = slot_flags::kRealMask | (joins ? slot_flags::kJoins : 0u);
    mine.free_ids =
        joins && !from_reserve ? ids.free_count() : contextid::kMaskBits;
    mine.want_ids =
        tag == 0 && joins && !from_reserve && mine.free_ids >= kBatchWhileFree
            ? kDupBatch
            : 1;
    mine.value[0] = generation;
    // Generations for IDs that go to the reserve (the parent's leader's).
    mine.value[1] = tag == 0 && !from_reserve && parent_leader
                        ? take_generations(kDupBatch)
                        : 0;
    if (from_reserve) {
      // No mask: the ID comes from the reserve.
    } else if (joins) {
      offer_into(mine, akey, false, reach);
    } else {
      std::fill(std::begin(mine.mask), std::end(mine.mask), 0xffffffffu);
    }
    publish(parent, mine);
    wait_round(parent);

    const std::uint64_t round = parent.shared->round;
    CommBlock* block = parent.shared->block;
    auto slot_of = [&](int m) -> MemberSlot& {
      return block->slot(parent.shared->slots, static_cast<std::uint32_t>(m),
                         round);
    };
    bool all_real = true;
    bool any_joins = false;
    bool any_lent_out = false;
    std::vector<const std::uint32_t*> masks;
    masks.reserve(static_cast<std::size_t>(parent.size));
    for (int m = 0; m < parent.size; ++m) {
      const MemberSlot& s = slot_of(m);
      all_real = all_real && (s.flags & slot_flags::kRealMask) != 0;
      any_joins = any_joins || (s.flags & slot_flags::kJoins) != 0;
      any_lent_out = any_lent_out || (s.flags & slot_flags::kLentOut) != 0;
      masks.push_back(s.mask);
    }
    ContextId reserved_id = 0;
    if (from_reserve) {
      reserved_id = pop_reserve(parent).id;
      if (!joins) {
        ids.release(reserved_id);
      }
    }
    if (!any_joins) {
      // Nobody joins: no ID, but callers still see every color (all
      // MPI_UNDEFINED), e.g. an intercommunicator split's leader.
      *out = SplitResult{};
      out->colors.assign(static_cast<std::size_t>(parent.size), MPI_UNDEFINED);
      out->keys.assign(static_cast<std::size_t>(parent.size), 0);
      for (int m = 0; m < parent.size; ++m) {
        out->keys[static_cast<std::size_t>(m)] = slot_of(m).key;
      }
      return MPI_SUCCESS;
    }
    if (!from_reserve && !all_real) {
      // Another allocation on some member holds its mask: try again.
      if (joins) {
        ids.retry(akey);
      }
      ::sched_yield();
      continue;
    }
    unsigned want = kDupBatch;
    for (int m = 0; m < parent.size; ++m) {
      want = std::min(want, slot_of(m).want_ids);
    }
    std::vector<ContextId> agreed = from_reserve
                                        ? std::vector<ContextId>{reserved_id}
                                        : contextid::agree(masks, want);
    if (agreed.empty() &&
        (any_lent_out || reach != contextid::Arbiter::Reach::kAll)) {
      // Some member's free IDs are lent to its other rounds (an idup's):
      // try again once they are back. Or nothing common in the blocking
      // rounds' part: try the whole mask.
      if (joins) {
        ids.retry(akey);
      }
      if (!any_lent_out) {
        reach = contextid::Arbiter::Reach::kAll;
      }
      ::sched_yield();
      continue;
    }
    if (agreed.empty()) {
      if (joins) {
        ids.abandon(akey);
      }
      *why = no_id_reason(parent);
      return MPI_ERR_OTHER;
    }
    if (joins && !from_reserve) {
      ids.commit(akey, agreed);
    }
    // More than one ID only when every member joined and asked for a
    // batch: the rest wait in the reserve, allocated on every member.
    const std::uint64_t first_generation =
        slot_of(static_cast<int>(parent.shared->leader)).value[1];
    for (std::size_t i = 1; i < agreed.size(); ++i) {
      parent.shared->reserve.push_back(
          detail::Reserved{agreed[i], first_generation + i - 1});
    }
    SplitResult result;
    result.joined = joins;
    result.id = agreed[0];
    result.colors.resize(static_cast<std::size_t>(parent.size));
    result.keys.resize(static_cast<std::size_t>(parent.size));
    for (int m = 0; m < parent.size; ++m) {
      result.colors[static_cast<std::size_t>(m)] =
          slot_of(m).color < 0 ? MPI_UNDEFINED : slot_of(m).color;
      result.keys[static_cast<std::size_t>(m)] = slot_of(m).key;
    }
    if (joins) {
      // My group in (key, parent rank) order; its lowest-slot member's
      // generation names its block.
      for (int m = 0; m < parent.size; ++m) {
        if (slot_of(m).color == color) {
          result.members.push_back(m);
        }
      }
      std::stable_sort(
          result.members.begin(), result.members.end(),
          [&](int a, int b) { return slot_of(a).key < slot_of(b).key; });
      const int leader =
          result.members[lowest_slot_rank(parent.slots, result.members)];
      result.generation = slot_of(leader).value[0];
    }
    *out = std::move(result);
    return MPI_SUCCESS;
  }
}

Comm* make_comm_from(std::vector<std::uint32_t> slots,
                     std::vector<std::int32_t> lpids, int rank, ContextId id,
                     std::uint64_t generation) {
  Comm* c = state().comms.create();
  if (c == nullptr) {
    return nullptr;
  }
  const auto leader = static_cast<std::uint32_t>(
      std::min_element(slots.begin(), slots.end()) - slots.begin());
  c->shared = new_shared(leader, generation);
  if (c->shared == nullptr) {
    state().comms.destroy(c);
    return nullptr;
  }
  c->context_id = c->recv_context_id = id;
  c->coll_context_id = c->coll_recv_context_id = contextid::collective(id);
  c->size = c->remote_size = static_cast<int>(slots.size());
  c->rank = rank;
  c->slots = std::move(slots);
  c->lpids = std::move(lpids);
  c->handle = reinterpret_cast<MPI_Comm>(c);  // NOLINT: handles are pointers
  return c;
}

Comm* make_intracomm(const Comm& parent, const SplitResult& result) {
  std::vector<std::uint32_t> slots(result.members.size());
  std::vector<std::int32_t> lpids(result.members.size());
  int rank = 0;
  for (std::size_t i = 0; i < result.members.size(); ++i) {
    const auto p = static_cast<std::size_t>(result.members[i]);
    slots[i] = parent.slots[p];
    lpids[i] = parent.lpids[p];
    if (result.members[i] == parent.rank) {
      rank = static_cast<int>(i);
    }
  }
  Comm* c = make_comm_from(std::move(slots), std::move(lpids), rank, result.id,
                           result.generation);
  if (c != nullptr) {
    c->errhandler = parent.errhandler;
  }
  return c;
}

int merge_offer_round(Comm& local, int high, std::uint32_t tag,
                      contextid::Arbiter::Reach reach, GroupOffer* out) {
  wait_pending(local);
  const char* why = "";
  if (int rc = attach_or_fail(local, &why); rc != MPI_SUCCESS) {
    return rc;
  }
  const contextid::Arbiter::Key akey = arbiter_key(local, tag);
  contextid::Arbiter& ids = arbiter();
  MemberSlot& mine = next_slot(local);
  mine.flags = slot_flags::kJoins;
  mine.free_ids = ids.free_count();
  offer_into(mine, akey, false, reach);
  mine.value[0] = take_generations(1);
  mine.color = high;
  publish(local, mine);
  wait_round(local);
  const std::uint64_t round = local.shared->round;
  std::fill(std::begin(out->mask), std::end(out->mask), 0xffffffffu);
  out->all_real = 1;
  out->lent_out = 0;
  out->no_free = 0;
  out->high = 0;
  int lowest = 0;
  for (int m = 0; m < local.size; ++m) {
    const MemberSlot& s = local.shared->block->slot(
        local.shared->slots, static_cast<std::uint32_t>(m), round);
    for (unsigned w = 0; w < contextid::kMaskWords; ++w) {
      out->mask[w] &= s.mask[w];
    }
    out->all_real &= (s.flags & slot_flags::kRealMask) != 0 ? 1u : 0u;
    out->lent_out |= (s.flags & slot_flags::kLentOut) != 0 ? 1u : 0u;
    out->no_free |= s.free_ids == 0 ? 1u : 0u;
    out->high |= s.color != 0 ? 1 : 0;
    if (local.slots[static_cast<std::size_t>(m)] <
        local.slots[static_cast<std::size_t>(lowest)]) {
      lowest = m;
    }
  }
  out->lowest_slot = local.slots[static_cast<std::size_t>(lowest)];
  out->generation =
      local.shared->block
          ->slot(local.shared->slots, static_cast<std::uint32_t>(lowest), round)
          .value[0];
  return MPI_SUCCESS;
}

void settle_merge(Comm& local, std::uint32_t tag, bool ok, bool retry,
                  ContextId id) {
  const contextid::Arbiter::Key akey = arbiter_key(local, tag);
  if (ok) {
    const ContextId one[1] = {id};
    arbiter().commit(akey, one);
  } else if (retry) {
    arbiter().retry(akey);
  } else {
    arbiter().abandon(akey);
  }
}

namespace {

// The agreement among the members of `lpids` (in group order; this process
// is lpids[index]) on a rendezvous block found in the scratch directory
// under a digest of `words` and the number of earlier calls with the same
// words (the same count on every member, since a group's members make such
// calls in the same order). The round's arbiter key is (arbiter_context,
// arbiter_tag). On success out->created is the new communicator, with
// `errhandler`.
int rendezvous_round(const std::vector<std::int32_t>& lpids, int index,
                     std::vector<std::uint64_t> words,
                     std::uint16_t arbiter_context, std::uint32_t arbiter_tag,
                     MPI_Errhandler errhandler, SplitResult* out,
                     const char** why) {
  static scratch::Directory directory(state().runtime->segment());
  static std::map<std::uint64_t, std::uint64_t> generations;
  static std::mutex generations_mutex;
  const std::vector<std::uint32_t> slots = slots_of(lpids);
  const auto leader = static_cast<std::uint32_t>(
      std::min_element(slots.begin(), slots.end()) - slots.begin());
  words.push_back(slots[leader]);
  words.push_back(slots.size());
  words.insert(words.end(), slots.begin(), slots.end());
  const std::uint64_t base = scratch::digest(words.data(), words.size());
  std::uint64_t generation;
  {
    std::lock_guard<std::mutex> guard(generations_mutex);
    generation = generations[base]++;
  }
  const std::uint64_t pair[2] = {base, generation};
  const std::uint64_t key =
      scratch::homed_key(scratch::digest(pair, 2), slots[leader]);
  CommBlock* block = nullptr;
  if (index == static_cast<int>(leader)) {
    block = block_pool().acquire(static_cast<std::uint32_t>(lpids.size()),
                                 static_cast<std::uint32_t>(lpids.size()));
    if (block == nullptr) {
      *why = "the shared heap has no room for another communicator block";
      return MPI_ERR_NO_MEM;
    }
    block->header.key = key;
    if (!directory.insert(key, block_pool().offset_of(block))) {
      *why = "too many group-wise communicator creations in flight at once";
      return MPI_ERR_NO_MEM;
    }
    wake_others(slots, static_cast<std::size_t>(index));  // as in attach_block
  } else {
    std::uint64_t offset = 0;
    state().engine->wait_until([&] {
      offset = directory.find(key);
      return offset != 0;
    });
    block = block_pool().at(offset);
  }
  Comm group;
  group.rank = index;
  group.size = group.remote_size = static_cast<int>(lpids.size());
  group.slots = slots;
  group.lpids = lpids;
  group.recv_context_id = group.context_id = arbiter_context;
  group.errhandler = errhandler;
  detail::CommShared shared;
  shared.use_block(block, block->header.capacity);
  shared.leader = leader;
  shared.round = block->header.base_round.load(std::memory_order_relaxed);
  shared.all_seen = shared.round;  // older slots are nobody's to read
  group.shared = &shared;
  int rc = split_round(group, 0, index, arbiter_tag, out, why);
  if (rc == MPI_SUCCESS && out->joined) {
    Comm* c = make_intracomm(group, *out);
    if (c == nullptr) {
      rc = MPI_ERR_NO_MEM;
      *why = "out of communicator handles";
    } else {
      out->created = c;
    }
  }
  group.shared = nullptr;
  if (block_pool().drop(block)) {
    // As in detach_block(): only the last member, since a late one takes
    // base_round as the round to start from.
    block->header.base_round.store(shared.round, std::memory_order_relaxed);
    directory.remove(key);
    block_pool().recycle(block);
  }
  return rc;
}

// Words that tell the key digests of the two kinds of rendezvous apart.
constexpr std::uint64_t kCreateGroupWord = 0x43724772;  // "CrGr"
constexpr std::uint64_t kFromGroupWord = 0x46724772;    // "FrGr"
// The arbiter context of MPI_Comm_create_from_group's rounds: they have no
// parent, and no communicator's receive context has Z = 1, so this one is
// nobody's.
constexpr std::uint16_t kFromGroupContext = 0xffff;

}  // namespace

int create_group_round(Comm& parent, const std::vector<std::int32_t>& lpids,
                       int tag, SplitResult* out, const char** why) {
  const std::int32_t me = parent.lpids[static_cast<std::size_t>(parent.rank)];
  const auto index = static_cast<int>(
      std::find(lpids.begin(), lpids.end(), me) - lpids.begin());
  // The key: who, on which parent, with which tag, and how many times
  // before.
  return rendezvous_round(lpids, index,
                          {kCreateGroupWord, parent.recv_context_id,
                           static_cast<std::uint64_t>(tag)},
                          parent.recv_context_id,
                          0x80000000u | static_cast<std::uint32_t>(tag),
                          parent.errhandler, out, why);
}

int create_from_group_round(const std::vector<std::int32_t>& lpids, int index,
                            std::string_view stringtag,
                            MPI_Errhandler errhandler, SplitResult* out,
                            const char** why, std::uint64_t purpose) {
  // The whole string goes into the digest, eight bytes a word, after its
  // length, not a hash of it made beforehand. Two creations in flight at
  // once (different groups or tags) still meet on one block if the 50 high
  // bits of their digests, which homed_key() keeps, coincide (about 2^-50
  // per pair); the directory cannot detect that.
  std::vector<std::uint64_t> words = {kFromGroupWord, purpose,
                                      stringtag.size()};
  for (std::size_t i = 0; i < stringtag.size(); i += 8) {
    std::uint64_t word = 0;
    for (std::size_t b = 0; b < 8 && i + b < stringtag.size(); ++b) {
      word |= std::uint64_t{static_cast<unsigned char>(stringtag[i + b])}
              << (8 * b);
    }
    words.push_back(word);
  }
  // The arbiter key only orders this process's pending allocations; 31
  // bits of the digest, the same on every member.
  const std::uint64_t tag_digest = scratch::digest(words.data(), words.size());
  return rendezvous_round(
      lpids, index, std::move(words), kFromGroupContext,
      0x80000000u | static_cast<std::uint32_t>(tag_digest >> 33), errhandler,
      out, why);
}

int make_numa_subcomms(Comm& comm) {
  if (comm.subcomms_made) {
    return MPI_SUCCESS;
  }
  const segment::Segment& segment = state().runtime->segment();
  auto node_of = [&](int rank) {
    const std::int32_t node =
        segment.rank_info(comm.slots[static_cast<std::size_t>(rank)]).numa_node;
    return node < 0 ? 0 : node;
  };
  const int my_node = node_of(comm.rank);
  std::vector<int> same_node;
  std::vector<int> leaders;  // lowest slot of each node, in rank order
  for (int r = 0; r < comm.size; ++r) {
    if (node_of(r) == my_node) {
      same_node.push_back(r);
    }
    bool lowest = true;
    for (int o = 0; o < comm.size && lowest; ++o) {
      lowest = !(node_of(o) == node_of(r) &&
                 comm.slots[static_cast<std::size_t>(o)] <
                     comm.slots[static_cast<std::size_t>(r)]);
    }
    if (lowest) {
      leaders.push_back(r);
    }
  }
  const std::uint64_t generation =
      comm.shared != nullptr ? comm.shared->generation : 0;
  auto build = [&](const std::vector<int>& members,
                   contextid::SubComm type) -> Comm* {
    SplitResult r;
    r.joined = true;
    r.members = members;
    r.id = contextid::with_subcomm(comm.recv_context_id, type);
    r.generation = generation;
    return make_intracomm(comm, r);
  };
  comm.numa_leaders = leaders;
  comm.numa_node_of.assign(static_cast<std::size_t>(comm.size), 0);
  for (int r = 0; r < comm.size; ++r) {
    for (std::size_t k = 0; k < leaders.size(); ++k) {
      if (node_of(leaders[k]) == node_of(r)) {
        comm.numa_node_of[static_cast<std::size_t>(r)] = static_cast<int>(k);
      }
    }
  }
  comm.intranode = build(same_node, contextid::SubComm::kIntranode);
  if (comm.intranode == nullptr) {
    return MPI_ERR_NO_MEM;
  }
  if (std::find(leaders.begin(), leaders.end(), comm.rank) != leaders.end()) {
    comm.internode = build(leaders, contextid::SubComm::kInternode);
    if (comm.internode == nullptr) {
      return MPI_ERR_NO_MEM;
    }
  }
  comm.subcomms_made = true;
  return MPI_SUCCESS;
}

void block_barrier(Comm& comm) {
  wait_pending(comm);
  const char* why = "";
  if (attach_or_fail(comm, &why) != MPI_SUCCESS) {
    // No block for a barrier: fall back to the world's abort path.
    fail(&comm, MPI_ERR_NO_MEM, "MPI_Barrier", "%s", why);
    return;
  }
  MemberSlot& mine = next_slot(comm);
  publish(comm, mine);
  wait_round(comm);
}

// A dup batch: one round in which every member offers its mask and the
// leader a run of generation numbers; the agreed IDs go to the parent's
// reserve. Split in start() and finish() so that MPI_Comm_idup can run it
// from progress().
DupRound::DupRound(Comm& parent, bool nonblocking,
                   contextid::Arbiter::Reach reach)
    : parent_(parent),
      key_(arbiter_key(parent, 0)),
      leader_(parent.rank == static_cast<int>(parent.shared->leader)),
      nonblocking_(nonblocking),
      reach_(reach) {}

DupRound::~DupRound() = default;

void DupRound::start() {
  contextid::Arbiter& ids = arbiter();
  MemberSlot& mine = next_slot(parent_);
  mine.color = 0;
  mine.key = 0;
  mine.flags = slot_flags::kJoins;
  mine.free_ids = ids.free_count();
  mine.want_ids = mine.free_ids >= kBatchWhileFree ? kDupBatch : 1;
  offer_into(mine, key_, nonblocking_, reach_);
  mine.value[0] = leader_ ? take_generations(kDupBatch) : 0;
  publish(parent_, mine);
  next_member_ = 0;
}

bool DupRound::arrived() { return round_arrived(parent_, &next_member_); }

DupRound::Outcome DupRound::finish(const char** why) {
  contextid::Arbiter& ids = arbiter();
  const std::uint64_t round = parent_.shared->round;
  CommBlock* block = parent_.shared->block;
  bool all_real = true;
  bool any_lent_out = false;
  unsigned want = kDupBatch;
  std::vector<const std::uint32_t*> masks;
  masks.reserve(static_cast<std::size_t>(parent_.size));
  for (int m = 0; m < parent_.size; ++m) {
    const MemberSlot& s = block->slot(parent_.shared->slots,
                                      static_cast<std::uint32_t>(m), round);
    all_real = all_real && (s.flags & slot_flags::kRealMask) != 0;
    any_lent_out = any_lent_out || (s.flags & slot_flags::kLentOut) != 0;
    want = std::min(want, s.want_ids);
    masks.push_back(s.mask);
  }
  const MemberSlot& lead =
      block->slot(parent_.shared->slots, parent_.shared->leader, round);
  if (!all_real) {
    ids.retry(key_);
    return Outcome::kRetry;
  }
  std::vector<ContextId> agreed = contextid::agree(masks, want);
  if (agreed.empty() && any_lent_out) {
    ids.retry(key_);  // free IDs are lent to other rounds: once more
    return Outcome::kRetry;
  }
  if (agreed.empty() && reach_ != contextid::Arbiter::Reach::kAll) {
    ids.retry(key_);  // nothing common within reach: the whole mask next
    return Outcome::kWiden;
  }
  if (agreed.empty()) {
    ids.abandon(key_);
    *why = no_id_reason(parent_);
    return Outcome::kNoId;
  }
  ids.commit(key_, agreed);
  for (std::size_t i = 0; i < agreed.size(); ++i) {
    parent_.shared->reserve.push_back(
        detail::Reserved{agreed[i], lead.value[0] + i});
  }
  return Outcome::kDone;
}

int outcome_class(DupRound::Outcome outcome) {
  switch (outcome) {
    case DupRound::Outcome::kDone:
      return MPI_SUCCESS;
    case DupRound::Outcome::kNoMemory:
      return MPI_ERR_NO_MEM;
    default:
      return MPI_ERR_OTHER;
  }
}

detail::Reserved pop_reserve(Comm& parent) {
  detail::CommShared& shared = *parent.shared;
  const detail::Reserved next = shared.reserve[shared.reserve_head++];
  if (shared.reserve_head == shared.reserve.size()) {
    shared.reserve.clear();
    shared.reserve_head = 0;
  }
  return next;
}

Comm* dup_from_reserve(Comm& parent) {
  const detail::Reserved next = pop_reserve(parent);
  Comm* c = make_comm_from(parent.slots, parent.lpids, parent.rank, next.id,
                           next.generation);
  if (c == nullptr) {
    arbiter().release(next.id);
    return nullptr;
  }
  c->errhandler = parent.errhandler;
  return c;
}

bool reserve_empty(const Comm& parent) {
  return parent.shared->reserve_head == parent.shared->reserve.size();
}

namespace {

// Runs dup rounds until the parent's reserve has an agreed ID.
int refill_reserve(Comm& parent, const char** why) {
  // Blocking rounds' part of the mask, then all of it (arbiter.hpp).
  contextid::Arbiter::Reach reach = contextid::Arbiter::Reach::kBlocking;
  while (reserve_empty(parent)) {
    if (int rc = attach_or_fail(parent, why); rc != MPI_SUCCESS) {
      return rc;
    }
    DupRound round(parent, false, reach);
    round.start();
    state().engine->wait_until([&] { return round.arrived(); });
    const DupRound::Outcome outcome = round.finish(why);
    if (outcome == DupRound::Outcome::kRetry ||
        outcome == DupRound::Outcome::kWiden) {
      if (outcome == DupRound::Outcome::kWiden) {
        reach = contextid::Arbiter::Reach::kAll;
      }
      ::sched_yield();
      continue;
    }
    if (outcome != DupRound::Outcome::kDone) {
      return outcome_class(outcome);
    }
  }
  return MPI_SUCCESS;
}

}  // namespace

int dup_intracomm(Comm& parent, Comm** out, const char** why) {
  wait_pending(parent);
  if (int rc = refill_reserve(parent, why); rc != MPI_SUCCESS) {
    return rc;
  }
  Comm* c = dup_from_reserve(parent);
  if (c == nullptr) {
    *why = "out of communicator handles";
    return MPI_ERR_NO_MEM;
  }
  *out = c;
  return MPI_SUCCESS;
}

int split_intracomm(Comm& parent, int color, int key, Comm** out,
                    const char** why) {
  SplitResult result;
  if (int rc = split_round(parent, color, key, 0, &result, why);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (!result.joined) {
    *out = nullptr;
    return MPI_SUCCESS;
  }
  Comm* c = make_intracomm(parent, result);
  if (c == nullptr || c->shared == nullptr) {
    *why = "out of communicator handles";
    return MPI_ERR_NO_MEM;
  }
  *out = c;
  return MPI_SUCCESS;
}

void wait_pending(Comm& intra_or_inter) {
  // An intercommunicator's nonblocking collectives queue on its local
  // group (mpi/coll_inter.hpp).
  Comm& comm = intra_or_inter.is_inter && intra_or_inter.local_comm != nullptr
                   ? *intra_or_inter.local_comm
                   : intra_or_inter;
  if (comm.shared != nullptr &&
      comm.shared->pending.load(std::memory_order_acquire) != 0) {
    state().engine->wait_until([&] {
      return comm.shared->pending.load(std::memory_order_acquire) == 0;
    });
  }
}

void destroy_comm(Comm* comm) {
  if (comm->shared != nullptr) {
    detail::CommShared& shared = *comm->shared;
    for (std::size_t i = shared.reserve_head; i < shared.reserve.size(); ++i) {
      arbiter().release(shared.reserve[i].id);
    }
    detach_block(shared);
    delete comm->shared;
    comm->shared = nullptr;
  }
  // Intercommunicators free their receive context only (seed 000); on an
  // intracommunicator both are the same ID.
  arbiter().release(comm->recv_context_id);
  // Derived IDs (L and YY fields) release nothing.
  if (comm->local_comm != nullptr) {
    destroy_comm(comm->local_comm);
    comm->local_comm = nullptr;
  }
  destroy_numa_subcomms(*comm);
  state().comms.destroy(comm);
}

void destroy_numa_subcomms(Comm& comm) {
  for (Comm** sub : {&comm.intranode, &comm.internode}) {
    if (*sub != nullptr) {
      destroy_comm(*sub);
      *sub = nullptr;
    }
  }
  comm.subcomms_made = false;
}

}  // namespace shmpi::mpi
