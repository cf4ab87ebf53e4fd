// SPDX-License-Identifier: MIT
// The engine's share of partitioned communication: pushing the RTS and its
// withdrawal through the ring, and matching RTSs to MPI_Precv_init requests
// on a queue pair of their own (docs/design.md#partitioned-communication).
#include <algorithm>
#include <cstring>

#include "p2p/detail/peer.hpp"
#include "p2p/engine.hpp"

namespace shmpi::p2p {

using matching::Envelope;
using matching::Protocol;
using shm_queues::Cell;

bool Engine::try_push_part_control(Peer& p, const Request& request) {
  if (!p.producer.has_room(1) && !p.producer.want_room(1)) {
    return false;
  }
  Cell& head = p.producer.cell(0);
  Envelope envelope{request.part_protocol,
                    0,
                    request.context_id,
                    request.my_rank,
                    request.tag,
                    0,
                    0};
  matching::write_envelope(head, envelope);
  std::memcpy(matching::head_payload(head), &request.part_channel,
              sizeof request.part_channel);
  if (p.producer.publish(1)) {
    ring_doorbell(p.slot);
  }
  return true;
}

void Engine::send_part_control(std::uint32_t peer_slot, Protocol protocol,
                               std::uint16_t context_id, std::int32_t my_rank,
                               std::int32_t tag, std::uint64_t channel_offset) {
  // Cold path (request set-up and free): an internal request carries the
  // message, so a full ring queues it behind earlier sends to the peer.
  auto* control = new Request();
  control->internal = true;
  control->kind = RequestKind::kSend;
  control->part_control = true;
  control->part_protocol = protocol;
  control->context_id = context_id;
  control->my_rank = my_rank;
  control->tag = tag;
  control->part_channel = channel_offset;
  ProgressLock progress_lock(progress_mutex_, config_.thread_multiple);
  Peer& p = peer(peer_slot);
  std::unique_lock<std::mutex> lock(p.send_mutex, std::defer_lock);
  if (config_.thread_multiple) {
    lock.lock();
  }
  if (p.queue_head == nullptr && try_push_part_control(p, *control)) {
    delete control;
    return;
  }
  queue(p, *control);
}

namespace {

Request& request_of(matching::PostedEntry* posted) {
  return *reinterpret_cast<Request*>(  // NOLINT: entry embedded in Request
      reinterpret_cast<std::byte*>(posted) - offsetof(Request, posted));
}

void bind(Request& request, std::uint64_t channel_offset,
          std::uint32_t sender_slot) {
  request.part_channel = channel_offset;
  request.part_sender_slot = sender_slot;
  // Release: pairs with the partitioned module's acquire loads; publishes
  // part_channel and part_sender_slot.
  request.part_matched.store(true, std::memory_order_release);
}

}  // namespace

void Engine::handle_part_control(Peer& p, const Cell& head,
                                 const Envelope& envelope) {
  std::uint64_t channel_offset;
  std::memcpy(&channel_offset, matching::head_payload(head),
              sizeof channel_offset);
  release_cells(p, 1);
  if (envelope.protocol == Protocol::kPartWithdraw) {
    // The RTS came before it through the same FIFO ring. If a receive
    // matched it already, that receive releases the channel when freed.
    auto it = std::find_if(part_unexpected_.begin(), part_unexpected_.end(),
                           [&](const PartRts* rts) {
                             return rts->channel_offset == channel_offset &&
                                    rts->sender_slot == p.slot;
                           });
    if (it != part_unexpected_.end()) {
      PartRts* rts = *it;
      part_match_.remove_unexpected(&rts->entry);
      part_unexpected_.erase(it);
      delete rts;
      if (part_releaser_ != nullptr) {
        part_releaser_(channel_offset);
      }
    }
    return;
  }
  matching::PostedEntry* posted = part_match_.match_posted(
      envelope.context_id, envelope.source, envelope.tag);
  if (posted != nullptr) {
    bind(request_of(posted), channel_offset, p.slot);
    if (config_.thread_multiple) {
      wake_self();  // a Parrived or Wait in another thread may be sleeping
    }
    return;
  }
  auto* rts = new PartRts();  // cold: one per partitioned request pair
  rts->entry.context_id = envelope.context_id;
  rts->entry.source = envelope.source;
  rts->entry.tag = envelope.tag;
  rts->entry.order = part_match_.next_order();
  rts->channel_offset = channel_offset;
  rts->sender_slot = p.slot;
  part_unexpected_.push_back(rts);
  part_match_.add_unexpected(&rts->entry);
}

void Engine::post_part_recv(Request& request) {
  // Take in what the rings hold first: an RTS whose request was freed
  // unstarted is followed by its withdrawal, and a receive posted between
  // the two would match a request that no longer exists. (Bounded: a
  // flood of traffic must not keep MPI_Precv_init here.)
  for (int round = 0; round < 64 && progress(); ++round) {
  }
  ProgressLock lock(progress_mutex_, config_.thread_multiple);
  matching::UnexpectedEntry* entry = part_match_.match_unexpected(
      request.context_id, request.peer, request.tag, false);
  if (entry != nullptr) {
    auto* rts = reinterpret_cast<PartRts*>(entry);  // NOLINT: first member
    part_unexpected_.erase(
        std::find(part_unexpected_.begin(), part_unexpected_.end(), rts));
    bind(request, rts->channel_offset, rts->sender_slot);
    delete rts;
    return;
  }
  request.posted.context_id = request.context_id;
  request.posted.source = request.peer;
  request.posted.tag = request.tag;
  request.posted.order = part_match_.next_order();
  part_match_.post(&request.posted);
}

bool Engine::remove_part_recv(Request& request) {
  ProgressLock lock(progress_mutex_, config_.thread_multiple);
  return part_match_.remove_posted(&request.posted);
}

}  // namespace shmpi::p2p
