// SPDX-License-Identifier: MIT
// SpscRing: the lock-free ring that carries messages from one sender process
// to one receiver process. 64-byte cells, each with its own sequence word, so
// the receiver polls the next expected cell directly and a one-cell message
// costs exactly one cache-line transfer.
//
// Contract: exactly one producer process (the sender, through RingProducer)
// and one consumer process (the receiver, through RingConsumer) per ring;
// any other use is undefined. Neither side blocks: "full" and "empty" are
// reported, never waited on.
//
// Sequence word of the cell at monotonic index i (slot i % N, lap i / N):
//   full(i)   = 2 * lap + 1   written by the producer when the cell holds a
//                             message header published at index i
//   parked(i) = 2 * lap + 2   written by the consumer when it stops polling
//                             this ring with i as its next index
//   kContinuation = 0         a cell holding the tail of a multi-cell message
// Odd values are never written by anything but the producer, so a stale cell
// from an earlier lap never looks like full(i).
//
// Parking: the consumer may stop polling an idle ring by replacing the stale
// sequence of its next cell with parked(i) (CAS, so it cannot hide a message
// that just arrived). The producer publishes with an exchange; if it gets
// parked(i) back, the consumer is not polling and the producer must ring the
// receiver's doorbell. That keeps the receiver's progress O(active peers)
// while costing the producer no extra cache line: it owns the cell anyway.
//
// Memory ordering: the producer's exchange is a release of the cell's body
// and of any continuation cells; the consumer's acquire load of the sequence
// pairs with it. The consumer's release store of read_index_ pairs with the
// producer's acquire load when its cached copy says the ring may be full, so
// the producer never overwrites a cell the consumer still reads.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "base/assert.hpp"
#include "base/cache_line.hpp"
#include "base/prefetch.hpp"
#include "segment/layout.hpp"

namespace shmpi::shm_queues {

struct alignas(kCacheLineSize) Cell {
  static constexpr std::size_t kBodyBytes =
      kCacheLineSize - sizeof(std::uint32_t);
  std::atomic<std::uint32_t> seq;
  std::byte body[kBodyBytes];
};
static_assert(sizeof(Cell) == segment::kCellBytes,
              "one cell is one cache line");
static_assert(std::atomic<std::uint32_t>::is_always_lock_free,
              "address-free atomics");

// The shared part of a ring, at SegmentLayout::ring_offset(sender, receiver).
struct RingShared {
  // Consumer line: written by the consumer only, read by the producer only
  // when its cached copy says the ring may be full.
  alignas(kFalseSharingRange) std::atomic<std::uint64_t> read_index;
  // Producer line: set by a producer that found the ring full and will
  // wait; read by the consumer each time it frees half a ring of cells.
  alignas(kCacheLineSize) std::atomic<std::uint32_t> producer_waiting;
  // Cells follow at +kRingHeaderBytes.
};
static_assert(sizeof(RingShared) == segment::kRingHeaderBytes,
              "layout.hpp reserves one 128-byte header per ring");
static_assert(std::is_standard_layout_v<RingShared>, "shared by offset");

constexpr std::uint32_t seq_full(std::uint64_t index, unsigned log2_cells) {
  return static_cast<std::uint32_t>((index >> log2_cells) * 2 + 1);
}
constexpr std::uint32_t seq_parked(std::uint64_t index, unsigned log2_cells) {
  return static_cast<std::uint32_t>((index >> log2_cells) * 2 + 2);
}
inline constexpr std::uint32_t kContinuation = 0;

// The sender's view of one ring. Its indices are process-local: only the
// producer writes cells, so only it needs to know where it is.
class RingProducer {
 public:
  RingProducer() = default;
  RingProducer(std::byte* ring_memory, std::uint32_t cells);

  bool attached() const { return shared_ != nullptr; }
  // True if `cells` more cells fit. Reads the consumer line only when the
  // cached read index says they may not.
  [[nodiscard]] bool has_room(std::uint32_t cells) noexcept {
    if (write_index_ + cells - read_index_cache_ <= capacity_) [[likely]] {
      return true;
    }
    // Acquire: pairs with the consumer's release in RingConsumer::release();
    // the cells it has moved past are no longer read.
    read_index_cache_ = shared_->read_index.load(std::memory_order_acquire);
    if (write_index_ + cells - read_index_cache_ > capacity_) {
      return false;
    }
    if (waiting_) [[unlikely]] {
      // Only the producer clears its flag, once it has room: a consumer
      // clearing it could erase a newer request and lose the wake-up.
      waiting_ = false;
      shared_->producer_waiting.store(0, std::memory_order_relaxed);
    }
    return true;
  }
  // The cell at write position + k (k < cells reserved with has_room()).
  Cell& cell(std::uint32_t k) noexcept {
    return cells_[(write_index_ + k) & mask_];
  }
  // Publishes a message of `cells` cells: the caller has filled cell(0)'s
  // body and cells 1..cells-1 (whose seq it set to kContinuation, relaxed).
  // Returns true if the consumer had parked this ring (ring its doorbell).
  [[nodiscard]] bool publish(std::uint32_t cells) noexcept {
    Cell& head = cells_[write_index_ & mask_];
    // Release: publishes head's body and the continuation cells. Acquire:
    // orders our later doorbell store after seeing the consumer's park.
    std::uint32_t previous = head.seq.exchange(
        seq_full(write_index_, log2_cells_), std::memory_order_acq_rel);
    bool was_parked = previous == seq_parked(write_index_, log2_cells_);
    write_index_ += cells;
    if (prefetch_) [[likely]] {
      own_ahead(cells);
    }
    return was_parked;
  }
  // Asks for the line of the next cell, when a message is about to be
  // written there: called at the start of a send, so that taking the line
  // from the consumer (which polls it) overlaps the rest of the send's
  // checks instead of starting at its first store. Not when the cached
  // read index says the ring may be full: the cell would then hold a
  // message the consumer is about to read. Callers check
  // base::has_prefetchw() once, not per call.
  void own_next() noexcept {
    if (write_index_ + 1 - read_index_cache_ <= capacity_) {
      base::prefetch_for_write(&cells_[write_index_ & mask_]);
    }
  }
  std::uint32_t capacity() const { return capacity_; }
  // After has_room(cells) failed: asks the consumer for a wake-up when it
  // frees cells, then looks again. True if the cells fit after all.
  //
  // Why the consumer's half-ring check suffices: we only wait when more than
  // capacity - cells >= capacity / 2 cells are unread (messages are at most
  // half a ring), so after our re-check the consumer must still cross a
  // half-ring boundary, where it reads this flag (Dekker on read_index and
  // producer_waiting, seq_cst on both sides).
  [[nodiscard]] bool want_room(std::uint32_t cells) noexcept {
    SHMPI_ASSERT(cells <= capacity_ / 2, "messages are at most half a ring");
    waiting_ = true;
    shared_->producer_waiting.store(1, std::memory_order_seq_cst);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    return has_room(cells);
  }

  // How far past the next cell own_ahead() starts, and at most how many
  // lines it asks for.
  static constexpr std::uint32_t kOwnAhead = 2;
  static constexpr std::uint32_t kOwnLines = 16;

 private:
  // Asks for the lines of the message after the next one (kOwnAhead cells
  // past the next cell, as many as this message had, at most kOwnLines).
  // publish()'s exchange waits until the head cell's line is ours, and the
  // consumer still holds every cell it read a lap ago, so a stream of
  // messages paid one ownership transfer after another; asked for ahead,
  // they overlap. Not the next cell itself: a consumer that has caught up
  // polls it, and the two sides would only trade it back and forth. Only
  // cells the consumer is known to be done with (by the cached read index,
  // which lags, so it errs towards skipping): in a nearly full ring those
  // cells hold messages it is about to read.
  void own_ahead(std::uint32_t cells) noexcept {
    const std::uint32_t lines = cells < kOwnLines ? cells : kOwnLines;
    if (write_index_ + kOwnAhead + lines - read_index_cache_ > capacity_) {
      return;
    }
    for (std::uint32_t k = 0; k < lines; ++k) {
      base::prefetch_for_write(&cells_[(write_index_ + kOwnAhead + k) & mask_]);
    }
  }

  RingShared* shared_ = nullptr;
  Cell* cells_ = nullptr;
  bool prefetch_ = false;  // base::has_prefetchw()
  std::uint64_t write_index_ = 0;
  std::uint64_t read_index_cache_ = 0;  // stale copy of shared_->read_index
  bool waiting_ = false;                // we set producer_waiting
  std::uint32_t capacity_ = 0;
  std::uint32_t mask_ = 0;
  unsigned log2_cells_ = 0;
};

// The receiver's view of one ring.
class RingConsumer {
 public:
  RingConsumer() = default;
  RingConsumer(std::byte* ring_memory, std::uint32_t cells);

  bool attached() const { return shared_ != nullptr; }
  // The next message's head cell, or nullptr if none has been published.
  [[nodiscard]] const Cell* peek() const noexcept {
    const Cell& head = cells_[read_index_ & mask_];
    // Acquire: pairs with the producer's exchange in publish(); the body and
    // the continuation cells are visible once the sequence is full(i).
    if (head.seq.load(std::memory_order_acquire) ==
        seq_full(read_index_, log2_cells_)) {
      return &head;
    }
    return nullptr;
  }
  const Cell& cell(std::uint32_t k) const noexcept {
    return cells_[(read_index_ + k) & mask_];
  }
  // Asks for the line of the cell k past the next one, for reading: a
  // backlog's cells sit in the producer's cache, and one miss after another
  // costs a line transfer per message; asked for ahead, they overlap. Only
  // while the producer is ahead (it may be writing that cell, or owning it
  // ahead of writing; then the hint costs it a transfer).
  void read_ahead(std::uint32_t k) const noexcept {
    __builtin_prefetch(&cell(k), 0, 3);
  }
  // Frees the `cells` cells of the message just consumed. Returns true if
  // the producer is waiting for room and must be woken.
  [[nodiscard]] bool release(std::uint32_t cells) noexcept {
    const std::uint64_t before = read_index_;
    read_index_ += cells;
    // Release: our reads of those cells happen before the producer reuses
    // them (pairs with its acquire in has_room()).
    shared_->read_index.store(read_index_, std::memory_order_release);
    if ((before >> half_shift_) == (read_index_ >> half_shift_)) [[likely]] {
      return false;
    }
    // seq_cst fence: our read_index store is visible before we read the
    // flag (pairs with the fence in RingProducer::want_room()). The flag
    // stays set until the producer finds room, so we wake it at every
    // half-ring crossing meanwhile.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    return shared_->producer_waiting.load(std::memory_order_relaxed) != 0;
  }
  // Stops polling: marks the next cell parked unless a message is there.
  // Returns false if a message arrived (keep polling).
  [[nodiscard]] bool try_park() noexcept;
  // At start-up, before any producer can push: parks the ring at index 0.
  static void park_initial(std::byte* ring_memory) noexcept;

 private:
  RingShared* shared_ = nullptr;
  Cell* cells_ = nullptr;
  std::uint64_t read_index_ = 0;
  std::uint32_t mask_ = 0;
  unsigned log2_cells_ = 0;
  unsigned half_shift_ = 0;  // log2(cells / 2)
};

}  // namespace shmpi::shm_queues
