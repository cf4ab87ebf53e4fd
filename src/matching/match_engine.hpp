// SPDX-License-Identifier: MIT
// MatchEngine: one rank's posted-receive and unexpected-message queues,
// binned by (context ID, source) with a separate path for MPI_ANY_SOURCE.
//
// Ordering (MPI's non-overtaking rule): every entry carries an order number
// (posting order for receives, arrival order for messages). A message is
// matched to the earliest-posted receive that accepts it: the first match in
// its (context, source) bin and the first in the context's any-source list
// are compared by order. A receive takes the earliest-arrived message it
// accepts: from the source's bin, or for MPI_ANY_SOURCE from the context's
// arrival-ordered list of all unexpected messages. Messages from one source
// arrive in the order they were sent (one FIFO ring per pair), so both rules
// together give MPI's ordering.
//
// Not thread-safe: the caller serialises (the engine lock in p2p).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "matching/match_list.hpp"

namespace shmpi::matching {

inline constexpr std::int32_t kAnySource =
    -1;  // MPI_ANY_SOURCE (mpi.h, ABI value)
inline constexpr std::int32_t kAnyTag = -2;  // MPI_ANY_TAG (mpi.h, ABI value)

// A posted receive. Embedded in the receive request.
struct PostedEntry {
  ListHook hook;
  std::uint64_t order = 0;
  std::uint16_t context_id = 0;
  std::int32_t source = 0;  // or kAnySource
  std::int32_t tag = 0;     // or kAnyTag
};

// An unexpected message. Embedded in the unexpected-message record; linked
// into its source bin and into the context's arrival list.
struct UnexpectedEntry {
  ListHook source_hook;
  ListHook arrival_hook;
  std::uint64_t order = 0;
  std::uint16_t context_id = 0;
  std::int32_t source = 0;
  std::int32_t tag = 0;
};

class MatchEngine {
 public:
  MatchEngine();
  ~MatchEngine();
  MatchEngine(const MatchEngine&) = delete;
  MatchEngine& operator=(const MatchEngine&) = delete;

  // Queues a receive that found no unexpected message.
  void post(PostedEntry* entry);
  // Removes and returns the earliest-posted receive that accepts the message.
  PostedEntry* match_posted(std::uint16_t context_id, std::int32_t source,
                            std::int32_t tag);
  // Removes a posted receive (cancel). False if it was not queued.
  bool remove_posted(PostedEntry* entry);

  void add_unexpected(UnexpectedEntry* entry);
  // The earliest-arrived message the receive accepts; removed unless peek.
  UnexpectedEntry* match_unexpected(std::uint16_t context_id,
                                    std::int32_t source, std::int32_t tag,
                                    bool peek);
  void remove_unexpected(UnexpectedEntry* entry);

  std::uint64_t next_order() { return ++order_; }
  // Receives posted and not yet matched, over all contexts (fast paths may
  // bypass the queues only when this is zero). Safe from any thread (MPI_T
  // reads it), like the two below.
  std::size_t posted_count() const {
    return posted_count_.load(std::memory_order_relaxed);
  }
  // Unexpected messages queued (not yet received or matched by a probe).
  std::size_t unexpected_count() const {
    return unexpected_count_.load(std::memory_order_relaxed);
  }
  // The longest the unexpected queue has been since the previous call (at
  // least its length now), and starts watching again from zero.
  std::size_t take_unexpected_peak() noexcept;
  // True if an unexpected message from `source` waits in `context_id`.
  bool has_unexpected(std::uint16_t context_id, std::int32_t source) const;

 private:
  struct ContextQueues;
  ContextQueues& queues(std::uint16_t context_id);
  ContextQueues* find_queues(std::uint16_t context_id) const {
    return by_context_[context_id].get();
  }

  // Changes the length by +1 or -1 (the owning thread only).
  static void add_to(std::atomic<std::size_t>& count, int delta) noexcept {
    // Relaxed load and store, no read-modify-write: the owner is the only
    // writer, and readers on other threads (MPI_T) need no ordering with
    // the queues themselves. On x86 this costs what a plain counter did.
    count.store(
        count.load(std::memory_order_relaxed) + static_cast<std::size_t>(delta),
        std::memory_order_relaxed);
  }

  std::uint64_t order_ = 0;
  // Queue lengths. Written by the owning thread only (see add_to()); read
  // by it and, relaxed, by MPI_T on any thread.
  std::atomic<std::size_t> posted_count_{0};
  std::atomic<std::size_t> unexpected_count_{0};
  // The longest unexpected_count_ since take_unexpected_peak() last reset
  // it. Raised by the owner (compare-exchange, only on a new peak), reset by
  // MPI_T's exchange: both are read-modify-writes, so neither loses the
  // other's value. Relaxed: a statistic, ordered with nothing else.
  std::atomic<std::size_t> unexpected_peak_{0};
  std::vector<std::unique_ptr<ContextQueues>>
      by_context_;  // indexed by context ID
};

}  // namespace shmpi::matching
