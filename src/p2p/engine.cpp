// SPDX-License-Identifier: MIT
#include "p2p/engine.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "base/assert.hpp"
#include "base/log.hpp"
#include "base/prefetch.hpp"
#include "base/tool_event_hook.hpp"
#include "base/tsan.hpp"
#include "p2p/detail/peer.hpp"
#include "p2p/rendezvous_slot.hpp"
#include "p2p/unexpected.hpp"
#include "segment/shared_heap.hpp"
#include "segment/wake_word.hpp"
#include "shm_queues/chunk_pool.hpp"

namespace shmpi::p2p {

using matching::Envelope;
using matching::Protocol;
using shm_queues::Cell;

namespace {
constexpr int kErrTruncate = 15;  // MPI_ERR_TRUNCATE
constexpr int kMaxMessagesPerPoll = 32;
// How many cells past the next message poll_rings() asks for while it
// drains a backlog (shm_queues::RingConsumer::read_ahead()). Measured with
// 0-8 byte messages in windows of 64: 2 gains half of what 4-8 do.
constexpr std::uint32_t kReadAheadCells = 6;
}  // namespace

Engine::Engine(const segment::Segment& segment, const EngineConfig& config)
    : segment_(segment),
      layout_(segment.layout()),
      config_(config),
      own_cells_(base::has_prefetchw() && !config.thread_multiple) {
  // Relaxed: no other thread sees the engine yet.
  sleep_timeout_ns_.store(config.sleep_timeout_ns, std::memory_order_relaxed);
  const std::uint32_t capacity = layout_.config.capacity;
  const std::uint32_t cells = layout_.config.ring_cells;
  peers_.reserve(capacity);
  for (std::uint32_t s = 0; s < capacity; ++s) {
    auto peer = std::make_unique<Peer>();
    peer->slot = s;
    peer->producer = shm_queues::RingProducer(
        segment_.at<std::byte>(layout_.ring_offset(config_.my_slot, s)), cells);
    peer->consumer = shm_queues::RingConsumer(
        segment_.at<std::byte>(layout_.ring_offset(s, config_.my_slot)), cells);
    peers_.push_back(std::move(peer));
  }
  doorbell_words_ = (capacity + 63) / 64;
  own_control_ = &control(config_.my_slot);
  const std::uint32_t slots = layout_.config.rendezvous_slots;
  for (std::uint32_t i = slots; i > 0; --i) {
    free_slots_.push_back(i - 1);
  }
  slot_generation_.assign(slots, 0);
  // Deadlock freedom: transfers not yet matched may hold at most a quarter
  // of a pool each and never the last half of it, so matched transfers
  // (which the receiver always drains) can always proceed.
  const std::uint32_t chunks = layout_.config.chunks_per_rank;
  keep_free_unmatched_ = static_cast<int>(chunks / 2);
  prefetch_chunks_ = base::has_prefetchw();
  max_unmatched_chunks_ = std::max<std::uint64_t>(1, chunks / 4);
  config_.ring_eager_max =
      std::min(config_.ring_eager_max, ring_eager_limit(cells));
}

std::size_t Engine::ring_eager_limit(std::uint32_t ring_cells) {
  return matching::kHeadPayloadBytes - 8 +
         (ring_cells / 2 - 1) * matching::kContinuationPayloadBytes;
}

Engine::~Engine() {
  for (UnexpectedMessage* message : unexpected_pool_) {
    delete message;
  }
  for (PartRts* rts : part_unexpected_) {
    delete rts;
  }
}

segment::RankControl& Engine::control(std::uint32_t slot) const {
  return *segment_.at<segment::RankControl>(layout_.control_offset(slot));
}

RendezvousSlot& Engine::slot(std::uint32_t owner, std::uint32_t index) const {
  return *segment_.at<RendezvousSlot>(layout_.slot_offset(owner, index));
}

shm_queues::ChunkPoolShared& Engine::pool(std::uint32_t owner) const {
  return *segment_.at<shm_queues::ChunkPoolShared>(layout_.pool_offset(owner));
}

std::byte* Engine::chunk(std::uint32_t owner, std::uint32_t index) const {
  return segment_.at<std::byte>(layout_.chunk_offset(owner, index));
}

Result<void> Engine::prepare() {
  if (auto populated = segment_.populate_rank_region(config_.my_slot);
      !populated) {
    return populated.error();
  }
  for (std::uint32_t s = 0; s < layout_.config.capacity; ++s) {
    shm_queues::RingConsumer::park_initial(
        segment_.at<std::byte>(layout_.ring_offset(s, config_.my_slot)));
  }
  // Relaxed: published to the other ranks by the start-up barrier.
  pool(config_.my_slot)
      .free_mask.store(
          shm_queues::all_chunks_mask(layout_.config.chunks_per_rank),
          std::memory_order_relaxed);
  return {};
}

bool Engine::note_long_yield() {
  // The fourth field of /proc/loadavg: tasks runnable now, machine-wide,
  // this one included. More than the job's ranks that are not asleep
  // means other programs compete for the cores.
  unsigned runnable = 0;
  if (std::FILE* file = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(file, "%*s %*s %*s %u", &runnable) != 1) {
      runnable = 0;
    }
    std::fclose(file);
  }
  unsigned awake = 0;
  for (std::uint32_t slot = config_.world_base;
       slot < config_.world_base + config_.world_size; ++slot) {
    // Relaxed: a snapshot for a heuristic.
    if ((control(slot).wake_word.load(std::memory_order_relaxed) &
         segment::kSleeperMask) == 0) {
      ++awake;
    }
  }
  // One more: a rank between announcing its sleep and falling asleep
  // counts as asleep but is still runnable.
  if (runnable <= awake + 1) {
    return false;
  }
  skip_yields_.store(kSleepInsteadOfYield, std::memory_order_relaxed);
  return true;
}

bool Engine::abort_raised() const {
  // Relaxed: a hint to stop waiting; the launcher ends the job anyway.
  return segment_.header().abort_flag.load(std::memory_order_relaxed) != 0;
}

void Engine::abort_wait() const {
  // Another rank died or called MPI_Abort: the launcher is ending the job.
  int code = segment_.header().abort_code.load(std::memory_order_relaxed);
  ::_exit(code != 0 ? code : 1);
}

void Engine::wake_self() { segment::wake_if_sleeping(*own_control_); }

// ---------------------------------------------------------------- progress

bool Engine::progress() {
  std::unique_lock<std::mutex> lock(progress_mutex_, std::defer_lock);
  if (config_.thread_multiple && !lock.try_lock()) {
    return false;  // another thread is progressing for us
  }
  bool did = ring_doorbell_check();
  did |= poll_rings();
  if (!queued_peers_.empty()) {
    did |= advance_queues();
  }
  if (!rendezvous_sends_.empty() || !retiring_slots_.empty()) {
    did |= advance_rendezvous_sends();
  }
  if (!draining_.empty()) {
    did |= drain_requests();
  }
  if (!draining_unexpected_.empty()) {
    did |= drain_unexpected();
  }
  if (!parked_.empty()) [[unlikely]] {
    did |= relieve_pool_pressure(false);
  }
  if (!tasks_.empty()) [[unlikely]] {
    did |= run_tasks();
  }
  return did;
}

bool Engine::run_tasks() {
  // Tasks must not add tasks or wait (they run inside progress()); they
  // may start sends and receives (running_tasks: the lock is ours).
  bool did = false;
  running_tasks = true;
  for (std::size_t i = 0; i < tasks_.size();) {
    if (tasks_[i]()) {
      tasks_.erase(tasks_.begin() + static_cast<long>(i));
      did = true;
    } else {
      ++i;
    }
  }
  running_tasks = false;
  return did;
}

bool Engine::ring_doorbell_check() {
  segment::RankControl& own = *own_control_;
  bool did = false;
  for (std::uint32_t w = 0; w < doorbell_words_; ++w) {
    // Relaxed: a cheap look; the exchange below synchronises.
    if (own.doorbell[w].load(std::memory_order_relaxed) == 0) {
      continue;
    }
    // Acquire: pairs with the sender's release fetch_or in ring_doorbell().
    std::uint64_t bits = own.doorbell[w].exchange(0, std::memory_order_acquire);
    while (bits != 0) {
      auto bit = static_cast<std::uint32_t>(std::countr_zero(bits));
      bits &= bits - 1;
      activate(w * 64 + bit);
      did = true;
    }
  }
  return did;
}

void Engine::activate(std::uint32_t peer_slot) {
  Peer& p = peer(peer_slot);
  if (!p.active) {
    p.active = true;
    active_.push_back(peer_slot);
  }
}

bool Engine::park_all_rings() {
  std::unique_lock<std::mutex> lock(progress_mutex_, std::defer_lock);
  if (config_.thread_multiple && !lock.try_lock()) {
    return false;  // the other thread is active; do not sleep yet
  }
  for (std::uint32_t s : active_) {
    if (!peer(s).consumer.try_park()) {
      return false;
    }
  }
  return true;
}

bool Engine::poll_rings() {
  bool did = false;
  for (std::size_t i = 0; i < active_.size(); ++i) {
    Peer& p = peer(active_[i]);
    for (int n = 0; n < kMaxMessagesPerPoll; ++n) {
      const Cell* head = p.consumer.peek();
      if (head == nullptr) {
        break;
      }
      did = true;
      const Envelope envelope = matching::read_envelope(*head);
      switch (envelope.protocol) {
        case Protocol::kEager:
          handle_eager(p, *head, envelope);
          break;
        case Protocol::kRendezvous:
          handle_rendezvous(p, *head, envelope);
          break;
        case Protocol::kChunk:
          handle_chunk(p, *head, envelope);
          break;
        case Protocol::kPartRts:
        case Protocol::kPartWithdraw:
          handle_part_control(p, *head, envelope);
          break;
        case Protocol::kSyncAck: {
          std::uint64_t cookie;
          std::memcpy(&cookie, matching::head_payload(*head), sizeof cookie);
          release_cells(p, 1);
          auto* request =
              reinterpret_cast<Request*>(cookie);  // NOLINT: ours, echoed
          // TSan: the thread that sent it, whose push the ack answers,
          // made the request (push_eager()); the order runs through the
          // receiver, which TSan does not see (base/tsan.hpp).
          base::tsan_acquire(request);
          complete(*request);
          break;
        }
        default:
          SHMPI_UNREACHABLE("corrupt envelope in ring");
      }
      // From the second message of a poll on, the producer is ahead of us:
      // ask for a later cell now, so that its line is on its way while we
      // handle the messages before it. Not after the first: a consumer
      // that keeps up would take lines the producer is owning ahead.
      if (n >= 1) {
        p.consumer.read_ahead(kReadAheadCells);
      }
    }
  }
  return did;
}

// ----------------------------------------------------------- receive side

void Engine::release_cells(Peer& p, std::uint32_t cells) {
  if (p.consumer.release(cells)) {
    segment::wake_if_sleeping(control(p.slot));  // it waits for ring room
  }
}

void Engine::complete(Request& request) {
  // Read everything we need from the request first: once complete is true
  // the user may free it and another thread may reuse its memory.
  const bool orphan = request.user_freed || request.internal;
  Request* parent = request.parent;
  if (parent != nullptr && request.status_to_parent) {
    parent->status = request.status;  // the parent is not complete yet
  }
  // Release: the status and the received data are visible to the thread
  // that sees complete == true (pairs with the acquire in wait/test).
  request.complete.store(true, std::memory_order_release);
  // acq_rel: the last part to finish sees the other part's writes (the
  // status) before it completes the parent.
  if (parent != nullptr &&
      parent->pending_parts.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    complete(*parent);
  }
  if (orphan && orphan_handler_ != nullptr) {
    orphan_handler_(&request);
  }
  if (config_.thread_multiple) {
    wake_self();
  }
}

void Engine::finish_recv(Request& request, std::int32_t source,
                         std::int32_t tag, std::uint64_t length) {
  request.status.source = source;
  request.status.tag = tag;
  if (length > request.layout.bytes) {
    request.status.error = kErrTruncate;
    request.status.bytes = request.layout.bytes;
  } else {
    request.status.bytes = length;
  }
}

Request* Engine::match_posted(const Envelope& envelope) {
  matching::PostedEntry* posted =
      match_.match_posted(envelope.context_id, envelope.source, envelope.tag);
  if (posted == nullptr) {
    return nullptr;
  }
  return reinterpret_cast<Request*>(  // NOLINT: entry embedded in Request
      reinterpret_cast<std::byte*>(posted) - offsetof(Request, posted));
}

UnexpectedMessage* Engine::new_unexpected(const Envelope& envelope,
                                          Protocol protocol) {
  UnexpectedMessage* message = new_unexpected();
  message->entry.context_id = envelope.context_id;
  message->entry.source = envelope.source;
  message->entry.tag = envelope.tag;
  message->entry.order = match_.next_order();
  message->protocol = protocol;
  message->length = envelope.length();
  // One relaxed load of a process-local word when no tool listens
  // (base/tool_event_hook.hpp).
  if (base::tool_events::armed(
          base::tool_events::EventType::kUnexpectedMessage)) [[unlikely]] {
    raise_unexpected_event(*message);
  }
  return message;
}

// The sleep and wake events: MPI-restricted (we are inside an MPI call's
// wait, announced as a sleeper), and thread-safe as well under
// MPI_THREAD_MULTIPLE, where several threads of this rank may wait and
// raise them at once.
base::tool_events::SiteSafety Engine::wait_event_safety() const {
  return config_.thread_multiple
             ? base::tool_events::SiteSafety::kThreadSafe
             : base::tool_events::SiteSafety::kMpiRestricted;
}

void Engine::raise_sleep_event(std::int64_t wait_start_ns) const {
  const base::tool_events::WaitSleepElements elements{
      wait_start_ns > 0 ? base::tool_events::monotonic_ns() - wait_start_ns
                        : 0};
  base::tool_events::raise(base::tool_events::EventType::kWaitSleep,
                           wait_event_safety(), &elements);
}

void Engine::raise_wake_event(std::int64_t sleep_start_ns) const {
  const base::tool_events::WaitWakeElements elements{
      base::tool_events::monotonic_ns() - sleep_start_ns};
  base::tool_events::raise(base::tool_events::EventType::kWaitWake,
                           wait_event_safety(), &elements);
}

void Engine::raise_unexpected_event(const UnexpectedMessage& message) const {
  const base::tool_events::UnexpectedMessageElements elements{
      static_cast<std::int64_t>(message.length), message.entry.source,
      message.entry.tag, message.entry.context_id};
  // MPI-restricted: we are inside progress(), mid-way through a ring and
  // (under MPI_THREAD_MULTIPLE) holding the progress lock, so the callback
  // must not call back into MPI; the lock also means one thread at a time.
  base::tool_events::raise(base::tool_events::EventType::kUnexpectedMessage,
                           base::tool_events::SiteSafety::kMpiRestricted,
                           &elements);
}

UnexpectedMessage* Engine::new_unexpected() {
  UnexpectedMessage* message;
  if (unexpected_pool_.empty()) {
    message = new UnexpectedMessage();
  } else {
    message = unexpected_pool_.back();
    unexpected_pool_.pop_back();
    *message = UnexpectedMessage();
  }
  message->data = message->inline_data;
  return message;
}

void Engine::free_unexpected(UnexpectedMessage* message) {
  if (message->data != message->inline_data) {
    std::free(message->data);
  }
  message->data = nullptr;
  unexpected_pool_.push_back(message);
}

namespace {

// Copies bytes [0, length) of an eager message out of its cells, the first
// `skip` payload bytes (the sync cookie) excluded, into sink(offset, p, n).
template <typename Sink>
void copy_eager_payload(const shm_queues::RingConsumer& ring,
                        std::uint64_t length, std::size_t skip, Sink&& sink) {
  const Cell& head = *ring.peek();
  std::size_t first =
      std::min<std::size_t>(length, matching::kHeadPayloadBytes - skip);
  // The continuation cells sit in the sender's cache: ask for all of them
  // at once so the line transfers overlap instead of queuing one by one.
  const std::uint32_t cells = matching::eager_cells(length + skip);
  for (std::uint32_t k = 1; k < cells; ++k) {
    __builtin_prefetch(&ring.cell(k), 0, 3);
  }
  if (first != 0) {
    sink(0, matching::head_payload(head) + skip, first);
  }
  std::uint64_t offset = first;
  for (std::uint32_t k = 1; offset < length; ++k) {
    std::size_t n = std::min<std::uint64_t>(
        length - offset, matching::kContinuationPayloadBytes);
    sink(offset, ring.cell(k).body, n);
    offset += n;
  }
}

}  // namespace

void Engine::handle_eager(Peer& p, const Cell& head, const Envelope& envelope) {
  const bool sync = (envelope.flags & matching::kFlagSync) != 0;
  const std::size_t skip = sync ? sizeof(std::uint64_t) : 0;
  const std::uint64_t length = envelope.length();
  std::uint64_t cookie = 0;
  if (sync) {
    std::memcpy(&cookie, matching::head_payload(head), sizeof cookie);
  }
  const std::uint32_t cells = matching::eager_cells(length + skip);
  if (Request* posted = match_posted(envelope); posted != nullptr) {
    Request& request = *posted;
    finish_recv(request, envelope.source, envelope.tag, length);
    const std::uint64_t limit = request.status.bytes;
    copy_eager_payload(
        p.consumer, length, skip,
        [&](std::uint64_t offset, const std::byte* data, std::size_t n) {
          if (offset < limit) {
            datatype::unpack(request.layout, offset, data,
                             std::min<std::uint64_t>(n, limit - offset));
          }
        });
    release_cells(p, cells);
    if (sync) {
      send_sync_ack(p.slot, cookie);
    }
    complete(request);
    return;
  }
  UnexpectedMessage* message = new_unexpected(envelope, Protocol::kEager);
  message->sync = sync;
  message->sync_cookie = cookie;
  message->sender_slot = p.slot;
  message->drained = true;
  if (length > sizeof message->inline_data) {
    message->data = static_cast<std::byte*>(std::malloc(length));
    SHMPI_ASSERT(message->data != nullptr,
                 "out of memory for an unexpected message");
  }
  copy_eager_payload(
      p.consumer, length, skip,
      [&](std::uint64_t offset, const std::byte* data, std::size_t n) {
        std::memcpy(message->data + offset, data, n);
      });
  release_cells(p, cells);
  match_.add_unexpected(&message->entry);
}

void Engine::handle_rendezvous(Peer& p, const Cell& head,
                               const Envelope& envelope) {
  std::uint32_t slot_index;
  std::memcpy(&slot_index, matching::head_payload(head), sizeof slot_index);
  const bool eager = (envelope.flags & matching::kFlagEagerRendezvous) != 0;
  release_cells(p, 1);
  const std::uint64_t length = envelope.length();
  if (Request* posted = match_posted(envelope); posted != nullptr) {
    Request& request = *posted;
    finish_recv(request, envelope.source, envelope.tag, length);
    begin_drain(request, p.slot, slot_index, length);
    return;
  }
  UnexpectedMessage* message = new_unexpected(envelope, Protocol::kRendezvous);
  message->sync = (envelope.flags & matching::kFlagSync) != 0;
  message->sender_slot = p.slot;
  message->slot_index = slot_index;
  message->eager_rendezvous = eager;
  if (eager && slot(p.slot, slot_index).source_heap_offset != kNoHeapOffset) {
    // A heap offer (Request::heap_offer): the sender waits for us to be done
    // with its buffer and must not wait for a receive: copy it out now.
    take_heap_offer(*message);
  } else if (eager) {
    // The sender has completed (or will, once its chunk is published):
    // leave the bytes in the chunk for the receive that matches, which then
    // copies once instead of twice.
    message->parked = true;
    parked_.push_back(message);
  }
  match_.add_unexpected(&message->entry);
}

void Engine::take_heap_offer(UnexpectedMessage& message) {
  RendezvousSlot& s = slot(message.sender_slot, message.slot_index);
  if (message.length > sizeof message.inline_data) {
    message.data = static_cast<std::byte*>(std::malloc(message.length));
    SHMPI_ASSERT(message.data != nullptr,
                 "out of memory for an unexpected message");
  }
  {
    // TSan: the sender's buffer may have been ours before, or be ours next.
    const segment::SharedHeap::ForeignUse use(segment_.heap());
    datatype::pack(source_layout(s), 0, message.data, message.length);
  }
  message.drained = true;
  // Release: our reads of the sender's buffer happen before it reuses it
  // (pairs with its acquire of done in advance_rendezvous_sends()).
  s.done.store(1, std::memory_order_release);
  segment::wake_if_sleeping(control(message.sender_slot));
}

void Engine::take_chunk_message(std::uint32_t chunk_id, std::uint64_t length,
                                const datatype::Layout& destination) {
  const std::uint32_t me = config_.my_slot;
  datatype::unpack(destination, 0, chunk(me, chunk_id),
                   std::min<std::uint64_t>(length, destination.bytes));
  shm_queues::return_chunks(pool(me), std::uint64_t{1} << chunk_id);
  wake_chunk_waiters();
}

void Engine::handle_chunk(Peer& p, const Cell& head, const Envelope& envelope) {
  std::uint32_t chunk_id;
  std::memcpy(&chunk_id, matching::head_payload(head), sizeof chunk_id);
  release_cells(p, 1);
  const std::uint64_t length = envelope.length();
  if (Request* posted = match_posted(envelope); posted != nullptr) {
    Request& request = *posted;
    finish_recv(request, envelope.source, envelope.tag, length);
    take_chunk_message(
        chunk_id, length,
        datatype::Layout{request.layout.base, request.status.bytes,
                         request.layout.map});
    complete(request);
    return;
  }
  // Parked in its chunk until a receive takes it or a sender needs the
  // chunk (relieve_pool_pressure), as for an eager rendezvous.
  UnexpectedMessage* message = new_unexpected(envelope, Protocol::kChunk);
  message->sender_slot = p.slot;
  message->slot_index = chunk_id;
  message->parked = true;
  parked_.push_back(message);
  match_.add_unexpected(&message->entry);
}

void Engine::deliver_unexpected(UnexpectedMessage* message, Request& request) {
  finish_recv(request, message->entry.source, message->entry.tag,
              message->length);
  if (message->protocol == Protocol::kEager) {
    datatype::unpack(request.layout, 0, message->data, request.status.bytes);
    if (message->sync) {
      send_sync_ack(message->sender_slot, message->sync_cookie);
    }
    free_unexpected(message);
    complete(request);
    return;
  }
  if (message->parked && message->protocol == Protocol::kChunk) {
    unpark(message);
    take_chunk_message(
        message->slot_index, message->length,
        datatype::Layout{request.layout.base, request.status.bytes,
                         request.layout.map});
    free_unexpected(message);
    complete(request);
    return;
  }
  if (message->parked) {
    unpark(message);  // now an ordinary matched rendezvous
  } else if (message->eager_rendezvous) {
    if (message->drained) {
      datatype::unpack(request.layout, 0, message->data, request.status.bytes);
      free_unexpected(message);
      complete(request);
    } else {
      message->waiting = &request;
    }
    return;
  }
  const std::uint32_t sender = message->sender_slot;
  const std::uint32_t slot_index = message->slot_index;
  const std::uint64_t length = message->length;
  free_unexpected(message);
  begin_drain(request, sender, slot_index, length);
}

void Engine::start_recv(Request& request) {
  ProgressLock lock(progress_mutex_, config_.thread_multiple);
  request.complete.store(false, std::memory_order_relaxed);
  request.status = Status{};
  request.waiting_on = nullptr;
  // Messages still in the rings have not arrived as far as matching goes:
  // they will meet this receive in the posted queue, in order.
  matching::UnexpectedEntry* entry = match_.match_unexpected(
      request.context_id, request.peer, request.tag, false);
  if (entry != nullptr) {
    deliver_unexpected(reinterpret_cast<UnexpectedMessage*>(entry),
                       request);  // NOLINT: first member
    return;
  }
  request.posted.context_id = request.context_id;
  request.posted.source = request.peer;
  request.posted.tag = request.tag;
  request.posted.order = match_.next_order();
  match_.post(&request.posted);
}

bool Engine::recv_now(std::uint32_t peer_slot, std::uint16_t context_id,
                      std::int32_t source, std::int32_t tag,
                      const datatype::Layout& buffer, Status* status) {
  if (config_.thread_multiple) {
    return false;
  }
  Peer& p = peer(peer_slot);
  const int spin_rounds = config_.oversubscribed ? 64 : 4096;
  const int check_every = config_.oversubscribed ? 16 : 256;
  const Cell* head = nullptr;
  for (int round = 0; head == nullptr; ++round) {
    // Only progress can post, queue or deliver anything: check the queues
    // before the first look and after every progress call.
    if (round % check_every == 0) {
      if (round != 0) {
        if (round >= spin_rounds) {
          return false;
        }
        progress();  // keep other peers and transfers moving
      }
      if (match_.posted_count() != 0 ||
          match_.has_unexpected(context_id, source)) {
        return false;  // the queues decide the order
      }
    }
    head = p.consumer.peek();
  }
  const Envelope envelope = matching::read_envelope(*head);
  if (envelope.protocol != Protocol::kEager || envelope.flags != 0 ||
      envelope.context_id != context_id || envelope.source != source ||
      (tag != matching::kAnyTag && envelope.tag != tag) ||
      envelope.length() > buffer.bytes) {
    return false;  // not ours, or not a plain eager message
  }
  const std::uint64_t length = envelope.length();
  copy_eager_payload(
      p.consumer, length, 0,
      [&](std::uint64_t offset, const std::byte* data, std::size_t n) {
        datatype::unpack(buffer, offset, data, n);
      });
  release_cells(p, matching::eager_cells(length));
  status->source = envelope.source;
  status->tag = envelope.tag;
  status->error = 0;
  status->cancelled = false;
  status->bytes = length;
  return true;
}

bool Engine::release_on_completion(Request& request) {
  // complete() reads user_freed and publishes completion under this lock
  // (the only completion outside it, the eager fast path of start_send,
  // happens before the user holds the handle).
  ProgressLock lock(progress_mutex_, config_.thread_multiple);
  if (request.complete.load(std::memory_order_acquire)) {
    return true;
  }
  request.user_freed = true;
  return false;
}

bool Engine::cancel_recv(Request& request) {
  ProgressLock lock(progress_mutex_, config_.thread_multiple);
  if (!match_.remove_posted(&request.posted)) {
    return false;
  }
  request.status.cancelled = true;
  request.status.source = request.peer;
  request.status.tag = request.tag;
  request.status.bytes = 0;
  complete(request);
  return true;
}

UnexpectedMessage* Engine::probe(std::uint16_t context_id, std::int32_t source,
                                 std::int32_t tag, bool remove,
                                 Status* status) {
  progress();
  ProgressLock lock(progress_mutex_, config_.thread_multiple);
  matching::UnexpectedEntry* entry =
      match_.match_unexpected(context_id, source, tag, !remove);
  if (entry == nullptr) {
    return nullptr;
  }
  auto* message =
      reinterpret_cast<UnexpectedMessage*>(entry);  // NOLINT: first member
  status->source = entry->source;
  status->tag = entry->tag;
  status->error = 0;
  status->cancelled = false;
  status->bytes = message->length;
  return message;
}

void Engine::mrecv(UnexpectedMessage* message, Request& request) {
  ProgressLock lock(progress_mutex_, config_.thread_multiple);
  request.complete.store(false, std::memory_order_relaxed);
  request.status = Status{};
  deliver_unexpected(message, request);
}

}  // namespace shmpi::p2p
