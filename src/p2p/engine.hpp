// SPDX-License-Identifier: MIT
// Engine: this process's point-to-point machinery: the rings it sends and
// receives on, the matching queues, the eager and rendezvous protocols and
// the progress loop. One per process, created in MPI_Init.
//
// Protocols (docs/design.md#protocols):
//  - eager: messages up to ring_eager_max bytes travel inside ring cells;
//  - chunk: non-synchronous messages up to eager_max bytes that fit one
//    staging chunk: the sender fills a chunk of the receiver's pool and the
//    envelope names it (no rendezvous slot); complete when pushed;
//  - rendezvous: larger messages push one envelope naming a RendezvousSlot
//    and move through staging chunks from the receiver's pool; the sender
//    fills every chunk it may take as soon as the send starts. Messages up
//    to eager_max bytes complete at the sender once every chunk is
//    published (the receiver drains them even before a receive matches);
//    larger ones complete when the receiver has copied everything. A buffer
//    in the shared heap is copied once, directly, by the receiver.
//
// Threads: with MPI_THREAD_MULTIPLE, sends to different peers take only
// that peer's send lock on the fast path; everything else takes the
// progress lock (progress itself only try-locks it). Without MULTIPLE no
// lock is touched.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "base/result.hpp"
#include "base/tool_event_hook.hpp"
#include "matching/envelope.hpp"
#include "matching/match_engine.hpp"
#include "p2p/poll_hint.hpp"
#include "p2p/request.hpp"
#include "segment/header.hpp"
#include "segment/segment.hpp"
#include "shm_queues/spsc_ring.hpp"

namespace shmpi::shm_queues {
struct ChunkPoolShared;
}

namespace shmpi::p2p {

struct RendezvousSlot;
struct UnexpectedMessage;

struct EngineConfig {
  std::uint32_t my_slot = 0;
  std::uint32_t world_size =
      1;  // ranks of this process's world (for the wait policy)
  std::uint32_t world_base = 0;  // its first slot (0 but in spawned worlds)
  bool thread_multiple = false;
  // At most this many bytes go inside ring cells (SHMPI_RING_EAGER_MAX);
  // clamped to half a ring (3812 B with 128 cells). Below it the send
  // mode decides (Engine::in_cells()).
  std::size_t ring_eager_max = SIZE_MAX;
  std::size_t eager_max =
      64 * 1024;  // rendezvous sends that complete without a match
  // Logical CPUs of the machine (the same number in every process) and
  // whether the first world has more ranks than that: yield and sleep sooner.
  unsigned cpus = 1;
  bool oversubscribed = false;
  // How long one sleep lasts at most before the waiter looks again: a
  // safety net only, since every event that can end a wait rings the
  // sleeper's wake word. 0: no limit, so a lost wake-up hangs instead of
  // costing 100 ms (SHMPI_SLEEP_TIMEOUT_MS, for tests that must see one).
  std::int64_t sleep_timeout_ns = 100'000'000;
};

// Called when a request the user no longer holds completes (freed with
// MPI_Request_free, or internal): the MPI layer releases it.
using OrphanHandler = void (*)(Request* request);

class Engine {
 public:
  Engine(const segment::Segment& segment, const EngineConfig& config);
  // The largest message that goes inside the cells of a ring of
  // `ring_cells` (half a ring): EngineConfig::ring_eager_max is clamped to it.
  static std::size_t ring_eager_limit(std::uint32_t ring_cells);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Before the start-up barrier: populate this rank's region, park every
  // incoming ring, fill the chunk pool. Nobody sends to us before that.
  Result<void> prepare();

  // Starts a send or receive described by `request` (kind, layout, peer,
  // tag, context, peer_slot/my_rank for sends, mode). MPI_PROC_NULL is
  // handled by the caller. The request may be complete on return.
  void start_send(Request& request);
  void start_recv(Request& request);
  // At the start of a send to `peer_slot`: asks for the ring cell the
  // message will take (RingProducer::own_next). Not with
  // MPI_THREAD_MULTIPLE, where the ring's producer state is the engine
  // lock's.
  void own_next_cell(std::uint32_t peer_slot) noexcept;
  // Fast paths of the blocking calls, taken only without
  // MPI_THREAD_MULTIPLE. send_now pushes an eager message straight into the
  // ring when nothing is queued to the peer and the ring has room.
  // recv_now takes the next message of one peer's ring straight into the
  // buffer when no receive is posted and nothing from that peer is
  // unexpected (so matching order cannot differ), spinning briefly for it.
  // False: nothing happened; take the general path.
  bool send_now(std::uint32_t peer_slot, std::uint16_t context_id,
                std::int32_t my_rank, std::int32_t tag,
                const datatype::Layout& data);
  bool recv_now(std::uint32_t peer_slot, std::uint16_t context_id,
                std::int32_t source, std::int32_t tag,
                const datatype::Layout& buffer, Status* status);

  // MPI_Request_free of a request still in flight: marks it so the engine
  // releases it on completion. Returns true if it has completed meanwhile
  // (the caller releases it). Serialised with completion under threads.
  bool release_on_completion(Request& request);

  // Cancels a posted receive that has not matched. False if too late.
  bool cancel_recv(Request& request);

  // Probe: the first matching message, left queued (peek) or removed
  // (matched probe; the message then belongs to the caller until mrecv).
  UnexpectedMessage* probe(std::uint16_t context_id, std::int32_t source,
                           std::int32_t tag, bool remove, Status* status);
  bool iprobe(std::uint16_t context_id, std::int32_t source, std::int32_t tag,
              Status* status) {
    return probe(context_id, source, tag, false, status) != nullptr;
  }
  UnexpectedMessage* improbe(std::uint16_t context_id, std::int32_t source,
                             std::int32_t tag, Status* status) {
    return probe(context_id, source, tag, true, status);
  }
  void mrecv(UnexpectedMessage* message, Request& request);

  // One pass over every source of work. True if anything happened.
  bool progress();
  // Blocks until done() is true: spins, then yields, then sleeps on the
  // wake word (detail/wait_until.hpp).
  template <typename Done>
  void wait_until(Done&& done) {
    wait_until(done, [] { return PollHint::kAsUsual; });
  }
  // The same, with a hint from the caller on how to wait when ranks
  // outnumber cores, asked once when done() is false at first: hint()
  // knows where the rank it waits for runs (PollHint).
  template <typename Done, typename Hint>
  void wait_until(Done&& done, Hint&& hint);
  void wait(Request& request) {
    wait_until([&request] {
      return request.complete.load(std::memory_order_acquire);
    });
  }
  // Wakes this rank's own sleepers (another thread completed something).
  void wake_self();

  void set_orphan_handler(OrphanHandler handler) { orphan_handler_ = handler; }

  // Partitioned communication (src/partitioned; docs/design.md, section
  // "Partitioned communication").
  // The RTS (and its withdrawal, for a request freed before it was ever
  // started) travel through the ring to `peer_slot`, in order behind
  // everything sent to that peer before. They match on a queue pair of
  // their own: ordinary receives and probes never see them.
  void send_part_control(std::uint32_t peer_slot, matching::Protocol protocol,
                         std::uint16_t context_id, std::int32_t my_rank,
                         std::int32_t tag, std::uint64_t channel_offset);
  // Matches the earliest arrived RTS for (context, peer, tag) or queues the
  // receive; a match fills part_channel / part_sender_slot and releases
  // part_matched.
  void post_part_recv(Request& request);
  // Dequeues a partitioned receive that has not matched. False if it has.
  bool remove_part_recv(Request& request);
  // Called (under the progress lock) for the channel of an RTS that was
  // withdrawn before any receive matched it: nobody will use it here.
  using PartReleaser = void (*)(std::uint64_t channel_offset);
  void set_part_releaser(PartReleaser releaser) { part_releaser_ = releaser; }
  // Completes a request from a task (runs under the progress lock).
  void finish(Request& request) { complete(request); }
  // Background work polled by progress() until it returns true (nonblocking
  // collectives such as MPI_Comm_idup). Called with the progress lock held.
  using Task = std::function<bool()>;
  void add_task(Task task) {
    std::unique_lock<std::mutex> lock(progress_mutex_, std::defer_lock);
    if (config_.thread_multiple) {
      lock.lock();
    }
    tasks_.push_back(std::move(task));
  }
  const segment::Segment& segment() const { return segment_; }
  segment::RankControl& control(std::uint32_t slot) const;
  std::uint32_t my_slot() const { return config_.my_slot; }
  // The configuration the engine was built with (sleep_timeout_ns may
  // have changed since: see sleep_timeout_ns()).
  const EngineConfig& config() const { return config_; }
  // For MPI_T (src/mpi/tool_pvars.cpp, tool_cvars.cpp); safe from any
  // thread. The matching queues' lengths:
  const matching::MatchEngine& matching() const { return match_; }
  // Drains the unexpected queue's high-water mark (MatchEngine).
  std::size_t take_unexpected_peak() { return match_.take_unexpected_peak(); }
  // How many times a waiting thread of this process went to sleep on the
  // wake word (FUTEX_WAIT), and how long one sleep lasts at most (0: no
  // limit); a new limit applies from each waiter's next sleep.
  std::uint64_t sleeps() const {
    return sleeps_.load(std::memory_order_relaxed);
  }
  std::int64_t sleep_timeout_ns() const {
    return sleep_timeout_ns_.load(std::memory_order_relaxed);
  }
  void set_sleep_timeout_ns(std::int64_t timeout_ns) {
    sleep_timeout_ns_.store(timeout_ns, std::memory_order_relaxed);
  }
  // Called by the wait loop when the job's abort flag is up.
  [[noreturn]] void abort_wait() const;

 private:
  struct Peer;
  class ProgressLock;

  // Receive side.
  bool poll_rings();
  bool ring_doorbell_check();
  void activate(std::uint32_t peer_slot);
  void handle_eager(Peer& peer, const shm_queues::Cell& head,
                    const matching::Envelope& envelope);
  void handle_rendezvous(Peer& peer, const shm_queues::Cell& head,
                         const matching::Envelope& envelope);
  void handle_chunk(Peer& peer, const shm_queues::Cell& head,
                    const matching::Envelope& envelope);
  // Copies an unmatched heap offer out of the sender's buffer and tells
  // the sender it is done (Request::heap_offer).
  void take_heap_offer(UnexpectedMessage& message);
  // Copies a kChunk message's chunk into `destination` (up to its bytes)
  // and returns the chunk to our pool.
  void take_chunk_message(std::uint32_t chunk_id, std::uint64_t length,
                          const datatype::Layout& destination);
  void handle_part_control(Peer& peer, const shm_queues::Cell& head,
                           const matching::Envelope& envelope);
  bool try_push_part_control(Peer& peer, const Request& request);
  void deliver_unexpected(UnexpectedMessage* message, Request& request);
  void begin_drain(Request& request, std::uint32_t sender,
                   std::uint32_t slot_index, std::uint64_t total_bytes);
  // The sender's buffer of a heap offer, as the sender's layout: packed
  // bytes, or a padded pair type's C structs (RendezvousSlot::source_pair).
  datatype::Layout source_layout(const RendezvousSlot& s);
  // Copies what the slot holds now; completes the request when that is
  // all, else queues it for progress() (drain_requests()).
  void follow_drain(Request& request, std::uint32_t sender,
                    std::uint32_t slot_index, std::uint64_t total_bytes);
  bool drain_requests();
  bool drain_unexpected();
  // Copies every published chunk; returns true when the transfer is whole.
  bool drain_slot(std::uint32_t sender, std::uint32_t slot_index,
                  std::uint64_t& consumed, std::uint64_t total_bytes,
                  const datatype::Layout& destination);
  void complete(Request& request);
  void release_cells(Peer& peer, std::uint32_t cells);
  void finish_recv(Request& request, std::int32_t source, std::int32_t tag,
                   std::uint64_t length);
  UnexpectedMessage* new_unexpected();
  // An unexpected record for `envelope` (matching entry, protocol, length),
  // in arrival order.
  UnexpectedMessage* new_unexpected(const matching::Envelope& envelope,
                                    matching::Protocol protocol);
  // The MPI_T event "a message became unexpected" (cold; a tool listens).
  [[gnu::cold]] void raise_unexpected_event(
      const UnexpectedMessage& message) const;
  // The MPI_T events of a wait that sleeps (detail/wait_until.hpp).
  [[gnu::cold]] void raise_sleep_event(std::int64_t wait_start_ns) const;
  [[gnu::cold]] void raise_wake_event(std::int64_t sleep_start_ns) const;
  base::tool_events::SiteSafety wait_event_safety() const;
  // The posted receive `envelope` matches (removed from the queue), if any.
  Request* match_posted(const matching::Envelope& envelope);
  void free_unexpected(UnexpectedMessage* message);

  // Send side.
  // Whether a message goes inside ring cells. Above kCellsMax a staging
  // chunk (blocking sends, from process memory or the heap) or the heap
  // offer (nonblocking sends from the heap) is faster; synchronous sends,
  // which cannot take a chunk and otherwise go by rendezvous, stay in cells
  // up to kCellsMaxSync (docs/bench.md, "Ring cells up to 1024 bytes").
  static constexpr std::size_t kCellsMax = 1024;
  static constexpr std::size_t kCellsMaxSync = 1280;
  bool in_cells(const datatype::Layout& data, SendMode mode) const {
    const std::size_t limit =
        mode == SendMode::kSynchronous ? kCellsMaxSync : kCellsMax;
    return data.bytes <= limit && data.bytes <= config_.ring_eager_max;
  }
  bool try_push_eager(Peer& peer, Request& request);
  bool push_eager(Peer& peer, std::uint16_t context_id, std::int32_t my_rank,
                  std::int32_t tag, const datatype::Layout& data,
                  const Request* sync_request);
  // Fills cells 1..cells-1 of an eager message with data from `offset` on.
  void push_continuations(Peer& peer, const datatype::Layout& data,
                          std::uint64_t offset, std::uint32_t cells);
  bool try_push_rendezvous(Peer& peer, Request& request);
  // A standard, ready or buffered send of at most one chunk from process
  // memory: fills a chunk of the receiver's pool and pushes a kChunk
  // envelope naming it (no rendezvous slot). kNoChunk: the pool has none
  // to spare; use the rendezvous slot path.
  enum class ChunkPush { kPushed, kRingFull, kNoChunk, kNotEligible };
  ChunkPush try_push_chunk(Peer& peer, Request& request);
  // A chunk of `peer`'s pool (shm_queues::take_chunk), taken round robin;
  // `free_before` as there.
  std::optional<std::uint32_t> take_chunk_from(
      Peer& peer, int keep_free, std::uint64_t* free_before = nullptr);
  // After a chunk message of `bytes` through chunk `taken`: asks for the
  // lines of the chunk after it (round robin takes it next), if it was free.
  void own_next_chunk(const Peer& peer, std::uint32_t taken,
                      std::uint64_t free_before, std::size_t bytes);
  bool try_push(Peer& peer, Request& request);
  // Whether the receiver may copy `data` straight from our buffer (a heap
  // offer): it is in the shared heap, and contiguous or a padded pair
  // type's elements.
  bool offers_heap(const datatype::Layout& data) const;
  bool start_rendezvous(Request& request);
  bool publish_chunks(Request& request, bool wake = true);
  bool advance_rendezvous_sends();
  bool advance_queues();
  void send_sync_ack(std::uint32_t peer_slot, std::uint64_t cookie);
  void queue(Peer& peer, Request& request);
  void ring_doorbell(std::uint32_t receiver);
  RendezvousSlot& slot(std::uint32_t owner, std::uint32_t index) const;
  shm_queues::ChunkPoolShared& pool(std::uint32_t owner) const;
  std::byte* chunk(std::uint32_t owner, std::uint32_t index) const;
  void wake_chunk_waiters();
  // Parked eager-rendezvous messages (unexpected, still in their chunk).
  void unpark(UnexpectedMessage* message);
  void spill(UnexpectedMessage* message);
  bool chunks_wanted() const;
  // Spills every parked message when a sender waits for chunks of our
  // pool: at once if `now` (the caller is about to yield or sleep), else
  // after kSpillAfterPasses progress passes of waiting.
  bool relieve_pool_pressure(bool now);
  static constexpr int kSpillAfterPasses = 64;
  // relieve_pool_pressure(true) under the progress lock (try-locked).
  bool relieve_before_waiting();

  bool park_all_rings();
  bool run_tasks();
  bool abort_raised() const;

  // The wait loop's yields (wait_until.hpp). A yield that kept the core
  // away for kLongYieldTicks or more (2^20 time-stamp ticks: 0.2-1 ms at
  // 1-5 GHz; a hand-over between ranks takes about a microsecond) may
  // have handed it to another program for a whole time slice; if other
  // programs' tasks are runnable (by /proc/loadavg, beside the job's
  // ranks that are awake), the next kSleepInsteadOfYield waits go from
  // spinning straight to sleeping, whose wake-up takes the core back at
  // once. True if so.
  static constexpr std::uint64_t kLongYieldTicks = std::uint64_t{1} << 20;
  // The longest extra poll of PollHint::kLonger: 2^12
  // time-stamp ticks, 1-2 us at 2-4 GHz, a few context switches' worth.
  static constexpr std::uint64_t kPollLongerTicks = std::uint64_t{1} << 12;
  static constexpr std::uint32_t kSleepInsteadOfYield = 64;
  [[gnu::cold]] bool note_long_yield();
  // Waits left that skip the yield phase. Relaxed: a heuristic; threads
  // of a rank may each see any recent value.
  std::atomic<std::uint32_t> skip_yields_{0};
  // Statistics and the one knob MPI_T may change. Relaxed: each is a value
  // of its own that orders nothing; a waiter uses whichever timeout it
  // reads. sleeps_ is incremented by any waiting thread just after a
  // FUTEX_WAIT (a system call, so the increment costs nothing there).
  std::atomic<std::uint64_t> sleeps_{0};
  std::atomic<std::int64_t> sleep_timeout_ns_{0};

  const segment::Segment& segment_;
  const segment::SegmentLayout& layout_;
  EngineConfig config_;
  // own_next_cell() asks for lines: the CPU has PREFETCHW and no other
  // thread may be pushing into the rings.
  bool own_cells_ = false;
  OrphanHandler orphan_handler_ = nullptr;
  std::vector<Task> tasks_;
  std::vector<std::unique_ptr<Peer>> peers_;  // by segment slot
  std::vector<std::uint32_t> active_;         // peers whose rings we poll
  std::vector<std::uint32_t> queued_peers_;   // peers with queued sends
  std::vector<Request*> rendezvous_sends_;
  std::vector<std::uint32_t>
      retiring_slots_;  // completed sends whose slot is still read
  std::vector<std::uint32_t> free_slots_;
  std::vector<std::uint32_t> slot_generation_;
  std::vector<Request*> draining_;  // matched rendezvous receives
  std::vector<UnexpectedMessage*>
      draining_unexpected_;  // eager rendezvous, unmatched, spilled
  std::vector<UnexpectedMessage*> parked_;  // eager rendezvous, in chunks
  int pressure_passes_ = 0;  // passes a sender has waited with some parked
  std::vector<UnexpectedMessage*> unexpected_pool_;
  std::vector<Request*> sync_acks_pending_;  // acks queued behind a full ring
  matching::MatchEngine match_;
  // Partitioned RTSs: their own posted/unexpected queues, and the
  // unexpected records (for a withdrawal to find its RTS).
  struct PartRts;
  matching::MatchEngine part_match_;
  std::vector<PartRts*> part_unexpected_;
  PartReleaser part_releaser_ = nullptr;
  std::mutex progress_mutex_;
  std::uint32_t doorbell_words_ = 1;
  int keep_free_unmatched_ =
      0;  // chunks an unmatched transfer must leave in a pool
  std::uint64_t max_unmatched_chunks_ = 0;
  bool prefetch_chunks_ = false;  // base::has_prefetchw(): own_next_chunk()

  Peer& peer(std::uint32_t slot) { return *peers_[slot]; }
  segment::RankControl* own_control_ = nullptr;  // control(my_slot), cached
};

}  // namespace shmpi::p2p

#include "p2p/detail/wait_until.hpp"
