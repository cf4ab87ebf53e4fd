// SPDX-License-Identifier: MIT
// The send side of the engine: eager pushes into the ring, queuing behind a
// full ring, rendezvous envelopes and chunk publishing, synchronous acks.
#include <algorithm>
#include <cstring>

#include "base/assert.hpp"
#include "base/cache_line.hpp"
#include "base/prefetch.hpp"
#include "base/tsan.hpp"
#include "datatype/type_map.hpp"
#include "p2p/detail/peer.hpp"
#include "p2p/engine.hpp"
#include "p2p/rendezvous_slot.hpp"
#include "segment/shared_heap.hpp"
#include "segment/wake_word.hpp"
#include "shm_queues/chunk_pool.hpp"

namespace shmpi::p2p {

using matching::Envelope;
using matching::Protocol;
using shm_queues::Cell;

void Engine::ring_doorbell(std::uint32_t receiver) {
  segment::RankControl& target = control(receiver);
  const std::uint32_t me = config_.my_slot;
  // Release: pairs with the receiver's acquire exchange; it then polls our
  // ring and finds the published cell.
  target.doorbell[me / 64].fetch_or(std::uint64_t{1} << (me % 64),
                                    std::memory_order_release);
  segment::wake_if_sleeping(target);
}

bool Engine::try_push_eager(Peer& p, Request& request) {
  const bool sync = request.mode == SendMode::kSynchronous;
  return push_eager(p, request.context_id, request.my_rank, request.tag,
                    request.layout, sync ? &request : nullptr);
}

bool Engine::push_eager(Peer& p, std::uint16_t context_id, std::int32_t my_rank,
                        std::int32_t tag, const datatype::Layout& data,
                        const Request* sync_request) {
  const bool sync = sync_request != nullptr;
  const std::size_t skip = sync ? sizeof(std::uint64_t) : 0;
  const std::uint64_t length = data.bytes;
  const std::uint32_t cells = matching::eager_cells(length + skip);
  if (!p.producer.has_room(cells) && !p.producer.want_room(cells)) {
    return false;
  }
  Cell& head = p.producer.cell(0);
  Envelope envelope{Protocol::kEager,
                    sync ? std::uint8_t{matching::kFlagSync} : std::uint8_t{0},
                    context_id,
                    my_rank,
                    tag,
                    0,
                    0};
  envelope.set_length(length);
  matching::write_envelope(head, envelope);
  if (sync) {
    auto cookie = reinterpret_cast<std::uint64_t>(
        sync_request);  // NOLINT: echoed back to us
    std::memcpy(matching::head_payload(head), &cookie, sizeof cookie);
    // TSan: pairs with the acquire where the ack completes the request,
    // maybe in another thread (engine.cpp, kSyncAck).
    base::tsan_release(sync_request);
  }
  std::size_t first =
      std::min<std::uint64_t>(length, matching::kHeadPayloadBytes - skip);
  datatype::pack(data, 0, matching::head_payload(head) + skip, first);
  if (cells > 1) {  // most messages fit the head cell
    push_continuations(p, data, first, cells);
  }
  if (p.producer.publish(cells)) {
    ring_doorbell(p.slot);
  }
  return true;
}

void Engine::push_continuations(Peer& p, const datatype::Layout& data,
                                std::uint64_t offset, std::uint32_t cells) {
  for (std::uint32_t k = 1; k < cells; ++k) {
    Cell& cell = p.producer.cell(k);
    // Relaxed: published by the head cell's release in publish().
    cell.seq.store(shm_queues::kContinuation, std::memory_order_relaxed);
    std::size_t n = std::min<std::uint64_t>(
        data.bytes - offset, matching::kContinuationPayloadBytes);
    datatype::pack(data, offset, cell.body, n);
    if (n < matching::kContinuationPayloadBytes) {
      // The rest of a partly filled last cell is written too. Measured, not
      // explained: with a last cell of fewer than 32 payload bytes a
      // ping-pong of 48-64-byte messages took 0.35-0.44 us one way, against
      // 0.25-0.29 with this store and 0.21 for one-cell messages (128 bytes:
      // 0.39-0.45 against 0.28-0.32); messages whose last cell held 32
      // bytes or more were not slow. Filling the cell from a zeroed copy on
      // the stack instead helped half as much (docs/bench.md).
      std::memset(cell.body + n, 0, matching::kContinuationPayloadBytes - n);
    }
    offset += n;
  }
}

void Engine::own_next_cell(std::uint32_t peer_slot) noexcept {
  if (own_cells_) {
    peer(peer_slot).producer.own_next();
  }
}

bool Engine::send_now(std::uint32_t peer_slot, std::uint16_t context_id,
                      std::int32_t my_rank, std::int32_t tag,
                      const datatype::Layout& data) {
  if (config_.thread_multiple || !in_cells(data, SendMode::kStandard)) {
    return false;
  }
  Peer& p = peer(peer_slot);
  return p.queue_head == nullptr &&
         push_eager(p, context_id, my_rank, tag, data, nullptr);
}

bool Engine::try_push_rendezvous(Peer& p, Request& request) {
  if (request.send_state == SendState::kIdle && !start_rendezvous(request)) {
    return false;  // every slot is in flight: stay queued, in order
  }
  if (!p.producer.has_room(1) && !p.producer.want_room(1)) {
    return false;
  }
  Cell& head = p.producer.cell(0);
  std::uint8_t flags = 0;
  if (request.mode == SendMode::kSynchronous) {
    flags |= matching::kFlagSync;
  }
  if (request.eager_rendezvous || request.heap_offer) {
    flags |= matching::kFlagEagerRendezvous;
  }
  Envelope envelope{Protocol::kRendezvous,
                    flags,
                    request.context_id,
                    request.my_rank,
                    request.tag,
                    0,
                    0};
  envelope.set_length(request.layout.bytes);
  matching::write_envelope(head, envelope);
  std::memcpy(matching::head_payload(head), &request.slot_index,
              sizeof request.slot_index);
  if (p.producer.publish(1)) {
    ring_doorbell(p.slot);
  }
  return true;
}

std::optional<std::uint32_t> Engine::take_chunk_from(
    Peer& p, int keep_free, std::uint64_t* free_before) {
  // Relaxed: a hint (Peer::chunk_cursor); the pool's CAS synchronises.
  std::optional<std::uint32_t> id = shm_queues::take_chunk(
      pool(p.slot), keep_free, p.chunk_cursor.load(std::memory_order_relaxed),
      free_before);
  if (id) {
    p.chunk_cursor.store(*id + 1, std::memory_order_relaxed);
  }
  return id;
}

Engine::ChunkPush Engine::try_push_chunk(Peer& p, Request& request) {
  const datatype::Layout& data = request.layout;
  if (request.mode == SendMode::kSynchronous ||
      data.bytes > config_.eager_max ||
      data.bytes > layout_.config.chunk_bytes) {
    return ChunkPush::kNotEligible;  // synchronous sends complete at the match
  }
  if (offers_heap(data) && (!request.caller_waits || data.bytes >= kSplitMin)) {
    // A buffer in the shared heap is copied once, by the receiver, through
    // a rendezvous slot (the heap offer), and the send completes when that
    // copy is done. Unless the caller waits for it below kSplitMin: then
    // the chunk's extra copy costs less than waiting for the receiver
    // (2-rank blocking sends with the sender writing its buffer and the
    // receiver reading it, 2-32 KiB: ping-pong 10-25% faster, streams
    // 2-2.7x; docs/bench.md). Nonblocking sends keep the offer: there the
    // sender goes on, and a window of them moves twice the bandwidth.
    return ChunkPush::kNotEligible;
  }
  if (!p.producer.has_room(1) && !p.producer.want_room(1)) {
    return ChunkPush::kRingFull;
  }
  // Not yet matched as far as we know: leave the receiver the share of its
  // pool that committed transfers need (as an unmatched rendezvous would).
  std::uint64_t free_before = 0;
  auto id = take_chunk_from(p, keep_free_unmatched_, &free_before);
  if (!id) {
    return ChunkPush::kNoChunk;
  }
  datatype::pack(data, 0, chunk(p.slot, *id), data.bytes);
  Cell& head = p.producer.cell(0);
  Envelope envelope{Protocol::kChunk,
                    0,
                    request.context_id,
                    request.my_rank,
                    request.tag,
                    0,
                    0};
  envelope.set_length(data.bytes);
  matching::write_envelope(head, envelope);
  const std::uint32_t chunk_id = *id;
  std::memcpy(matching::head_payload(head), &chunk_id, sizeof chunk_id);
  // The ring's release (publish) makes the chunk's bytes visible with the
  // envelope.
  if (p.producer.publish(1)) {
    ring_doorbell(p.slot);
  }
  own_next_chunk(p, chunk_id, free_before, data.bytes);
  return ChunkPush::kPushed;
}

void Engine::own_next_chunk(const Peer& p, std::uint32_t taken,
                            std::uint64_t free_before, std::size_t bytes) {
  // The next chunk message to this receiver (ours, or another sender's:
  // the hint costs nothing then) takes the chunk after this one, whose
  // lines sit in the receiver's cache or the shared one. Asked for now,
  // they are ours when the next message is packed, instead of arriving one
  // miss at a time while the receiver waits (ping-pong of 4-32 KiB through
  // chunks 20-29% faster, docs/bench.md). Only a chunk that was free when
  // we took ours: one holding an unread message would lose its lines from
  // under its reader.
  if (!prefetch_chunks_) {
    return;
  }
  const std::uint32_t next = (taken + 1) % layout_.config.chunks_per_rank;
  if ((free_before & (std::uint64_t{1} << next)) == 0) {
    return;
  }
  const std::byte* at = chunk(p.slot, next);
  for (std::size_t k = 0; k < bytes; k += kCacheLineSize) {
    base::prefetch_for_write(at + k);
  }
}

bool Engine::try_push(Peer& p, Request& request) {
  if (request.part_control) {
    if (!try_push_part_control(p, request)) {
      return false;
    }
    delete &request;
    return true;
  }
  if (request.sync_ack) {
    // A queued synchronous-send acknowledgement.
    if (!p.producer.has_room(1) && !p.producer.want_room(1)) {
      return false;
    }
    Cell& head = p.producer.cell(0);
    Envelope envelope{Protocol::kSyncAck, 0, 0, 0, 0, 0, 0};
    matching::write_envelope(head, envelope);
    std::memcpy(matching::head_payload(head), &request.ack_cookie,
                sizeof request.ack_cookie);
    if (p.producer.publish(1)) {
      ring_doorbell(p.slot);
    }
    delete &request;
    return true;
  }
  if (in_cells(request.layout, request.mode)) {
    if (!try_push_eager(p, request)) {
      return false;
    }
    request.send_state = SendState::kIdle;
    if (request.mode != SendMode::kSynchronous) {
      complete(request);
    }
    return true;
  }
  if (request.send_state == SendState::kIdle) {
    switch (try_push_chunk(p, request)) {
      case ChunkPush::kPushed:
        complete(request);
        return true;
      case ChunkPush::kRingFull:
        return false;
      case ChunkPush::kNoChunk:
      case ChunkPush::kNotEligible:
        break;
    }
  }
  if (!try_push_rendezvous(p, request)) {
    return false;
  }
  request.send_state = SendState::kRendezvousPushed;
  return true;
}

void Engine::queue(Peer& p, Request& request) {
  request.next_queued = nullptr;
  if (p.queue_tail != nullptr) {
    p.queue_tail->next_queued = &request;
  } else {
    p.queue_head = &request;
  }
  p.queue_tail = &request;
  if (!p.in_queued_list) {
    p.in_queued_list = true;
    queued_peers_.push_back(p.slot);
  }
}

bool Engine::advance_queues() {
  bool did = false;
  for (std::size_t i = 0; i < queued_peers_.size();) {
    Peer& p = peer(queued_peers_[i]);
    std::unique_lock<std::mutex> lock(p.send_mutex, std::defer_lock);
    if (config_.thread_multiple) {
      lock.lock();
    }
    while (p.queue_head != nullptr) {
      Request* head = p.queue_head;
      Request* next = head->next_queued;
      if (!try_push(p, *head)) {
        break;
      }
      did = true;
      p.queue_head = next;
      if (next == nullptr) {
        p.queue_tail = nullptr;
      }
    }
    if (p.queue_head == nullptr) {
      p.in_queued_list = false;
      queued_peers_[i] = queued_peers_.back();
      queued_peers_.pop_back();
    } else {
      ++i;
    }
  }
  return did;
}

void Engine::send_sync_ack(std::uint32_t peer_slot, std::uint64_t cookie) {
  Peer& p = peer(peer_slot);
  std::unique_lock<std::mutex> lock(p.send_mutex, std::defer_lock);
  if (config_.thread_multiple) {
    lock.lock();
  }
  if (p.queue_head == nullptr &&
      (p.producer.has_room(1) || p.producer.want_room(1))) {
    Cell& head = p.producer.cell(0);
    Envelope envelope{Protocol::kSyncAck, 0, 0, 0, 0, 0, 0};
    matching::write_envelope(head, envelope);
    std::memcpy(matching::head_payload(head), &cookie, sizeof cookie);
    if (p.producer.publish(1)) {
      ring_doorbell(p.slot);
    }
    return;
  }
  auto* ack = new Request();
  ack->internal = true;
  ack->kind = RequestKind::kSend;
  ack->sync_ack = true;
  ack->ack_cookie = cookie;
  queue(p, *ack);
}

bool Engine::offers_heap(const datatype::Layout& data) const {
  // A padded pair type's elements too (MPI_DOUBLE_INT, ...): the receiver
  // finds their map by the type (RendezvousSlot::source_pair), so it still
  // copies once, straight from our buffer, instead of through chunks.
  return (data.map == nullptr || data.map->pair_id != 0) &&
         segment_.in_heap(data.base, datatype::memory_span(data));
}

bool Engine::start_rendezvous(Request& request) {
  // Runs under the progress lock (when threads are in use).
  if (free_slots_.empty()) {
    return false;
  }
  request.send_state = SendState::kRendezvous;
  request.slot_index = free_slots_.back();
  free_slots_.pop_back();
  RendezvousSlot& s = slot(config_.my_slot, request.slot_index);
  const std::uint32_t chunk_bytes = layout_.config.chunk_bytes;
  s.total_bytes = request.layout.bytes;
  s.generation = ++slot_generation_[request.slot_index];
  s.chunk_bytes = chunk_bytes;
  s.source_heap_offset = offers_heap(request.layout)
                             ? segment_.offset_of(request.layout.base)
                             : kNoHeapOffset;
  s.source_pair =
      request.layout.map == nullptr ? 0 : request.layout.map->pair_id;
  // Relaxed: all of these are published to the receiver by the ring's
  // release when the envelope is pushed.
  s.published.store(0, std::memory_order_relaxed);
  s.direct_from.store(kNotDirect, std::memory_order_relaxed);
  s.matched.store(kUnmatched, std::memory_order_relaxed);
  s.done.store(0, std::memory_order_relaxed);
  s.consumed.store(0, std::memory_order_relaxed);
  request.chunks_published = 0;
  request.chunks_total = (request.layout.bytes + chunk_bytes - 1) / chunk_bytes;
  const bool eager = request.mode != SendMode::kSynchronous &&
                     request.layout.bytes <= config_.eager_max;
  request.eager_rendezvous = eager && s.source_heap_offset == kNoHeapOffset;
  request.heap_offer = eager && s.source_heap_offset != kNoHeapOffset;
  rendezvous_sends_.push_back(&request);
  // No wake: the receiver cannot wait for this transfer before the
  // envelope that names it, and pushing that rings and wakes.
  publish_chunks(request, /*wake=*/false);
  return true;
}

bool Engine::publish_chunks(Request& request, bool wake) {
  RendezvousSlot& s = slot(config_.my_slot, request.slot_index);
  if (s.source_heap_offset != kNoHeapOffset) {
    // The receiver copies straight from our buffer; when its buffer is in
    // the heap too, we may take the second half of that copy.
    // Acquire: pairs with the receiver's release of the split fields.
    if (s.matched.load(std::memory_order_acquire) != kMatchedDirect) {
      return false;
    }
    std::uint64_t unclaimed = kNotDirect;
    if (!s.direct_from.compare_exchange_strong(unclaimed, kSenderCopying,
                                               std::memory_order_acq_rel)) {
      return false;  // the receiver took it (or we already did)
    }
    {
      // TSan: the receiver's buffer may have been ours before, or be ours
      // next (segment/shared_heap.hpp).
      const segment::SharedHeap::ForeignUse use(segment_.heap());
      if (request.layout.map == nullptr) {
        std::memcpy(
            segment_.at<std::byte>(s.destination_heap_offset + s.split_at),
            request.layout.base + s.split_at, s.destination_bytes - s.split_at);
      } else {
        // A padded pair type on both sides (the receiver checked): the
        // receive buffer has our map.
        const datatype::Layout destination{
            segment_.at<std::byte>(s.destination_heap_offset),
            s.destination_bytes, request.layout.map};
        datatype::copy(request.layout, s.split_at, destination, s.split_at,
                       s.destination_bytes - s.split_at);
      }
    }
    // Release: our copy is visible before the receiver completes.
    s.direct_from.store(0, std::memory_order_release);
    segment::wake_if_sleeping(control(request.peer_slot));
    return true;
  }
  shm_queues::ChunkPoolShared& target = pool(request.peer_slot);
  Peer& to = peer(request.peer_slot);
  const std::uint64_t chunk_bytes = s.chunk_bytes;
  // Acquire: pairs with the receiver's release of matched (and of the
  // destination fields with kMatchedDirect).
  const std::uint32_t match_state = s.matched.load(std::memory_order_acquire);
  const bool matched = match_state != kUnmatched;
  if (match_state == kMatchedDirect &&
      request.chunks_published < request.chunks_total) {
    // The receive buffer is in the shared heap: one copy for the rest.
    const std::uint64_t from = request.chunks_published * chunk_bytes;
    const std::uint64_t limit =
        std::min<std::uint64_t>(request.layout.bytes, s.destination_bytes);
    if (from < limit) {
      const segment::SharedHeap::ForeignUse use(segment_.heap());  // TSan
      datatype::pack(request.layout, from,
                     segment_.at<std::byte>(s.destination_heap_offset + from),
                     limit - from);
    }
    // Release: the copy is complete before the receiver sees direct_from.
    s.direct_from.store(request.chunks_published, std::memory_order_release);
    request.chunks_published = request.chunks_total;
    segment::wake_if_sleeping(control(request.peer_slot));
    return true;
  }
  const std::uint64_t before = request.chunks_published;
  while (request.chunks_published < request.chunks_total) {
    // Relaxed: a bound on chunks we hold; reuse is ordered by the pool.
    const std::uint64_t held =
        request.chunks_published - s.consumed.load(std::memory_order_relaxed);
    if (!matched && held >= max_unmatched_chunks_) {
      break;
    }
    const int keep_free = matched ? 0 : keep_free_unmatched_;
    auto id = take_chunk_from(to, keep_free);
    if (!id) {
      const std::uint32_t me = config_.my_slot;
      // Register, then look again: either we see the chunk the receiver
      // returns, or it sees our bit and wakes us (seq_cst on both sides).
      target.want[me / 64].fetch_or(std::uint64_t{1} << (me % 64),
                                    std::memory_order_seq_cst);
      std::atomic_thread_fence(std::memory_order_seq_cst);
      id = take_chunk_from(to, keep_free);
      if (!id) {
        // The receiver may hold our earlier messages in its chunks, parked
        // until matched, and be asleep: it spills them when it sees us.
        segment::wake_if_sleeping(control(request.peer_slot));
        break;
      }
    }
    const std::uint64_t offset = request.chunks_published * chunk_bytes;
    const std::uint64_t n =
        std::min(chunk_bytes, request.layout.bytes - offset);
    datatype::pack(request.layout, offset, chunk(request.peer_slot, *id), n);
    s.chunk_ids[request.chunks_published % kChunkWindow] =
        static_cast<std::uint8_t>(*id);
    ++request.chunks_published;
    // Release: the chunk's data and its id are visible before the count.
    s.published.store(request.chunks_published, std::memory_order_release);
  }
  if (request.chunks_published != before) {
    if (wake) {
      segment::wake_if_sleeping(control(request.peer_slot));
    }
    return true;
  }
  return false;
}

bool Engine::advance_rendezvous_sends() {
  bool did = false;
  for (std::size_t i = 0; i < rendezvous_sends_.size();) {
    Request& request = *rendezvous_sends_[i];
    did |= publish_chunks(request);
    RendezvousSlot& s = slot(config_.my_slot, request.slot_index);
    // Acquire: pairs with the receiver's release of done; it no longer
    // reads our chunks or our buffer.
    const bool done = s.done.load(std::memory_order_acquire) != 0;
    const bool published_all = request.chunks_published == request.chunks_total;
    if (done || (request.eager_rendezvous && published_all &&
                 request.send_state == SendState::kRendezvousPushed)) {
      rendezvous_sends_[i] = rendezvous_sends_.back();
      rendezvous_sends_.pop_back();
      if (done) {
        free_slots_.push_back(request.slot_index);
      } else {
        retiring_slots_.push_back(request.slot_index);
      }
      request.send_state = SendState::kIdle;
      complete(request);
      did = true;
    } else {
      ++i;
    }
  }
  for (std::size_t i = 0; i < retiring_slots_.size();) {
    RendezvousSlot& s = slot(config_.my_slot, retiring_slots_[i]);
    if (s.done.load(std::memory_order_acquire) != 0) {
      free_slots_.push_back(retiring_slots_[i]);
      retiring_slots_[i] = retiring_slots_.back();
      retiring_slots_.pop_back();
      did = true;
    } else {
      ++i;
    }
  }
  return did;
}

void Engine::start_send(Request& request) {
  request.complete.store(false, std::memory_order_relaxed);
  request.status = Status{};
  request.send_state = SendState::kIdle;
  Peer& p = peer(request.peer_slot);
  const bool eager = in_cells(request.layout, request.mode);
  if (eager) {
    // Fast path: only this peer's send lock.
    std::unique_lock<std::mutex> lock(p.send_mutex, std::defer_lock);
    if (config_.thread_multiple) {
      lock.lock();
    }
    if (p.queue_head == nullptr && try_push_eager(p, request)) {
      if (request.mode != SendMode::kSynchronous) {
        request.complete.store(true, std::memory_order_release);
        if (request.user_freed || request.internal) {
          if (lock.owns_lock()) {
            lock.unlock();
          }
          complete(request);
        }
      }
      return;
    }
  }
  ProgressLock progress_lock(progress_mutex_, config_.thread_multiple);
  std::unique_lock<std::mutex> lock(p.send_mutex, std::defer_lock);
  if (config_.thread_multiple) {
    lock.lock();
  }
  // A rendezvous send takes a slot and starts filling chunks in try_push;
  // if the ring or the slots are full it waits in the peer's queue, in order.
  if (p.queue_head != nullptr || !try_push(p, request)) {
    queue(p, request);
  }
}

}  // namespace shmpi::p2p
