// SPDX-License-Identifier: MIT
#include "coll/rounds.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>

#include "base/assert.hpp"
#include "base/cache_line.hpp"
#include "base/log.hpp"
#include "base/membarrier.hpp"
#include "base/prefetch.hpp"
#include "p2p/engine.hpp"
#include "segment/shared_heap.hpp"
#include "segment/wake_word.hpp"

namespace shmpi::coll {

namespace {

using scratch::CollSlot;

const segment::Segment& segment_of() { return mpi::state().engine->segment(); }

// The block's per-member words, found once.
void find_words(Comm& comm) {
  mpi::detail::CommShared& shared = *comm.shared;
  shared.bulk = shared.block->bulk_words(shared.capacity);
  shared.arrivals = shared.block->arrivals(shared.capacity);
  shared.progress = shared.block->progress(shared.capacity);
}

std::atomic<std::uint64_t>* bulk_words(Comm& comm) {
  if (comm.shared->bulk == nullptr) [[unlikely]] {
    find_words(comm);
  }
  return comm.shared->bulk;
}

scratch::ArrivalEntry& arrival_entry(Comm& comm, int m, std::uint64_t round) {
  if (comm.shared->arrivals == nullptr) [[unlikely]] {
    find_words(comm);
  }
  return comm.shared->arrivals[2 * static_cast<std::size_t>(m) + (round & 1u)];
}

// Buffers in a member's bulk ring (scratch/comm_block.hpp). A deeper ring
// lets a member that only writes (a broadcast's root, a reduction's
// non-roots) run further ahead of its readers, and hands out the lines
// they read longest ago, which no longer need taking back from their
// caches line by line: a two-process model of a double copy streamed
// 64 KiB chunks at 8 GB/s through 2 buffers used in turn, 11 GB/s through
// 4 and 14 GB/s through 8. Bounded so that a communicator's buffers take
// at most 16 MiB of the shared heap.
std::uint32_t wanted_bulk_ring(const Comm& comm) {
  if (comm.size <= 16) {
    return scratch::kMaxBulkRing;
  }
  return comm.size <= 64 ? 4 : 2;
}

std::uint32_t ring_of(std::uint64_t bulk_word) {
  return 1u << (bulk_word & scratch::kBulkRingBits);
}

// This member's bulk word. Relaxed: only this member writes its word
// while the block is in use; a recycled block's word was written before
// the block was handed out (the pool's release/acquire pair orders it).
std::uint64_t own_bulk_word(Comm& comm) {
  return bulk_words(comm)[static_cast<std::size_t>(comm.rank)].load(
      std::memory_order_relaxed);
}

// The size of this member's bulk ring: the one its buffers have (a
// recycled block keeps the last member's), else the one it will make.
std::uint32_t bulk_ring(Comm& comm) {
  const std::uint64_t word = own_bulk_word(comm);
  return word == 0 ? wanted_bulk_ring(comm) : ring_of(word);
}

// The buffer of a ring of `ring` that this member's next bulk write takes:
// one after the last taken, whatever rounds without bulk data came
// between. At the first write that is buffer 1 whatever the ring turns out
// to be, so a ring made shorter for want of heap agrees with the check
// that came before it.
std::uint32_t next_bulk_index(const mpi::detail::CommShared& shared,
                              std::uint32_t ring) {
  return static_cast<std::uint32_t>((shared.bulk_writes + 1) & (ring - 1));
}

// At most this many lines of the next bulk buffer are asked for ahead
// (own_next_bulk).
constexpr std::uint32_t kOwnBulkLines = 256;

// After a round with bulk data is published: asks for the lines of the
// buffer the next bulk write takes, as many as this round wrote (at most
// kOwnBulkLines), so that the next round's writes find them owned instead
// of taking each back from the readers' caches then (a two-process model
// of 1 KiB rounds: 600 -> 430 ns one way). Only once every member is
// known (from all_seen, without looking) to be done with that buffer: a
// reader still copying it would have to fetch the lines back. With more
// members than cores too: the publisher usually yields to a core mate
// next, and the lines arrive during the switch (4 ranks on 2 cores, 1 KiB
// alltoall 2.96 -> 2.20 us, docs/bench.md).
void own_next_bulk(Comm& comm) {
  mpi::detail::CommShared& shared = *comm.shared;
  const std::uint32_t lines = shared.own_lines;
  if (lines == 0) [[likely]] {
    return;
  }
  shared.own_lines = 0;
  const std::uint64_t word = own_bulk_word(comm);
  const std::uint32_t index = next_bulk_index(shared, ring_of(word));
  const std::uint64_t last = shared.bulk_used[index];
  if (last != 0 && shared.all_seen <= last) {
    return;
  }
  const std::byte* at = segment_of().at<std::byte>(
      (word & ~scratch::kBulkRingBits) + index * kBulk);
  for (std::uint32_t k = 0; k < lines; ++k) {
    base::prefetch_for_write(at + static_cast<std::size_t>(k) * kCacheLineSize);
  }
}

CollSlot& member_slot(Comm& comm, int m, std::uint64_t round) {
  return comm.shared->block->coll_slot(comm.shared->slots,
                                       static_cast<std::uint32_t>(m), round);
}

// How far member m is known to have got, seen from round r: the word of
// its slot of round r (which holds r, or a later round of that slot, once
// m has published r) or of its arrival entry of r's parity (likewise),
// whichever is at least r; below r while m has not published r. A word w
// of m's means m has published every round up to w. Acquire on both:
// pairs with the member's release in publish() or arrive(); its
// data for w, and its reads of older rounds, happened before. The place
// this member used for r is looked at first: the others chose alike.
std::uint64_t published_word(Comm& comm, int m, std::uint64_t r) {
  auto in_slot = [&] {
    return member_slot(comm, m, r).round.load(std::memory_order_acquire);
  };
  auto in_entry = [&] {
    return arrival_entry(comm, m, r).round.load(std::memory_order_acquire);
  };
  if (comm.shared->small_round == r) {
    const std::uint64_t word = in_entry();
    return word >= r ? word : in_slot();
  }
  const std::uint64_t word = in_slot();
  return word >= r ? word : in_entry();
}

// True once member m has published round r or a later one.
bool published(Comm& comm, int m, std::uint64_t r) {
  return published_word(comm, m, r) >= r;
}

// Wakes member m if it sleeps. Relaxed load: ordered by the caller's
// seq_cst fence, or by the sleeper's heavy fence (wake_after()).
void wake_member(Comm& comm, int m) {
  segment::RankControl& control =
      mpi::state().engine->control(comm.slots[static_cast<std::size_t>(m)]);
  if ((control.wake_word.load(std::memory_order_relaxed) &
       segment::kSleeperMask) != 0) [[unlikely]] {
    segment::wake_now(control);
  }
}

// Wakes the members asleep on this block, if this member's publish of
// round `r` may be what they wait for (see publish()); `waiter`, if not
// -1, waits for this member alone and is woken in any case.
void wake_after(Comm& comm, std::uint64_t r, bool others_wait_on_me,
                int waiter = -1) {
  if (base::light_fences_on()) {
    // The light fence, a compiler barrier here: a sleeper counts itself in
    // the job's sleepers and announces itself, then runs a heavy fence (an
    // expedited membarrier) before its re-check (base/membarrier.hpp,
    // segment/wake_word.hpp). So a publisher that reads a count of zero
    // after its store has its store seen by the re-check of anyone who
    // counts itself later; in loops where nobody sleeps that one line,
    // shared by every cache, is all a publish reads.
    base::light_fence();
    // Relaxed: ordered by the sleeper's heavy fence.
    if (segment_of().header().sleepers.load(std::memory_order_relaxed) == 0) {
      return;
    }
    // Someone sleeps: the rule below, behind a real fence. A publisher
    // that skipped it (it read zero) is seen by the re-check of every
    // sleeper counted since; one that fences and still misses that
    // store's round read it before the sleeper's membarrier returned, so
    // its own round was visible by then, and the sleeper's re-check sees
    // both (docs/design.md, "Waiting").
  }
  // seq_cst fence: our round store is visible before we read the others'
  // rounds and sleeper counts. Two members publishing together both fence
  // first, so at least one sees the other and wakes; a waiter announces
  // itself, fences and re-checks (segment/wake_word.hpp), so either it sees
  // our round or we see it sleeping.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  for (int m = 0; m < comm.size && !others_wait_on_me; ++m) {
    // Only decides whether to wake; a waiter that reads the round acquires
    // it itself.
    if (!published(comm, m, r)) {
      if (waiter >= 0) {
        wake_member(comm, waiter);
      }
      return;  // m is still to come: its publish wakes the rest
    }
  }
  for (int m = 0; m < comm.size; ++m) {
    if (m != comm.rank) {
      wake_member(comm, m);
    }
  }
}

// True once every member has published round `needed` (at most this
// member's own round), remembered in all_seen so that later checks for
// that round or older ones are free. What is remembered is the lowest
// round any member is known to have reached, ours included, which may be
// well past `needed`: a member behind writers that run ahead (a scan's
// last member, a reduction's root) then reads their lines once per many
// rounds instead of once per round.
bool all_published(Comm& comm, std::uint64_t needed) {
  mpi::detail::CommShared& shared = *comm.shared;
  // all_seen starts at the block's first round (older rounds belong to no
  // one still reading), so a new communicator is not held back by them.
  if (shared.all_seen >= needed) {
    return true;
  }
  std::uint64_t lowest = shared.round;  // ours: every round up to it
  for (int m = 0; m < comm.size; ++m) {
    if (m == comm.rank) {
      continue;
    }
    const std::uint64_t word = published_word(comm, m, needed);
    if (word < needed) {
      return false;
    }
    lowest = std::min(lowest, word);
  }
  shared.all_seen = lowest;  // >= needed > all_seen, checked above
  return true;
}

// True when this member may rewrite what it wrote `distance` rounds before
// the next one (a slot, or a bulk buffer of its ring): every member has
// published the round after that one, so has finished reading it.
bool reusable(Comm& comm, std::uint64_t distance) {
  const std::uint64_t round = comm.shared->round;
  // The next round's place last held round + 1 - distance.
  if (round + 2 <= distance) {
    return true;  // it was never used: the round it held is <= 0
  }
  return all_published(comm, round + 2 - distance);
}

}  // namespace

bool writable_now(Comm& comm) {
  // Two rounds: the place of this round's parity (data everyone reads).
  return reusable(comm, 2);
}

bool writable_inline_now(Comm& comm) {
  // The next round's slot was last used a member's slot count of rounds
  // before, so a member that only writes may run up to that many less one
  // rounds ahead of the slowest reader.
  return reusable(comm, comm.shared->slots);
}

bool writable_bulk_now(Comm& comm) {
  const mpi::detail::CommShared& shared = *comm.shared;
  if (shared.bulk_round == shared.round + 1) {
    return true;  // the next round took its buffer after this check
  }
  // The round also rewrites this member's slot (its round word and `where`),
  // so the inline rule holds too. Then the next bulk buffer: last written
  // in round `last` (a ring's worth of bulk writes ago, so before this
  // member's latest round); every member that has published the round
  // after it is done reading it.
  if (!writable_inline_now(comm)) {
    return false;
  }
  const std::uint64_t last =
      shared.bulk_used[next_bulk_index(shared, bulk_ring(comm))];
  return last == 0 || all_published(comm, last + 1);
}

void wait_writable(Comm& comm) {
  mpi::state().engine->wait_until([&comm] { return writable_now(comm); });
}

std::byte* write_area(Comm& comm, std::size_t bytes) {
  const std::uint64_t next = comm.shared->round + 1;
  CollSlot& mine = member_slot(comm, comm.rank, next);
  if (bytes <= inline_bytes(comm)) {
    mine.where = 0;
    return mine.data;
  }
  std::uint64_t word = own_bulk_word(comm);
  if (word == 0) {
    // A shorter ring when the heap is short: two buffers are all that
    // rounds need (writable_now()), more only let writers run ahead. The
    // writable check before this call used the wanted ring, which is
    // harmless: nobody reads buffers this member has never written.
    std::uint32_t ring = wanted_bulk_ring(comm);
    void* memory = segment_of().heap().allocate(ring * kBulk);
    while (memory == nullptr && ring > 2) {
      ring /= 2;
      memory = segment_of().heap().allocate(ring * kBulk);
    }
    if (memory == nullptr) {
      base::log_error(
          "the shared heap is full: no room for %u collective "
          "buffers of %zu bytes (too many communicators with large "
          "collectives? shmpirun --heap-size)",
          ring, kBulk);
      mpi::state().runtime->abort_job(1);
    }
    const std::uint64_t offset = segment_of().offset_of(memory);
    SHMPI_ASSERT((offset & scratch::kBulkRingBits) == 0,
                 "the heap aligns to 64 bytes");
    word = offset | static_cast<std::uint64_t>(std::countr_zero(ring));
    // Relaxed: see own_bulk_word().
    bulk_words(comm)[static_cast<std::size_t>(comm.rank)].store(
        word, std::memory_order_relaxed);
  }
  mpi::detail::CommShared& shared = *comm.shared;
  if (shared.bulk_round != next) {  // the round's first call: take a buffer
    shared.bulk_used[next_bulk_index(shared, ring_of(word))] = next;
    ++shared.bulk_writes;
    shared.bulk_round = next;
    if (base::has_prefetchw()) {
      shared.own_lines = static_cast<std::uint32_t>(std::min<std::size_t>(
          (bytes + kCacheLineSize - 1) / kCacheLineSize, kOwnBulkLines));
    }
  }
  const std::uint64_t index = shared.bulk_writes & (ring_of(word) - 1);
  mine.where = (word & ~scratch::kBulkRingBits) + index * kBulk;
  return segment_of().at<std::byte>(mine.where);
}

namespace {

// TSan only: this member's reads of other members' heap memory (bulk
// buffers, buffers read in place) in the rounds it now finishes happen
// before this process's later allocations. Once the others see the round
// they may free that memory, and this process may be given it next
// (segment/shared_heap.hpp).
inline void order_reads_before_frees() {
#if defined(__SANITIZE_THREAD__)
  segment_of().heap().order_before_allocations();
#endif
}

}  // namespace

void publish(Comm& comm, bool others_wait_on_me) {
  order_reads_before_frees();
  const std::uint64_t next = ++comm.shared->round;
  // Release: this round's data before its round number.
  member_slot(comm, comm.rank, next)
      .round.store(next, std::memory_order_release);
  // Only the last member to publish a round wakes sleepers. Every wait on
  // a block is for some members (often all) to have published some round,
  // and every member publishes every round, so the last publisher of that
  // round sees everyone there and wakes whoever sleeps on it; waking at
  // each publish instead makes n sleepers wake n times per round, which
  // with more ranks than cores costs more than the collective itself. The
  // exception is a root the others wait on alone: a reader asleep until
  // the last member shows up would wait for someone it does not need.
  wake_after(comm, next, others_wait_on_me);
  own_next_bulk(comm);
}

void publish_to(Comm& comm, int waiter) {
  order_reads_before_frees();
  const std::uint64_t next = ++comm.shared->round;
  // Release: as in publish().
  member_slot(comm, comm.rank, next)
      .round.store(next, std::memory_order_release);
  wake_after(comm, next, false, waiter);
  own_next_bulk(comm);
}

bool core_per_member(const Comm& comm) {
  return static_cast<unsigned>(comm.size) <= mpi::state().engine->config().cpus;
}

std::size_t inline_bytes(const Comm& comm) {
  return core_per_member(comm) ? kInlineFirstLine : kInline;
}

void arrive(Comm& comm) {
  if (!core_per_member(comm)) {
    publish(comm);
    return;
  }
  // The small lane.
  order_reads_before_frees();
  const std::uint64_t next = ++comm.shared->round;
  comm.shared->small_round = next;
  // Release: our reads of older rounds before the round number.
  arrival_entry(comm, comm.rank, next)
      .round.store(next, std::memory_order_release);
  wake_after(comm, next, false);
}

bool arrived(Comm& comm, int m) {
  return published(comm, m, comm.shared->round);
}

bool reached(Comm& comm, int m, std::uint64_t r) {
  return published(comm, m, r);
}

bool AllArrived::operator()() {
  while (next < comm->size && arrived(*comm, next)) {
    ++next;
  }
  if (next < comm->size) {
    return false;
  }
  comm->shared->all_seen = comm->shared->round;
  return true;
}

void publish_progress(Comm& comm, std::size_t bytes) {
  if (comm.shared->progress == nullptr) [[unlikely]] {
    find_words(comm);
  }
  const std::uint64_t next = comm.shared->round + 1;
  // Release: the first `bytes` of this round's data (and where they are)
  // before the word that says so. Only this member writes its word.
  comm.shared->progress[static_cast<std::size_t>(comm.rank)].store(
      (next << scratch::kProgressShift) | bytes, std::memory_order_release);
}

std::size_t progress_of(Comm& comm, int m) {
  if (comm.shared->progress == nullptr) [[unlikely]] {
    find_words(comm);
  }
  // Acquire: pairs with publish_progress(); the bytes it counts, and the
  // slot's word for where they are, were written before.
  const std::uint64_t word =
      comm.shared->progress[static_cast<std::size_t>(m)].load(
          std::memory_order_acquire);
  if ((word >> scratch::kProgressShift) != comm.shared->round) {
    return 0;  // m has not started this round yet, or is past it
  }
  return static_cast<std::size_t>(
      word & ((std::uint64_t{1} << scratch::kProgressShift) - 1));
}

namespace {

// A member's bulk buffer or heap buffer, by the offset it published.
// TSan: it took that memory from the heap in its own process.
const std::byte* member_heap_data(std::uint64_t offset) {
  segment_of().heap().order_after_allocations();
  return segment_of().at<std::byte>(offset);
}

}  // namespace

void prefetch_slots(Comm& comm, int first, int last, std::uint64_t ahead) {
  const std::uint64_t r = comm.shared->round + ahead;
  for (int m = first; m <= last; ++m) {
    __builtin_prefetch(&member_slot(comm, m, r), 0, 3);
  }
}

const std::byte* data_of(Comm& comm, int m) {
  const CollSlot& slot = member_slot(comm, m, comm.shared->round);
  return slot.where == 0 ? slot.data : member_heap_data(slot.where);
}

bool arrived_next(Comm& comm, int m) {
  return published(comm, m, comm.shared->round + 1);
}

const std::byte* next_data_of(Comm& comm, int m) {
  const CollSlot& slot = member_slot(comm, m, comm.shared->round + 1);
  return slot.where == 0 ? slot.data : member_heap_data(slot.where);
}

std::uint64_t heap_offset_of(const void* base, std::size_t bytes,
                             bool contiguous) {
  const segment::Segment& segment = segment_of();
  return contiguous && segment.in_heap(base, bytes) ? segment.offset_of(base)
                                                    : kNotInHeap;
}

std::byte* heap_at(std::uint64_t offset) {
  segment_of().heap().order_after_allocations();  // as member_heap_data()
  return segment_of().at<std::byte>(offset);
}

}  // namespace shmpi::coll
