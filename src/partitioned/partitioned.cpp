// SPDX-License-Identifier: MIT
#include "partitioned/partitioned.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

#include "base/assert.hpp"
#include "datatype/pack.hpp"
#include "partitioned/channel.hpp"
#include "partitioned/partition_map.hpp"
#include "segment/shared_heap.hpp"
#include "segment/wake_word.hpp"

namespace shmpi::partitioned {

namespace {

p2p::Engine* g_engine = nullptr;  // set by install() in MPI_Init

// Per-partition iteration numbers in process memory (cc_part). Atomics:
// pready/parrived run in any thread.
using IterationArray = std::unique_ptr<std::atomic<std::uint64_t>[]>;

IterationArray make_iterations(std::uint32_t n) {
  IterationArray array(new std::atomic<std::uint64_t>[n]);
  for (std::uint32_t i = 0; i < n; ++i) {
    // Relaxed: published to other threads with the request itself.
    array[i].store(0, std::memory_order_relaxed);
  }
  return array;
}

void free_record(const Channel& channel) {
  const segment::Segment& segment = g_engine->segment();
  segment.heap().deallocate(
      segment.at<std::byte>(channel.header().allocation_offset));
}

struct SendSide {
  std::uint32_t partitions = 0;
  std::uint64_t partition_bytes = 0;
  Channel channel;  // invalid for MPI_PROC_NULL
  std::uint32_t receiver_slot = 0;
  std::uint64_t iteration = 0;  // written by start only
  bool started = false;
  IterationArray cc_part;  // iteration each partition was last made ready in
  // The receiver's direct buffer as learnt from the channel once a CTS was
  // there: kUnknown before, then ChannelHeader::kNoDirect or its offset
  // (never changes after). Lets pready skip the receiver's CTS line, which
  // it may have just written, when there is no direct buffer to check it
  // for. Relaxed everywhere: every thread that learns it stores the same
  // value, and writing into the buffer still needs cleared() (acquire).
  static constexpr std::uint64_t kUnknown = ChannelHeader::kNoDirect - 1;
  std::atomic<std::uint64_t> direct_offset{kUnknown};
  // Partitions made ready in this iteration. fetch_add acq_rel: the task
  // that sees the count reach `partitions` sees every pready's flag store.
  alignas(kCacheLineSize) std::atomic<std::uint32_t> cc_send{0};
};

struct RecvSide {
  std::uint32_t partitions = 0;
  std::uint64_t partition_bytes = 0;
  bool proc_null = false;
  std::uint64_t iteration = 0;      // written by start only
  std::uint64_t cts_published = 0;  // start and the task only
  // The channel's published count at the task's last flag scan; start
  // resets it so every iteration scans at least once. Start and task only.
  std::uint64_t last_scan = kNeverScanned;
  static constexpr std::uint64_t kNeverScanned = ~std::uint64_t{0};

  // Bound once, when the RTS has matched (by whichever thread sees it
  // first, under bind_mutex; bound's release publishes the rest).
  std::mutex bind_mutex;
  std::atomic<bool> bound{false};
  Channel channel;
  std::uint32_t send_partitions = 0;
  std::uint64_t send_partition_bytes = 0;
  std::uint64_t kept_bytes = 0;  // bytes that land in the buffer
  bool truncated = false;        // sizes differ: MPI_ERR_TRUNCATE at completion
  // MPI_THREAD_MULTIPLE: parrived may run in several threads at once (and
  // beside the task), so copiers are elected by `claimed` and count with
  // atomic read-modify-writes. Otherwise one thread at a time calls into
  // MPI (the program orders them), and plain loads and stores do.
  bool shared = false;
  IterationArray claimed;  // iteration a thread took partition s for (shared)
  IterationArray cc_part;  // iteration whose data of s is in the buffer
  // Send partitions taken in (copied out or found written directly) in this
  // iteration (the seed's cc, counted up). Shared: fetch_add acq_rel, so
  // the task that sees it complete sees all copies.
  alignas(kCacheLineSize) std::atomic<std::uint32_t> cc{0};
};

SendSide& send_side(const p2p::Request& request) {
  return *static_cast<SendSide*>(request.owned.get());
}
RecvSide& recv_side(const p2p::Request& request) {
  return *static_cast<RecvSide*>(request.owned.get());
}

// ------------------------------------------------------------- receiver

bool ensure_bound(p2p::Request& request, RecvSide& side) {
  // Acquire: pairs with the release below; publishes the bound fields.
  if (side.bound.load(std::memory_order_acquire)) {
    return true;
  }
  // Acquire: pairs with the engine's release when the RTS matched.
  if (!request.part_matched.load(std::memory_order_acquire)) {
    return false;
  }
  std::lock_guard<std::mutex> lock(side.bind_mutex);  // once per request
  if (side.bound.load(std::memory_order_relaxed)) {
    return true;  // another thread bound it; the mutex ordered us after it
  }
  side.channel =
      Channel(g_engine->segment().at<std::byte>(request.part_channel));
  ChannelHeader& h = side.channel.header();
  SHMPI_ASSERT(h.magic == ChannelHeader::kMagic, "corrupt partitioned RTS");
  side.send_partitions = h.send_partitions;
  side.send_partition_bytes = h.partition_bytes;
  side.kept_bytes = std::min(h.total_bytes, request.layout.bytes);
  side.truncated = h.total_bytes != request.layout.bytes;  // either way
  side.shared = g_engine->config().thread_multiple;
  if (side.shared) {
    side.claimed = make_iterations(side.send_partitions);
  }
  side.cc_part = make_iterations(side.send_partitions);
  // Relaxed: published to the sender by the first CTS's release.
  h.msg_part.store(static_cast<std::int32_t>(side.send_partitions),
                   std::memory_order_relaxed);
  // A contiguous buffer in the shared heap: the sender may pack straight
  // into it once it has an iteration's CTS. Not for partitions that travel
  // in their flag lines (one line already; their areas hold no marks).
  const segment::Segment& segment = g_engine->segment();
  if (request.layout.map == nullptr && request.layout.bytes != 0 &&
      !side.channel.inline_partitions() &&
      segment.in_heap(request.layout.base, request.layout.bytes)) {
    side.channel.offer_direct(segment.offset_of(request.layout.base),
                              request.layout.bytes);
  }
  // Release: pairs with the acquire above.
  side.bound.store(true, std::memory_order_release);
  return true;
}

void publish_cts_if_due(RecvSide& side) {
  if (side.cts_published >= side.iteration) {
    return;
  }
  side.cts_published = side.iteration;
  side.channel.publish_cts(side.iteration);
  segment::wake_if_sleeping(
      g_engine->control(side.channel.header().sender_slot));
}

// Takes send partition s of the current iteration, which has arrived and
// is not in the buffer yet, for this thread. Shared: elects one copier
// among the threads calling parrived and the task; false if another one
// took it.
bool claim(RecvSide& side, std::uint32_t s, std::uint64_t k) {
  if (!side.shared) {
    return true;  // one thread at a time: cc_part alone says what is done
  }
  // Relaxed: the claim only elects one copier; the data is ordered by the
  // ready flag (acquired by the caller) and cc_part's release.
  std::uint64_t seen = side.claimed[s].load(std::memory_order_relaxed);
  return seen < k && side.claimed[s].compare_exchange_strong(
                         seen, k, std::memory_order_relaxed);
}

// Send partitions [first, first + count) of iteration k are in the buffer
// (copied here or written directly by the sender); adds them to cc.
void count_in(RecvSide& side, std::uint32_t first, std::uint32_t count,
              std::uint64_t k) {
  for (std::uint32_t s = first; s < first + count; ++s) {
    // Release: pairs with the acquire in bring_in(); publishes the copy to
    // a thread that finds the partition done.
    side.cc_part[s].store(k, std::memory_order_release);
  }
  if (side.shared) {
    // acq_rel: the task that sees cc complete sees every copy.
    side.cc.fetch_add(count, std::memory_order_acq_rel);
  } else {
    // Relaxed: only this thread (or one the program ordered after it)
    // reads or writes cc; no locked instruction needed.
    side.cc.store(side.cc.load(std::memory_order_relaxed) + count,
                  std::memory_order_relaxed);
  }
}

// Copies staged send partitions [first, first + count) of iteration k
// into the buffer with one unpack (consecutive partitions are consecutive
// in staging and in the packed stream: fewer, longer copies prefetch
// better), then counts them in.
void copy_run(const p2p::Request& request, RecvSide& side, std::uint32_t first,
              std::uint32_t count, std::uint64_t k) {
  const std::uint64_t begin = side.send_partition_bytes * first;
  const std::uint64_t end =
      std::min(begin + side.send_partition_bytes * count, side.kept_bytes);
  if (end > begin) {  // else the receive buffer ends before the run
    datatype::unpack(request.layout, begin,
                     side.channel.partition_data(first, k), end - begin);
  }
  count_in(side, first, count, k);
}

// Brings what has arrived of send partitions [first, first + count) of the
// current iteration into the buffer: partitions the sender wrote directly
// need nothing, staged ones are copied, consecutive ones together. True
// once all of them are in.
bool bring_in(const p2p::Request& request, RecvSide& side, std::uint32_t first,
              std::uint32_t count) {
  const std::uint64_t k = side.iteration;
  // Runs only where staged partitions lie back to back (not in flag
  // lines), and not when other threads may be polling: a partition claimed
  // into a run stays unavailable to them until the whole run is copied.
  const bool runs = !side.shared && !side.channel.inline_partitions();
  bool all_in = true;
  std::uint32_t run_first = 0;
  std::uint32_t run_count = 0;
  for (std::uint32_t s = first; s < first + count; ++s) {
    // Acquire: pairs with the release in count_in() in whichever thread
    // took s in.
    if (side.cc_part[s].load(std::memory_order_acquire) >= k) {
      continue;
    }
    if (!side.channel.has_arrived(s, k) || !claim(side, s, k)) {
      all_in = false;  // not there yet, or another thread is copying it
      continue;
    }
    if (side.channel.went_direct(s, k)) {
      count_in(side, s, 1, k);
      continue;
    }
    if (run_count != 0 && run_first + run_count != s) {
      copy_run(request, side, run_first, run_count, k);
      run_count = 0;
    }
    if (run_count == 0) {
      run_first = s;
    }
    ++run_count;
    if (!runs) {
      copy_run(request, side, run_first, run_count, k);
      run_count = 0;
    }
  }
  if (run_count != 0) {
    copy_run(request, side, run_first, run_count, k);
  }
  return all_in;
}

bool recv_task(p2p::Request& request) {
  RecvSide& side = recv_side(request);
  if (!ensure_bound(request, side)) {
    return false;
  }
  publish_cts_if_due(side);
  // Scan the flags only when the sender published more since the last scan
  // (the count is bumped after the flags it covers).
  const std::uint64_t published = side.channel.published();
  if (published != side.last_scan) {
    side.last_scan = published;
    bring_in(request, side, 0, side.send_partitions);
  }
  // Acquire: pairs with each copier's fetch_add (shared); every copy is
  // done.
  if (side.cc.load(std::memory_order_acquire) != side.send_partitions) {
    return false;
  }
  request.status.source = request.peer;
  request.status.tag = request.tag;
  request.status.bytes = side.kept_bytes;
  request.status.error = side.truncated ? kErrTruncate : 0;
  g_engine->finish(request);
  return true;
}

// --------------------------------------------------------------- sender

// After cleared(k) for some k >= 1 was true: the receiver's direct buffer
// offset (ChannelHeader::kNoDirect if none), remembered in the request.
std::uint64_t learn_direct_offset(SendSide& side) {
  // Relaxed: see SendSide::direct_offset.
  std::uint64_t offset = side.direct_offset.load(std::memory_order_relaxed);
  if (offset == SendSide::kUnknown) {
    offset = side.channel.direct_offset();
    side.direct_offset.store(offset, std::memory_order_relaxed);
  }
  return offset;
}

bool send_task(p2p::Request& request) {
  SendSide& side = send_side(request);
  // Acquire: pairs with the pready fetch_adds (all partitions staged).
  if (side.cc_send.load(std::memory_order_acquire) != side.partitions ||
      !side.channel.cleared(side.iteration)) {
    return false;
  }
  learn_direct_offset(side);
  request.status.source = request.peer;
  request.status.tag = request.tag;
  request.status.bytes = request.layout.bytes;
  g_engine->finish(request);
  return true;
}

void release_channel(std::uint64_t channel_offset) {
  Channel channel(g_engine->segment().at<std::byte>(channel_offset));
  if (channel.drop_reference()) {
    free_record(channel);
  }
}

}  // namespace

void install(p2p::Engine& engine) {
  g_engine = &engine;
  engine.set_part_releaser(release_channel);
}

Result<void> psend_init(p2p::Request& request, std::uint32_t partitions) {
  auto side = std::make_shared<SendSide>();
  side->partitions = partitions;
  side->partition_bytes = request.layout.bytes / partitions;
  side->cc_part = make_iterations(partitions);
  if (request.peer != kProcNull) {
    const segment::Segment& segment = g_engine->segment();
    const std::size_t bytes =
        channel_allocation_bytes(partitions, request.layout.bytes);
    auto* block = static_cast<std::byte*>(segment.heap().allocate(bytes));
    if (block == nullptr) {
      return Err{kErrNoMem,
                 "the shared heap has no room for the partition channel "
                 "(shmpirun --heap-size)"};
    }
    const std::size_t block_offset = segment.offset_of(block);
    if (auto populated = segment.populate(block_offset, bytes); !populated) {
      segment.heap().deallocate(block);
      return populated.error();
    }
    std::byte* record = segment.at<std::byte>(
        align_up(block_offset, kFalseSharingRange));  // offsets from a page
    side->receiver_slot = request.peer_slot;
    side->channel =
        Channel::create(record, partitions, side->partition_bytes,
                        g_engine->my_slot(), request.peer_slot, block_offset);
    g_engine->send_part_control(request.peer_slot, matching::Protocol::kPartRts,
                                request.context_id, request.my_rank,
                                request.tag, segment.offset_of(record));
  }
  request.owned = std::move(side);
  return {};
}

Result<void> precv_init(p2p::Request& request, std::uint32_t partitions) {
  auto side = std::make_shared<RecvSide>();
  side->partitions = partitions;
  side->partition_bytes = request.layout.bytes / partitions;
  side->proc_null = request.peer == kProcNull;
  request.owned = std::move(side);
  if (request.peer != kProcNull) {
    g_engine->post_part_recv(request);
  }
  return {};
}

std::uint32_t partition_count(const p2p::Request& request) {
  return request.kind == p2p::RequestKind::kPartSend
             ? send_side(request).partitions
             : recv_side(request).partitions;
}

void start(p2p::Request& request) {
  request.complete.store(false, std::memory_order_relaxed);
  request.status = p2p::Status{};
  if (request.kind == p2p::RequestKind::kPartSend) {
    SendSide& side = send_side(request);
    ++side.iteration;
    side.started = true;
    // Relaxed: preadys of this iteration come after start in the program
    // (threads are handed the request through the program's own sync).
    side.cc_send.store(0, std::memory_order_relaxed);
    if (!side.channel.valid()) {  // MPI_PROC_NULL
      request.status.source = kProcNull;
      request.complete.store(true, std::memory_order_release);
      return;
    }
    p2p::Request* r = &request;
    g_engine->add_task([r] { return send_task(*r); });
    return;
  }
  RecvSide& side = recv_side(request);
  ++side.iteration;
  side.last_scan = RecvSide::kNeverScanned;
  // Relaxed: as cc_send above.
  side.cc.store(0, std::memory_order_relaxed);
  if (side.proc_null) {
    request.status.source = kProcNull;
    request.complete.store(true, std::memory_order_release);
    return;
  }
  if (ensure_bound(request, side)) {
    publish_cts_if_due(side);
  }
  p2p::Request* r = &request;
  g_engine->add_task([r] { return recv_task(*r); });
}

namespace {

// The receive buffer (in this process's mapping) when iteration k's data
// may go straight into it, else nullptr (stage). Only once CTS(k) is
// there: before it the receiver may still be using the buffer for
// iteration k - 1, or its program reading it between the two.
std::byte* direct_target(SendSide& side, std::uint64_t k) {
  // Relaxed: see SendSide::direct_offset. Known to be absent: stage without
  // reading the receiver's line.
  if (side.direct_offset.load(std::memory_order_relaxed) ==
          ChannelHeader::kNoDirect ||
      side.channel.inline_partitions() || !side.channel.cleared(k)) {
    return nullptr;
  }
  const std::uint64_t offset = learn_direct_offset(side);
  if (offset == ChannelHeader::kNoDirect) {
    return nullptr;
  }
  return g_engine->segment().at<std::byte>(offset);
}

// Checks that `partition` may be made ready in the current iteration and
// records that it is.
Result<std::uint32_t> take_partition(SendSide& side, std::int64_t partition) {
  if (partition < 0 || partition >= side.partitions) {
    return Err{kErrArg, "partition out of range"};
  }
  const auto p = static_cast<std::uint32_t>(partition);
  const std::uint64_t k = side.iteration;
  // Relaxed: only detects a second pready of p in this iteration; the data
  // is ordered by the ready flag. A load and a store, not an exchange: an
  // exchange is a locked instruction on x86 and would wait for the previous
  // partition's flag store to reach the polling receiver. Two threads
  // readying the same partition at once (erroneous) may both pass.
  if (side.cc_part[p].load(std::memory_order_relaxed) == k) {
    return Err{kErrArg, "partition is already ready in this iteration"};
  }
  side.cc_part[p].store(k, std::memory_order_relaxed);
  return p;
}

// Stages one partition (or writes it straight into the receive buffer) and
// sets its ready flag; the caller wakes and counts once per batch
// (finish_batch).
Result<void> stage_one(p2p::Request& request, SendSide& side,
                       std::int64_t partition) {
  Result<std::uint32_t> taken = take_partition(side, partition);
  if (!taken) {
    return taken.error();
  }
  const std::uint32_t p = *taken;
  const std::uint64_t k = side.iteration;
  if (side.channel.valid()) {
    if (std::byte* target = direct_target(side, k)) {
      // The receiver's buffer is its iteration k's: only the bytes that
      // fit go in (the rest is truncated, as when copied out of staging).
      const ByteRange kept = send_partition_bytes_kept(
          side.partition_bytes, p, side.channel.direct_bytes());
      if (kept.end > kept.begin) {
        datatype::pack(request.layout, kept.begin, target + kept.begin,
                       kept.end - kept.begin);
      }
      side.channel.mark_direct(p, k);
    } else {
      datatype::pack(request.layout, side.partition_bytes * p,
                     side.channel.partition_data(p, k), side.partition_bytes);
    }
    side.channel.mark_ready(p, k);
  }
  return {};
}

// After a batch of `staged` partitions: one wake check for the receiver and
// one count update, whatever the batch size. Both are full barriers on x86
// (the fence waits for the flag stores to leave the store buffer, which the
// polling receiver makes slow), so a range or list pays them once.
void finish_batch(SendSide& side, std::uint32_t staged) {
  if (staged == 0) {
    return;
  }
  if (side.channel.valid()) {
    side.channel.publish(staged);
    segment::wake_if_sleeping(g_engine->control(side.receiver_slot));
  }
  if (side.cc_send.fetch_add(staged, std::memory_order_acq_rel) + staged ==
          side.partitions &&
      g_engine->config().thread_multiple) {
    g_engine->wake_self();  // a thread of ours may wait on the request
  }
}

// MPI_Pready_range of a contiguous send buffer into staging: consecutive
// partitions are consecutive in the buffer and in staging, so one copy
// moves them all, then their flags are set. Measured (A/B, this machine):
// 8 x 1 KiB iterations 2.7-3.6 -> 1.8 us, 64 x 1 KiB 12-18 -> 10 us.
// Not when the receive buffer is in the shared heap (the direct path):
// there one copy per partition measured faster (64 x 1 KiB 7-9 us against
// 10-11 coalesced, 8 x 64 KiB 27 against 43).
// A partition in error ends the range there, as one by one would: those
// before it are made ready, the error names it. Nothing (std::nullopt)
// when the range does not qualify; the caller then readies the partitions
// one by one.
std::optional<Result<void>> stage_range(p2p::Request& request, SendSide& side,
                                        std::int64_t low, std::int64_t count,
                                        std::int64_t* failed) {
  const std::uint64_t k = side.iteration;
  // Relaxed: see SendSide::direct_offset. Only when the receiver has no
  // direct buffer: with one, partitions go direct one by one as soon as
  // its CTS is there, which may happen in the middle of the range.
  if (!side.channel.valid() || request.layout.map != nullptr ||
      side.channel.inline_partitions() ||
      side.direct_offset.load(std::memory_order_relaxed) !=
          ChannelHeader::kNoDirect) {
    return std::nullopt;
  }
  std::int64_t good = 0;
  Err error{0, {}};
  for (; good < count; ++good) {
    Result<std::uint32_t> taken = take_partition(side, low + good);
    if (!taken) {
      error = taken.error();
      break;
    }
  }
  const auto first = static_cast<std::uint32_t>(low);
  const auto n = static_cast<std::uint32_t>(good);
  if (n > 0) {
    datatype::pack(request.layout, side.partition_bytes * first,
                   side.channel.partition_data(first, k),
                   side.partition_bytes * n);
    for (std::uint32_t p = first; p < first + n; ++p) {
      side.channel.mark_ready(p, k);
    }
  }
  finish_batch(side, n);
  if (good < count) {
    *failed = low + good;
    return Result<void>{error};
  }
  return Result<void>{};
}

}  // namespace

Result<void> pready(p2p::Request& request, std::int64_t partition) {
  SendSide& side = send_side(request);
  Result<void> staged = stage_one(request, side, partition);
  finish_batch(side, staged ? 1 : 0);
  return staged;
}

Result<void> pready_batch(p2p::Request& request, const int* list,
                          std::int64_t low, std::int64_t count,
                          std::int64_t* failed) {
  SendSide& side = send_side(request);
  if (list == nullptr && count > 1) {
    if (std::optional<Result<void>> done =
            stage_range(request, side, low, count, failed)) {
      return *done;
    }
  }
  std::uint32_t staged = 0;
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int64_t partition = list != nullptr ? list[i] : low + i;
    Result<void> one = stage_one(request, side, partition);
    if (!one) {
      finish_batch(side, staged);
      *failed = partition;
      return one;
    }
    ++staged;
  }
  finish_batch(side, staged);
  return {};
}

Result<bool> parrived(p2p::Request& request, std::int64_t partition) {
  RecvSide& side = recv_side(request);
  if (partition < 0 || partition >= side.partitions) {
    return Err{kErrArg, "partition out of range"};
  }
  if (side.proc_null) {
    return true;
  }
  if (!ensure_bound(request, side)) {
    g_engine->progress();
    if (!ensure_bound(request, side)) {
      return false;
    }
  }
  const SendSpan span = overlapping_send_partitions(
      side.partition_bytes, static_cast<std::uint32_t>(partition),
      side.send_partition_bytes, side.send_partitions);
  const bool arrived = bring_in(request, side, span.first, span.count);
  if (!arrived) {
    // The program may be polling: keep other requests moving, but not on
    // every call, or a partition that arrives during a progress pass is
    // seen a whole pass late. Per thread: no shared counter to contend on.
    thread_local std::uint32_t misses = 0;
    if ((++misses & 15u) == 0) {
      g_engine->progress();
    }
  }
  return arrived;
}

void release(p2p::Request& request) {
  if (!request.owned || (request.kind != p2p::RequestKind::kPartSend &&
                         request.kind != p2p::RequestKind::kPartRecv)) {
    return;  // not partitioned, or never set up
  }
  if (request.kind == p2p::RequestKind::kPartSend) {
    SendSide& side = send_side(request);
    if (side.channel.valid()) {
      if (!side.started) {
        // Nobody may ever match this RTS: take it back (same FIFO ring, so
        // the withdrawal arrives after it). The receiver's reference goes
        // when it drops the RTS, or when the receive that matched it is
        // freed.
        g_engine->send_part_control(
            side.receiver_slot, matching::Protocol::kPartWithdraw,
            request.context_id, request.my_rank, request.tag,
            g_engine->segment().offset_of(side.channel.record()));
      }
      if (side.channel.drop_reference()) {
        free_record(side.channel);
      }
    }
  } else {
    RecvSide& side = recv_side(request);
    if (!side.proc_null &&
        !request.part_matched.load(std::memory_order_acquire) &&
        g_engine->remove_part_recv(request)) {
      request.owned.reset();
      return;  // never matched: nothing shared to let go of
    }
    // Acquire (in remove_part_recv's lock or above): matched, so
    // part_channel is ours to release.
    if (!side.proc_null) {
      release_channel(request.part_channel);
    }
  }
  request.owned.reset();
}

}  // namespace shmpi::partitioned
