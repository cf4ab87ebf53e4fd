// SPDX-License-Identifier: MIT
// The process's context-ID mask and who may offer it to an agreement.
//
// Under MPI_THREAD_MULTIPLE several threads may create communicators at
// once, on different parents. Each allocation is one or more agreement
// rounds; in a round every member publishes either its mask or zeros, and
// the AND decides. A process lends its mask to one pending allocation at a
// time, the one with the smallest key (parent context ID, then a tag); the
// others publish zeros and try again in their next round. The globally
// smallest pending allocation therefore gets every member's mask within a
// round of each member's current one finishing, so creation always makes
// progress (MPICH's lowestContextId scheme, with rounds instead of
// allreduces). Without MULTIPLE no lock is taken.
//
// Rounds overlap even in one thread: an MPI_Comm_idup's round runs from
// the progress engine, so another creation may start and finish while it
// waits for its members, and an idup's round may start while a blocking
// creation waits for its members. So what a round offers is lent to it
// until it ends: later offers leave those bits out and say so
// (`lent_out`), and no two rounds of a process agree on the same ID.
// Neither kind may hold everything: MPI allows a blocking collective on
// one communicator while a nonblocking one on another is pending, in
// either order on different processes, so each may have to finish while
// the other waits. Nonblocking rounds therefore offer the mask's last
// kNonblockingWords words and blocking rounds the others (Reach), each
// kind widening to the whole mask only when its own part has no ID common
// to every member.
#pragma once

#include <cstdint>
#include <mutex>
#include <set>
#include <span>
#include <vector>

#include "contextid/mask.hpp"

namespace shmpi::contextid {

class Arbiter {
 public:
  using Key = std::uint64_t;  // (parent context ID << 32) | tag

  // The words of the mask an offer may take bits from: blocking rounds'
  // part, nonblocking rounds' part (the last kNonblockingWords), or all.
  enum class Reach : std::uint8_t { kAll, kBlocking, kNonblocking };
  static constexpr unsigned kNonblockingWords = 8;
  struct Offered {
    // The free bits (within reach, less those lent out) went to `out`;
    // false: zeros went, because another allocation holds the mask.
    bool real = false;
    // Free bits within reach were left out, lent to other rounds: an
    // empty agreement is then no proof that the members share no free ID.
    bool lent_out = false;
    explicit operator bool() const { return real; }
  };

  void set_thread_safe(bool thread_safe) { thread_safe_ = thread_safe; }

  // This process's contribution to a round of allocation `key`. What it
  // writes to `out` is lent to the round until commit(), retry() or
  // abandon(). Blocking allocations (`nonblocking` false) with MULTIPLE
  // take turns by the lowest pending key; nonblocking ones always do, among
  // themselves.
  Offered offer(Key key, std::span<std::uint32_t, kMaskWords> out,
                bool nonblocking, Reach reach);
  // The round agreed on `ids` (from what `key` was lent): mark them used
  // and give the rest back.
  void commit(Key key, std::span<const ContextId> ids);
  // The round found nothing because somebody offered zeros: give the loan
  // back until the next round.
  void retry(Key key);
  // The allocation ends without an ID (error).
  void abandon(Key key);

  // Local operations (free, single-member allocation).
  void release(ContextId id);
  bool allocate(ContextId id);
  unsigned free_count();
  std::string to_hex();

 private:
  struct Loan {
    Key key;
    MaskWords bits;
  };
  std::unique_lock<std::mutex> lock();
  void drop(Key key);
  void give_back(Key key);

  Mask mask_;
  MaskWords lent_{};         // union of the loans' bits
  std::vector<Loan> loans_;  // rounds in flight, a few at most
  std::mutex mutex_;
  bool thread_safe_ = false;
  std::set<Key> pending_;              // blocking allocations (MULTIPLE)
  std::set<Key> pending_nonblocking_;  // nonblocking allocations
  bool owned_ = false;                 // a blocking allocation's turn
  Key owner_ = 0;
};

// AND of `masks` from word 0 up, stopping at the first word with a set bit;
// then up to `want` IDs taken lowest word first, highest bit first. Returns
// the IDs (empty if the AND is empty).
std::vector<ContextId> agree(std::span<const std::uint32_t* const> masks,
                             unsigned want);

}  // namespace shmpi::contextid
