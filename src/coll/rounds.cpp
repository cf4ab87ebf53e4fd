// SPDX-License-Identifier: MIT
#include "coll/rounds.hpp"

#include <cstdlib>

#include "base/log.hpp"
#include "p2p/engine.hpp"
#include "segment/shared_heap.hpp"
#include "segment/wake_word.hpp"

namespace shmpi::coll {

namespace {

using scratch::CollSlot;

const segment::Segment& segment_of() { return mpi::state().engine->segment(); }

std::atomic<std::uint64_t>* bulk_words(Comm& comm) {
  mpi::detail::CommShared& shared = *comm.shared;
  if (shared.bulk == nullptr) {
    // The world block sits at a fixed place and its header is never
    // written; every other block's header says its capacity.
    const std::uint32_t capacity = &comm == &mpi::state().world
                                       ? segment_of().layout().config.capacity
                                       : shared.block->header.capacity;
    shared.bulk = shared.block->bulk_words(capacity);
  }
  return shared.bulk;
}

CollSlot& member_slot(Comm& comm, int m, std::uint64_t round) {
  return comm.shared->block->coll_slot(static_cast<std::uint32_t>(m), round);
}

}  // namespace

bool writable_now(Comm& comm) {
  mpi::detail::CommShared& shared = *comm.shared;
  if (shared.all_seen >= shared.round) {
    return true;
  }
  for (int m = 0; m < comm.size; ++m) {
    // Acquire: pairs with the member's release in publish(); its reads of
    // our older data happened before.
    if (member_slot(comm, m, shared.round)
            .round.load(std::memory_order_acquire) < shared.round) {
      return false;
    }
  }
  shared.all_seen = shared.round;
  return true;
}

void wait_writable(Comm& comm) {
  mpi::state().engine->wait_until([&comm] { return writable_now(comm); });
}

std::byte* write_area(Comm& comm, std::size_t bytes) {
  const std::uint64_t next = comm.shared->round + 1;
  CollSlot& mine = member_slot(comm, comm.rank, next);
  if (bytes <= kInline) {
    mine.where = 0;
    return mine.data;
  }
  std::atomic<std::uint64_t>& word =
      bulk_words(comm)[static_cast<std::size_t>(comm.rank)];
  // Relaxed: only this member writes its word while the block is in use;
  // a recycled block's word was written before the block was handed out
  // (the pool's release/acquire pair orders it).
  std::uint64_t offset = word.load(std::memory_order_relaxed);
  if (offset == 0) {
    void* memory = segment_of().heap().allocate(2 * kBulk);
    if (memory == nullptr) {
      base::log_error(
          "shmpi: the shared heap is full: no room for a %zu-byte "
          "collective buffer (too many communicators with large "
          "collectives?)",
          2 * kBulk);
      mpi::state().runtime->abort_job(1);
    }
    offset = segment_of().offset_of(memory);
    word.store(offset, std::memory_order_relaxed);
  }
  mine.where = offset + (next & 1u) * kBulk;
  return segment_of().at<std::byte>(mine.where);
}

void publish(Comm& comm) {
  const std::uint64_t next = ++comm.shared->round;
  // Release: this round's data before its round number.
  member_slot(comm, comm.rank, next)
      .round.store(next, std::memory_order_release);
  p2p::Engine& engine = *mpi::state().engine;
  for (int m = 0; m < comm.size; ++m) {
    if (m != comm.rank) {
      segment::wake_if_sleeping(
          engine.control(comm.slots[static_cast<std::size_t>(m)]));
    }
  }
}

bool arrived(Comm& comm, int m) {
  const std::uint64_t round = comm.shared->round;
  // Acquire: pairs with the member's release in publish().
  return member_slot(comm, m, round).round.load(std::memory_order_acquire) >=
         round;
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

const std::byte* data_of(Comm& comm, int m) {
  const CollSlot& slot = member_slot(comm, m, comm.shared->round);
  return slot.where == 0 ? slot.data : segment_of().at<std::byte>(slot.where);
}

}  // namespace shmpi::coll
