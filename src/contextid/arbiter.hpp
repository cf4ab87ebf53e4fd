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
// progress and no ID is handed out twice (MPICH's lowestContextId scheme,
// with rounds instead of allreduces). Without MULTIPLE the mask is simply
// offered every time and no lock is taken.
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

  void set_thread_safe(bool thread_safe) { thread_safe_ = thread_safe; }

  // This process's contribution to a round of allocation `key`: writes the
  // mask to `out` and returns true, or writes zeros and returns false when
  // another allocation holds the mask. A true return makes `key` the owner
  // until commit(), retry() or abandon().
  bool offer(Key key, std::span<std::uint32_t, kMaskWords> out);
  // The round agreed on `ids`: mark them used and give up the mask.
  void commit(Key key, std::span<const ContextId> ids);
  // The round found nothing because somebody offered zeros: give up the
  // mask until the next round.
  void retry(Key key);
  // The allocation ends without an ID (error).
  void abandon(Key key);

  // Local operations (free, single-member allocation).
  void release(ContextId id);
  bool allocate(ContextId id);
  unsigned free_count();
  std::string to_hex();

 private:
  std::unique_lock<std::mutex> lock();
  void drop(Key key);

  Mask mask_;
  std::mutex mutex_;
  bool thread_safe_ = false;
  std::set<Key> pending_;
  bool owned_ = false;
  Key owner_ = 0;
};

// AND of `masks` from word 0 up, stopping at the first word with a set bit;
// then up to `want` IDs taken lowest word first, highest bit first. Returns
// the IDs (empty if the AND is empty).
std::vector<ContextId> agree(std::span<const std::uint32_t* const> masks,
                             unsigned want);

}  // namespace shmpi::contextid
