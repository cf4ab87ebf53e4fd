// SPDX-License-Identifier: MIT
// The receive side of rendezvous transfers: committing to a transfer,
// draining the sender's published chunks into the destination, returning
// chunks to this rank's pool and waking senders that wait for them, and
// parking unmatched eager-rendezvous messages in their chunks until a
// receive takes them or a waiting sender needs the chunks back.
#include <algorithm>
#include <bit>

#include "base/assert.hpp"
#include "base/cache_line.hpp"
#include "datatype/type_map.hpp"
#include "p2p/detail/peer.hpp"
#include "p2p/engine.hpp"
#include "p2p/rendezvous_slot.hpp"
#include "p2p/unexpected.hpp"
#include "segment/shared_heap.hpp"
#include "segment/wake_word.hpp"
#include "shm_queues/chunk_pool.hpp"

namespace shmpi::p2p {

void Engine::begin_drain(Request& request, std::uint32_t sender,
                         std::uint32_t slot_index, std::uint64_t total_bytes) {
  RendezvousSlot& s = slot(sender, slot_index);
  const std::uint64_t bytes = request.status.bytes;
  // The sender's form and ours agree: both contiguous, or both the same
  // padded pair type (MPI_DOUBLE_INT sent and received as itself).
  const bool same_form =
      s.source_pair == 0
          ? request.layout.map == nullptr
          : request.layout.map == datatype::padded_pair_map(s.source_pair);
  if (s.source_heap_offset != kNoHeapOffset && same_form &&
      bytes >= kSplitMin &&
      segment_.in_heap(request.layout.base,
                       datatype::memory_span(request.layout))) {
    // Both buffers in the heap: the sender (blocked in its wait, usually)
    // may copy the second half while we copy the first. A pair type's
    // halves end at an element.
    const std::uint64_t split = s.source_pair == 0
                                    ? line_aligned_half(bytes)
                                    : bytes / request.layout.map->packed / 2 *
                                          request.layout.map->packed;
    s.destination_heap_offset = segment_.offset_of(request.layout.base);
    s.destination_bytes = bytes;
    s.split_at = split;
    // Release: publishes the destination fields (pairs with the acquire in
    // publish_chunks()).
    s.matched.store(kMatchedDirect, std::memory_order_release);
    segment::wake_if_sleeping(control(sender));
    const std::byte* source = segment_.at<std::byte>(s.source_heap_offset);
    bool whole = false;
    {
      // TSan: the sender's buffer may have been ours before, or be ours
      // next (segment/shared_heap.hpp).
      const segment::SharedHeap::ForeignUse use(segment_.heap());
      if (s.source_pair == 0) {
        std::memcpy(request.layout.base, source, split);
      } else {
        datatype::copy(source_layout(s), 0, request.layout, 0, split);
      }
      std::uint64_t unclaimed = kNotDirect;
      // acq_rel: the sender's claim and ours exclude each other.
      whole = s.direct_from.compare_exchange_strong(unclaimed, kReceiverCopying,
                                                    std::memory_order_acq_rel);
      if (whole) {
        if (s.source_pair == 0) {
          std::memcpy(request.layout.base + split, source + split,
                      bytes - split);
        } else {
          datatype::copy(source_layout(s), split, request.layout, split,
                         bytes - split);
        }
      }
    }
    if (whole) {
      s.done.store(1, std::memory_order_release);
      segment::wake_if_sleeping(control(sender));
      complete(request);
      return;
    }
    // The sender copies the rest; drain_slot() sees direct_from == 0 (no
    // chunks, all of it copied) and finishes. Not the tail below: it would
    // store kMatched over kMatchedDirect.
    follow_drain(request, sender, slot_index, total_bytes);
    return;
  }
  if (s.source_heap_offset != kNoHeapOffset) {
    // Release: tells the sender a receive owns the message (pairs with the
    // acquire in publish_chunks()); we copy straight from its buffer.
    s.matched.store(kMatched, std::memory_order_release);
    {
      const segment::SharedHeap::ForeignUse use(segment_.heap());  // TSan
      datatype::copy(source_layout(s), 0, request.layout, 0,
                     request.status.bytes);
    }
    s.done.store(1, std::memory_order_release);
    segment::wake_if_sleeping(control(sender));
    complete(request);
    return;
  }
  // Acquire: pairs with the sender's release of `published`.
  const std::uint64_t published = s.published.load(std::memory_order_acquire);
  if (published * s.chunk_bytes < total_bytes) {
    // Chunks are still to come: tell the sender. (When every chunk is out,
    // an eager rendezvous the sender has finished, `matched` would change
    // nothing it does, so we neither pull its line over nor fence for it.)
    std::uint32_t match_state = kMatched;
    if (request.layout.map == nullptr && request.status.bytes != 0 &&
        segment_.in_heap(request.layout.base, request.status.bytes)) {
      // Our buffer is in the shared heap: the sender copies the rest
      // straight into it.
      s.destination_heap_offset = segment_.offset_of(request.layout.base);
      s.destination_bytes = request.status.bytes;
      match_state = kMatchedDirect;
    }
    // Release: a receive owns the message, so the sender may use the whole
    // pool; publishes the destination fields (pairs with the acquire in
    // publish_chunks()).
    s.matched.store(match_state, std::memory_order_release);
    segment::wake_if_sleeping(control(sender));
  }
  follow_drain(request, sender, slot_index, total_bytes);
}

datatype::Layout Engine::source_layout(const RendezvousSlot& s) {
  return datatype::Layout{segment_.at<std::byte>(s.source_heap_offset),
                          s.total_bytes,
                          datatype::padded_pair_map(s.source_pair)};
}

void Engine::follow_drain(Request& request, std::uint32_t sender,
                          std::uint32_t slot_index, std::uint64_t total_bytes) {
  request.rndv_sender = sender;
  request.rndv_slot = slot_index;
  request.rndv_consumed = 0;
  request.rndv_total_bytes = total_bytes;
  if (drain_slot(sender, slot_index, request.rndv_consumed, total_bytes,
                 datatype::Layout{request.layout.base, request.status.bytes,
                                  request.layout.map})) {
    complete(request);
    return;
  }
  draining_.push_back(&request);
}

bool Engine::drain_slot(std::uint32_t sender, std::uint32_t slot_index,
                        std::uint64_t& consumed, std::uint64_t total_bytes,
                        const datatype::Layout& destination) {
  RendezvousSlot& s = slot(sender, slot_index);
  const std::uint64_t chunk_bytes = s.chunk_bytes;
  const std::uint64_t total_chunks =
      (total_bytes + chunk_bytes - 1) / chunk_bytes;
  // Acquire: pairs with the sender's release of `published`; chunk_ids and
  // the chunks' contents up to it are visible.
  const std::uint64_t published = s.published.load(std::memory_order_acquire);
  if (consumed == published) {
    // Acquire: pairs with the sender's release after its direct copy.
    if (s.direct_from.load(std::memory_order_acquire) == consumed) {
      s.done.store(1, std::memory_order_release);
      segment::wake_if_sleeping(control(sender));
      return true;  // every chunk drained, the rest copied by the sender
    }
    return false;
  }
  std::uint64_t returned = 0;
  const std::uint32_t me = config_.my_slot;
  while (consumed < published) {
    const std::uint32_t id = s.chunk_ids[consumed % kChunkWindow];
    const std::uint64_t offset = consumed * chunk_bytes;
    const std::uint64_t n = std::min(chunk_bytes, total_bytes - offset);
    if (offset < destination.bytes) {
      datatype::unpack(destination, offset, chunk(me, id),
                       std::min(n, destination.bytes - offset));
    }
    returned |= std::uint64_t{1} << id;
    ++consumed;
  }
  // Relaxed: informational for the sender; chunk reuse is ordered by the
  // pool's release below.
  s.consumed.store(consumed, std::memory_order_relaxed);
  const bool whole = consumed == total_chunks;
  if (whole) {
    // Release: every read of the transfer happens before the sender frees
    // the slot (pairs with its acquire of done). Stored before the chunks
    // go back, so that the one fence below covers both events.
    s.done.store(1, std::memory_order_release);
  }
  shm_queues::return_chunks(pool(me), returned);
  wake_chunk_waiters();  // fences: done and the chunks are visible
  if (whole) {
    segment::wake_if_sleeping_fenced(control(sender));
  }
  return whole;
}

void Engine::wake_chunk_waiters() {
  shm_queues::ChunkPoolShared& own = pool(config_.my_slot);
  // seq_cst: the chunks we returned are visible before we look for waiters
  // (pairs with the fence a sender runs after registering in `want`).
  std::atomic_thread_fence(std::memory_order_seq_cst);
  for (std::uint32_t w = 0; w < doorbell_words_; ++w) {
    if (own.want[w].load(std::memory_order_relaxed) == 0) {
      continue;
    }
    std::uint64_t bits = own.want[w].exchange(0, std::memory_order_relaxed);
    while (bits != 0) {
      auto bit = static_cast<std::uint32_t>(std::countr_zero(bits));
      bits &= bits - 1;
      segment::wake_if_sleeping(control(w * 64 + bit));
    }
  }
}

void Engine::unpark(UnexpectedMessage* message) {
  auto it = std::find(parked_.begin(), parked_.end(), message);
  SHMPI_ASSERT(it != parked_.end(), "parked message not in the parked list");
  parked_.erase(it);  // keeps arrival order: spills take the oldest first
  message->parked = false;
}

void Engine::spill(UnexpectedMessage* message) {
  // As if no receive will come soon: drain the chunk into process memory
  // now, so the chunk goes back to the pool.
  unpark(message);
  if (message->length > sizeof message->inline_data) {
    message->data = static_cast<std::byte*>(std::malloc(message->length));
    SHMPI_ASSERT(message->data != nullptr,
                 "out of memory for an unexpected message");
  }
  if (message->protocol == matching::Protocol::kChunk) {
    // Copied out now, it is an eager message like any other.
    take_chunk_message(
        message->slot_index, message->length,
        datatype::Layout{message->data, message->length, nullptr});
    message->protocol = matching::Protocol::kEager;
    message->drained = true;
    return;
  }
  RendezvousSlot& s = slot(message->sender_slot, message->slot_index);
  // Release (pairs with the acquire in publish_chunks): we drain it
  // whatever the matching says, so the sender may use the whole pool for
  // a chunk it has not published yet, as for a matched transfer.
  s.matched.store(kMatched, std::memory_order_release);
  segment::wake_if_sleeping(control(message->sender_slot));
  draining_unexpected_.push_back(message);
}

bool Engine::chunks_wanted() const {
  const shm_queues::ChunkPoolShared& own = pool(config_.my_slot);
  for (std::uint32_t w = 0; w < doorbell_words_; ++w) {
    // Relaxed: a hint. A sender that registers after this load and finds
    // no chunk sleeps until some chunk comes back, and the next pass (or
    // the wait loop before it sleeps) looks again.
    if (own.want[w].load(std::memory_order_relaxed) != 0) {
      return true;
    }
  }
  return false;
}

bool Engine::relieve_pool_pressure(bool now) {
  if (parked_.empty()) {
    return false;
  }
  if (!chunks_wanted()) {
    pressure_passes_ = 0;
    return false;
  }
  // A receive usually takes a parked message within a pass or two (a
  // stream of blocking sends); a sender still waiting after many passes,
  // or while we are about to give the core away, means nobody will.
  if (!now && ++pressure_passes_ < kSpillAfterPasses) {
    return false;
  }
  pressure_passes_ = 0;
  while (!parked_.empty()) {
    spill(parked_.front());
  }
  return true;
}

bool Engine::relieve_before_waiting() {
  std::unique_lock<std::mutex> lock(progress_mutex_, std::defer_lock);
  if (config_.thread_multiple && !lock.try_lock()) {
    return false;  // the thread that holds it progresses
  }
  return relieve_pool_pressure(true);
}

bool Engine::drain_requests() {
  bool did = false;
  for (std::size_t i = 0; i < draining_.size();) {
    Request& request = *draining_[i];
    const std::uint64_t before = request.rndv_consumed;
    bool whole =
        drain_slot(request.rndv_sender, request.rndv_slot,
                   request.rndv_consumed, request.rndv_total_bytes,
                   datatype::Layout{request.layout.base, request.status.bytes,
                                    request.layout.map});
    did |= request.rndv_consumed != before;
    if (whole) {
      draining_[i] = draining_.back();
      draining_.pop_back();
      complete(request);
    } else {
      ++i;
    }
  }
  return did;
}

bool Engine::drain_unexpected() {
  bool did = false;
  for (std::size_t i = 0; i < draining_unexpected_.size();) {
    UnexpectedMessage* message = draining_unexpected_[i];
    const std::uint64_t before = message->consumed;
    bool whole =
        drain_slot(message->sender_slot, message->slot_index, message->consumed,
                   message->length,
                   datatype::Layout{message->data, message->length, nullptr});
    did |= message->consumed != before;
    if (whole) {
      draining_unexpected_[i] = draining_unexpected_.back();
      draining_unexpected_.pop_back();
      message->drained = true;
      if (message->waiting != nullptr) {
        Request& request = *message->waiting;
        datatype::unpack(request.layout, 0, message->data,
                         request.status.bytes);
        free_unexpected(message);
        complete(request);
      }
    } else {
      ++i;
    }
  }
  return did;
}

}  // namespace shmpi::p2p
