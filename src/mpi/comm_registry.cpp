// SPDX-License-Identifier: MIT
// Communicator creation on the parent's scratch block. One round decides
// everything: each member publishes its color and key, its context-ID mask
// (or zeros while another thread's allocation holds the mask, or all ones
// when it does not join) and a spare block it offers; every member then
// reads every slot and computes the same answer.
#include <sched.h>

#include <algorithm>
#include <array>
#include <map>
#include <new>

#include "contextid/context_id.hpp"
#include "mpi/comm.hpp"
#include "mpi/lpid_glue.hpp"
#include "scratch/directory.hpp"
#include "segment/wake_word.hpp"

namespace shmpi::mpi {

using contextid::ContextId;
using scratch::CommBlock;
using scratch::MemberSlot;
namespace slot_flags = scratch::slot_flags;

namespace {

// Where MPI_COMM_WORLD's block sits: a fixed place in the scratch area, so
// that no rank has to tell the others at start-up.
constexpr std::size_t kWorldBlockInScratch = 2 * kPageSize;
// Dup batches: IDs agreed per round while IDs are plentiful.
constexpr unsigned kDupBatch = scratch::kOffers;
constexpr unsigned kBatchWhileFree = 512;

// One spare block per size class: offered in rounds, consumed when this
// process leads a new group.
std::array<CommBlock*, scratch::kSizeClasses>& spares() {
  static std::array<CommBlock*, scratch::kSizeClasses> blocks{};
  return blocks;
}
std::mutex& spares_mutex() {
  static std::mutex mutex;
  return mutex;
}

CommBlock* take_spare(std::uint32_t members) {
  const unsigned cls = scratch::BlockPool::size_class(members);
  if (cls >= scratch::kSizeClasses) {
    return nullptr;
  }
  {
    std::lock_guard<std::mutex> guard(spares_mutex());
    if (CommBlock* spare = std::exchange(spares()[cls], nullptr)) {
      return spare;
    }
  }
  return block_pool().acquire(2u << cls, 1);
}

void keep_spare(CommBlock* block) {
  std::lock_guard<std::mutex> guard(spares_mutex());
  CommBlock*& slot = spares()[block->header.size_class];
  if (slot == nullptr) {
    slot = block;
    return;
  }
  block->header.references.store(1, std::memory_order_relaxed);
  block_pool().release(block);
}

MemberSlot& next_slot(Comm& c) {
  return c.shared->block->slot(static_cast<std::uint32_t>(c.rank),
                               c.shared->round + 1);
}

void publish(Comm& c, MemberSlot& slot) {
  const std::uint64_t round = ++c.shared->round;
  // Release: the slot's contents before its round number.
  slot.round.store(round, std::memory_order_release);
  p2p::Engine& engine = *state().engine;
  for (int m = 0; m < c.size; ++m) {
    if (m != c.rank) {
      segment::wake_if_sleeping(
          engine.control(c.slots[static_cast<std::size_t>(m)]));
    }
  }
}

void wait_round(Comm& c) {
  CommBlock* block = c.shared->block;
  const std::uint64_t round = c.shared->round;
  int next = 0;
  state().engine->wait_until([&] {
    // Acquire: pairs with the member's release in publish().
    while (next < c.size &&
           block->slot(static_cast<std::uint32_t>(next), round)
                   .round.load(std::memory_order_acquire) >= round) {
      ++next;
    }
    return next == c.size;
  });
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

detail::CommShared* new_shared(CommBlock* block, std::uint32_t leader) {
  auto* shared = new (std::nothrow) detail::CommShared();
  if (shared != nullptr) {
    shared->block = block;
    shared->leader = leader;
    // Relaxed: the block's offset reached us through a round (acquire),
    // after the pop that handed it out saw the last user's store.
    shared->round = block->header.base_round.load(std::memory_order_relaxed);
  }
  return shared;
}

contextid::Arbiter::Key arbiter_key(const Comm& parent, std::uint32_t tag) {
  return std::uint64_t{parent.recv_context_id} << 32 | tag;
}

// Why a round found no common ID, from what every member published.
const char* no_id_reason(Comm& c) {
  for (int m = 0; m < c.size; ++m) {
    const MemberSlot& s =
        c.shared->block->slot(static_cast<std::uint32_t>(m), c.shared->round);
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
    w.slots[r] = r;  // the first world occupies slots 0..size-1
    w.lpids[r] = static_cast<std::int32_t>(r);  // lpid = world rank (seed 002)
  }
  w.predefined = true;
  w.name = "MPI_COMM_WORLD";
  w.handle = MPI_COMM_WORLD;
  const segment::Segment& segment = s.runtime->segment();
  static_assert(kWorldBlockInScratch >=
                scratch::kPoolHeadsInScratch + sizeof(scratch::PoolHeads));
  auto* world_block = segment.at<CommBlock>(segment.layout().scratch_offset +
                                            kWorldBlockInScratch);
  // The segment starts zeroed, so every round word is 0; the block is never
  // freed, so its header needs no reference count.
  w.shared = new detail::CommShared();
  w.shared->block = world_block;
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
  self.shared->block = block_pool().acquire(1, 1);
  // Mask bit 2 stays reserved, as the seeds reserve it for the third
  // predefined communicator (MPICH's internal ICOMM_WORLD).
  arbiter().set_thread_safe(s.thread_multiple);
}

namespace {
// The spare block a merge round offered, until settle_merge.
thread_local CommBlock* merge_spare = nullptr;
}  // namespace

int merge_offer_round(Comm& local, int high, std::uint32_t merged_size,
                      std::uint32_t tag, GroupOffer* out) {
  wait_pending(local);
  const contextid::Arbiter::Key akey = arbiter_key(local, tag);
  contextid::Arbiter& ids = arbiter();
  if (merge_spare == nullptr) {
    merge_spare = take_spare(merged_size);
    if (merge_spare == nullptr) {
      return MPI_ERR_NO_MEM;
    }
  }
  MemberSlot& mine = next_slot(local);
  mine.flags = slot_flags::kJoins;
  mine.free_ids = ids.free_count();
  if (ids.offer(akey, std::span<std::uint32_t, contextid::kMaskWords>(
                          mine.mask, contextid::kMaskWords))) {
    mine.flags |= slot_flags::kRealMask;
  }
  merge_spare->header.references.store(merged_size, std::memory_order_relaxed);
  mine.offers = 1;
  mine.offer[0] = block_pool().offset_of(merge_spare);
  mine.color = high;
  publish(local, mine);
  wait_round(local);
  const std::uint64_t round = local.shared->round;
  std::fill(std::begin(out->mask), std::end(out->mask), 0xffffffffu);
  out->all_real = 1;
  out->no_free = 0;
  out->high = 0;
  int lowest = 0;
  for (int m = 0; m < local.size; ++m) {
    const MemberSlot& s =
        local.shared->block->slot(static_cast<std::uint32_t>(m), round);
    for (unsigned w = 0; w < contextid::kMaskWords; ++w) {
      out->mask[w] &= s.mask[w];
    }
    out->all_real &= (s.flags & slot_flags::kRealMask) != 0 ? 1u : 0u;
    out->no_free |= s.free_ids == 0 ? 1u : 0u;
    out->high |= s.color != 0 ? 1 : 0;
    if (local.slots[static_cast<std::size_t>(m)] <
        local.slots[static_cast<std::size_t>(lowest)]) {
      lowest = m;
    }
  }
  out->lowest_slot = local.slots[static_cast<std::size_t>(lowest)];
  out->offer =
      local.shared->block->slot(static_cast<std::uint32_t>(lowest), round)
          .offer[0];
  return MPI_SUCCESS;
}

void settle_merge(Comm& local, std::uint32_t tag, bool ok, bool retry,
                  ContextId id, std::uint64_t chosen_block) {
  const contextid::Arbiter::Key akey = arbiter_key(local, tag);
  if (ok) {
    const ContextId one[1] = {id};
    arbiter().commit(akey, one);
    if (merge_spare != nullptr &&
        block_pool().offset_of(merge_spare) == chosen_block) {
      merge_spare = nullptr;  // the merged communicator uses it
    }
  } else if (retry) {
    arbiter().retry(akey);
    return;
  } else {
    arbiter().abandon(akey);
  }
  if (merge_spare != nullptr) {
    keep_spare(merge_spare);
    merge_spare = nullptr;
  }
}

Comm* make_comm_from(const std::vector<std::uint32_t>& slots,
                     const std::vector<std::int32_t>& lpids, int rank,
                     ContextId id, CommBlock* block) {
  Comm* c = state().comms.create();
  if (c == nullptr) {
    return nullptr;
  }
  c->context_id = c->recv_context_id = id;
  c->coll_context_id = c->coll_recv_context_id = contextid::collective(id);
  c->size = c->remote_size = static_cast<int>(slots.size());
  c->rank = rank;
  c->slots = slots;
  c->lpids = lpids;
  std::vector<int> all(slots.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    all[i] = static_cast<int>(i);
  }
  c->shared = new_shared(block, lowest_slot_rank(slots, all));
  c->handle = reinterpret_cast<MPI_Comm>(c);  // NOLINT: handles are pointers
  return c;
}

int create_group_round(Comm& parent, const std::vector<std::int32_t>& lpids,
                       int tag, SplitResult* out, const char** why) {
  static scratch::Directory directory(state().runtime->segment());
  static std::map<std::uint64_t, std::uint64_t> generations;
  static std::mutex generations_mutex;
  const std::vector<std::uint32_t> slots = slots_of_lpids(lpids);
  const std::int32_t me = parent.lpids[static_cast<std::size_t>(parent.rank)];
  const auto index = static_cast<int>(
      std::find(lpids.begin(), lpids.end(), me) - lpids.begin());
  std::vector<int> all(lpids.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    all[i] = static_cast<int>(i);
  }
  const std::uint32_t leader = lowest_slot_rank(slots, all);
  // The key: who, on which parent, with which tag, and how many times
  // before (the same count on every member).
  std::vector<std::uint64_t> words = {slots[leader], parent.recv_context_id,
                                      static_cast<std::uint64_t>(tag),
                                      slots.size()};
  words.insert(words.end(), slots.begin(), slots.end());
  const std::uint64_t base = scratch::digest(words.data(), words.size());
  std::uint64_t generation;
  {
    std::lock_guard<std::mutex> guard(generations_mutex);
    generation = generations[base]++;
  }
  const std::uint64_t pair[2] = {base, generation};
  const std::uint64_t key = scratch::digest(pair, 2);
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
      *why = "too many MPI_Comm_create_group calls in flight at once";
      return MPI_ERR_NO_MEM;
    }
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
  group.recv_context_id = group.context_id = parent.recv_context_id;
  detail::CommShared shared;
  shared.block = block;
  shared.leader = leader;
  shared.round = block->header.base_round.load(std::memory_order_relaxed);
  group.shared = &shared;
  int rc = split_round(group, 0, index,
                       0x80000000u | static_cast<std::uint32_t>(tag), out, why);
  if (rc == MPI_SUCCESS && out->joined) {
    Comm* c = make_intracomm(group, *out);
    if (c == nullptr) {
      rc = MPI_ERR_NO_MEM;
      *why = "out of communicator handles";
    } else {
      c->errhandler = parent.errhandler;
      out->created = c;
    }
  }
  group.shared = nullptr;
  block->header.base_round.store(shared.round, std::memory_order_relaxed);
  if (block_pool().drop(block)) {
    directory.remove(key);
    block_pool().recycle(block);
  }
  return rc;
}

void block_barrier(Comm& comm) {
  wait_pending(comm);
  MemberSlot& mine = next_slot(comm);
  publish(comm, mine);
  wait_round(comm);
}

int split_round(Comm& parent, int color, int key, std::uint32_t tag,
                SplitResult* out, const char** why) {
  wait_pending(parent);
  const bool joins = color != MPI_UNDEFINED;
  const contextid::Arbiter::Key akey = arbiter_key(parent, tag);
  contextid::Arbiter& ids = arbiter();
  CommBlock* spare =
      joins ? take_spare(static_cast<std::uint32_t>(parent.size)) : nullptr;
  if (joins && spare == nullptr) {
    *why = "the shared heap has no room for another communicator block";
    return MPI_ERR_NO_MEM;
  }
  for (;;) {
    MemberSlot& mine = next_slot(parent);
    mine.color = joins ? color : -1;
    mine.key = key;
    mine.flags = slot_flags::kRealMask | (joins ? slot_flags::kJoins : 0u);
    mine.want_ids = 1;
    mine.free_ids = joins ? ids.free_count() : contextid::kMaskBits;
    if (joins) {
      if (!ids.offer(akey, std::span<std::uint32_t, contextid::kMaskWords>(
                               mine.mask, contextid::kMaskWords))) {
        mine.flags &= ~slot_flags::kRealMask;
      }
      // Offered with one reference per parent member; members outside the
      // group that picks it drop theirs below.
      spare->header.references.store(static_cast<std::uint32_t>(parent.size),
                                     std::memory_order_relaxed);
      mine.offers = 1;
      mine.offer[0] = block_pool().offset_of(spare);
    } else {
      std::fill(std::begin(mine.mask), std::end(mine.mask), 0xffffffffu);
      mine.offers = 0;
    }
    publish(parent, mine);
    wait_round(parent);

    const std::uint64_t round = parent.shared->round;
    CommBlock* block = parent.shared->block;
    auto slot_of = [&](int m) -> MemberSlot& {
      return block->slot(static_cast<std::uint32_t>(m), round);
    };
    bool all_real = true;
    bool any_joins = false;
    std::vector<const std::uint32_t*> masks;
    masks.reserve(static_cast<std::size_t>(parent.size));
    for (int m = 0; m < parent.size; ++m) {
      const MemberSlot& s = slot_of(m);
      all_real = all_real && (s.flags & slot_flags::kRealMask) != 0;
      any_joins = any_joins || (s.flags & slot_flags::kJoins) != 0;
      masks.push_back(s.mask);
    }
    if (!any_joins) {
      *out = SplitResult{};
      return MPI_SUCCESS;
    }
    if (!all_real) {
      // Another allocation on some member holds its mask: try again.
      if (joins) {
        ids.retry(akey);
      }
      ::sched_yield();
      continue;
    }
    std::vector<ContextId> agreed = contextid::agree(masks, 1);
    if (agreed.empty()) {
      if (joins) {
        ids.abandon(akey);
        keep_spare(spare);
      }
      *why = no_id_reason(parent);
      return MPI_ERR_OTHER;
    }
    if (joins) {
      ids.commit(akey, agreed);
    }
    // Every group: its members in (key, parent rank) order, its leader's
    // block. Members outside a group drop one reference of its block.
    std::vector<std::pair<int, int>> order;  // (color, key) sorted ranks
    std::vector<int> ranks(static_cast<std::size_t>(parent.size));
    for (int m = 0; m < parent.size; ++m) {
      ranks[static_cast<std::size_t>(m)] = m;
    }
    std::stable_sort(ranks.begin(), ranks.end(), [&](int a, int b) {
      const MemberSlot& sa = slot_of(a);
      const MemberSlot& sb = slot_of(b);
      if (sa.color != sb.color) {
        return sa.color < sb.color;
      }
      return sa.key < sb.key;
    });
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
    std::size_t begin = 0;
    while (begin < ranks.size()) {
      const int group_color = slot_of(ranks[begin]).color;
      std::size_t end = begin;
      while (end < ranks.size() && slot_of(ranks[end]).color == group_color) {
        ++end;
      }
      if (group_color >= 0) {
        std::vector<int> members(ranks.begin() + static_cast<long>(begin),
                                 ranks.begin() + static_cast<long>(end));
        const int leader = members[lowest_slot_rank(parent.slots, members)];
        CommBlock* chosen = block_pool().at(slot_of(leader).offer[0]);
        if (group_color == color) {
          result.members = std::move(members);
          result.block = chosen;
          if (leader == parent.rank) {
            spare = nullptr;  // consumed: the group uses it
          }
        } else {
          block_pool().release(chosen);
        }
      }
      begin = end;
    }
    if (spare != nullptr) {
      keep_spare(spare);
    }
    *out = std::move(result);
    return MPI_SUCCESS;
  }
}

Comm* make_intracomm(const Comm& parent, const SplitResult& result) {
  Comm* c = state().comms.create();
  if (c == nullptr) {
    return nullptr;
  }
  c->context_id = c->recv_context_id = result.id;
  c->coll_context_id = c->coll_recv_context_id =
      contextid::collective(result.id);
  c->size = c->remote_size = static_cast<int>(result.members.size());
  c->slots.resize(result.members.size());
  c->lpids.resize(result.members.size());
  for (std::size_t i = 0; i < result.members.size(); ++i) {
    const auto p = static_cast<std::size_t>(result.members[i]);
    c->slots[i] = parent.slots[p];
    c->lpids[i] = parent.lpids[p];
    if (result.members[i] == parent.rank) {
      c->rank = static_cast<int>(i);
    }
  }
  c->shared =
      new_shared(result.block, lowest_slot_rank(parent.slots, result.members));
  c->errhandler = parent.errhandler;
  c->handle = reinterpret_cast<MPI_Comm>(c);  // NOLINT: handles are pointers
  return c;
}

// A dup batch: one round in which every member offers its mask and the
// leader offers blocks; the agreed IDs go to the parent's reserve. Split in
// start() and finish() so that MPI_Comm_idup can run it from progress().
DupRound::DupRound(Comm& parent)
    : parent_(parent),
      key_(arbiter_key(parent, 0)),
      leader_(parent.rank == static_cast<int>(parent.shared->leader)) {}

DupRound::~DupRound() {
  for (CommBlock* b : offered_) {
    b->header.references.store(1, std::memory_order_relaxed);
    block_pool().release(b);
  }
}

void DupRound::start() {
  contextid::Arbiter& ids = arbiter();
  MemberSlot& mine = next_slot(parent_);
  mine.color = 0;
  mine.key = 0;
  mine.flags = slot_flags::kJoins;
  mine.free_ids = ids.free_count();
  mine.want_ids = mine.free_ids >= kBatchWhileFree ? kDupBatch : 1;
  if (ids.offer(key_, std::span<std::uint32_t, contextid::kMaskWords>(
                          mine.mask, contextid::kMaskWords))) {
    mine.flags |= slot_flags::kRealMask;
  }
  mine.offers = 0;
  if (leader_) {
    while (offered_.size() < mine.want_ids) {
      CommBlock* block =
          block_pool().acquire(static_cast<std::uint32_t>(parent_.size),
                               static_cast<std::uint32_t>(parent_.size));
      if (block == nullptr) {
        break;
      }
      offered_.push_back(block);
    }
    for (CommBlock* block : offered_) {
      mine.offer[mine.offers++] = block_pool().offset_of(block);
    }
  }
  publish(parent_, mine);
  next_member_ = 0;
}

bool DupRound::arrived() {
  CommBlock* block = parent_.shared->block;
  const std::uint64_t round = parent_.shared->round;
  // Acquire: pairs with the member's release in publish().
  while (next_member_ < parent_.size &&
         block->slot(static_cast<std::uint32_t>(next_member_), round)
                 .round.load(std::memory_order_acquire) >= round) {
    ++next_member_;
  }
  return next_member_ == parent_.size;
}

DupRound::Outcome DupRound::finish(const char** why) {
  contextid::Arbiter& ids = arbiter();
  const std::uint64_t round = parent_.shared->round;
  CommBlock* block = parent_.shared->block;
  bool all_real = true;
  unsigned want = kDupBatch;
  std::vector<const std::uint32_t*> masks;
  masks.reserve(static_cast<std::size_t>(parent_.size));
  for (int m = 0; m < parent_.size; ++m) {
    const MemberSlot& s = block->slot(static_cast<std::uint32_t>(m), round);
    all_real = all_real && (s.flags & slot_flags::kRealMask) != 0;
    want = std::min(want, s.want_ids);
    masks.push_back(s.mask);
  }
  const MemberSlot& lead = block->slot(parent_.shared->leader, round);
  want = std::min(want, lead.offers);
  if (!all_real) {
    ids.retry(key_);
    return Outcome::kRetry;
  }
  std::vector<ContextId> agreed = contextid::agree(masks, want);
  if (agreed.empty()) {
    ids.abandon(key_);
    *why = want == 0
               ? "the shared heap has no room for another communicator block"
               : no_id_reason(parent_);
    return want == 0 ? Outcome::kNoMemory : Outcome::kNoId;
  }
  ids.commit(key_, agreed);
  for (std::size_t i = 0; i < agreed.size(); ++i) {
    parent_.shared->reserve.push_back(
        detail::Reserved{agreed[i], lead.offer[i]});
  }
  // The leader's blocks that got an ID now belong to the reserve.
  offered_.erase(offered_.begin(),
                 offered_.begin() + static_cast<long>(std::min(
                                        agreed.size(), offered_.size())));
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

Comm* dup_from_reserve(Comm& parent) {
  const detail::Reserved next = parent.shared->reserve.front();
  parent.shared->reserve.pop_front();
  SplitResult same;
  same.joined = true;
  same.id = next.id;
  same.block = block_pool().at(next.block);
  same.members.resize(static_cast<std::size_t>(parent.size));
  for (int r = 0; r < parent.size; ++r) {
    same.members[static_cast<std::size_t>(r)] = r;
  }
  return make_intracomm(parent, same);
}

int dup_intracomm(Comm& parent, Comm** out, const char** why) {
  wait_pending(parent);
  while (parent.shared->reserve.empty()) {
    DupRound round(parent);
    round.start();
    state().engine->wait_until([&] { return round.arrived(); });
    const DupRound::Outcome outcome = round.finish(why);
    if (outcome == DupRound::Outcome::kRetry) {
      ::sched_yield();
      continue;
    }
    if (outcome != DupRound::Outcome::kDone) {
      return outcome_class(outcome);
    }
  }
  Comm* c = dup_from_reserve(parent);
  if (c == nullptr || c->shared == nullptr) {
    *why = "out of communicator handles";
    return MPI_ERR_NO_MEM;
  }
  *out = c;
  return MPI_SUCCESS;
}

void wait_pending(Comm& comm) {
  if (comm.shared != nullptr && comm.shared->pending != 0) {
    state().engine->wait_until([&] { return comm.shared->pending == 0; });
  }
}

void destroy_comm(Comm* comm) {
  if (comm->shared != nullptr) {
    for (const detail::Reserved& r : comm->shared->reserve) {
      arbiter().release(r.id);
      block_pool().release(block_pool().at(r.block));
    }
    if (comm->shared->block != nullptr) {
      // Relaxed: ordered before the reference drop (acq_rel) below.
      comm->shared->block->header.base_round.store(comm->shared->round,
                                                   std::memory_order_relaxed);
      block_pool().release(comm->shared->block);
    }
    delete comm->shared;
    comm->shared = nullptr;
  }
  // Intercommunicators free their receive context only (seed 000); on an
  // intracommunicator both are the same ID.
  arbiter().release(comm->recv_context_id);
  if (comm->local_comm != nullptr) {
    destroy_comm(comm->local_comm);  // derived ID: releases nothing
    comm->local_comm = nullptr;
  }
  state().comms.destroy(comm);
}

}  // namespace shmpi::mpi
