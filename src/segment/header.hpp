// SPDX-License-Identifier: MIT
// The shared structures at fixed places in the segment: the header (first
// page) and the rank table. Each field names its writer.
#pragma once

#include <atomic>
#include <cstdint>
#include <type_traits>

#include "base/cache_line.hpp"
#include "segment/layout.hpp"

namespace shmpi::segment {

enum class RankState : std::uint32_t {
  kEmpty = 0,      // spare slot, no process
  kStarting = 1,   // forked by the launcher, MPI not initialized yet
  kRunning = 2,    // inside MPI_Init .. MPI_Finalize
  kFinalized = 3,  // MPI_Finalize done
  kDead = 4,       // the launcher saw it die before finalizing
};

struct SegmentHeader {
  // Written once by the creator before any rank starts; read-only after.
  std::uint64_t magic;
  std::uint32_t layout_version;
  std::uint32_t nranks;
  std::uint64_t size_bytes;
  std::uint64_t job_id;
  std::int32_t launcher_pid;  // 0 when a program runs without shmpirun
  // The smallest L2 cache of the machine's cores in bytes (hwloc), written
  // by the launcher before it starts ranks when it loads the topology (it
  // does unless --bind-to none; SHMPI_L2_CACHE_BYTES replaces it); 0 when
  // unknown. Collectives write around the cache when the ranks bound to a
  // core would write all of it in one call.
  std::uint32_t l2_cache_bytes;
  SegmentConfig config;

  // Abort line. Written by any rank (MPI_Abort) or by the launcher (a rank
  // died); read by everyone while waiting.
  alignas(kFalseSharingRange) std::atomic<std::uint32_t> abort_flag;
  std::atomic<std::int32_t> abort_code;
  std::atomic<std::int32_t> abort_rank;  // -1: the launcher raised it

  // Ranks of the job asleep (or about to sleep) on their wake words:
  // incremented before a sleeper's heavy fence, decremented after it wakes
  // (segment/wake_word.hpp). Publishers that run a light fence read it
  // first and look at the members' wake words only when it is not zero
  // (coll/rounds.cpp). Its own line: written by sleepers only.
  alignas(kFalseSharingRange) std::atomic<std::uint32_t> sleepers;
};
static_assert(std::is_standard_layout_v<SegmentHeader>, "shared by offset");
static_assert(sizeof(SegmentHeader) <= kPageSize,
              "the header owns the first page");
static_assert(std::atomic<std::uint32_t>::is_always_lock_free &&
                  std::atomic<std::int32_t>::is_always_lock_free &&
                  std::atomic<std::uint64_t>::is_always_lock_free,
              "atomics shared between processes must be address-free");

// One per rank slot. Written by the rank itself (pid, state, placement) and
// by the launcher (kStarting before fork, kDead after reaping); read by all.
struct alignas(kFalseSharingRange) RankInfo {
  std::atomic<std::int32_t> pid;
  std::atomic<std::uint32_t> state;  // RankState
  std::int32_t core;                 // -1 when not bound
  std::int32_t numa_node;
  std::uint64_t gpid;  // (process-group id << 32) | rank in that group
};
static_assert(sizeof(RankInfo) == kRankInfoBytes,
              "layout.hpp reserves 128 B per rank");

// Per-rank control block, first in the rank's region.
//
// wake_word: bits 0..7 count the rank's threads that are asleep (or about to
// sleep) on it; bits 8..31 are a wake sequence. A sleeper increments the
// count, fences, re-checks its condition and FUTEX_WAITs on the value it
// saw; a waker that sees a non-zero count bumps the sequence (so a sleeper
// that has not reached FUTEX_WAIT yet fails it) and FUTEX_WAKEs. Written by
// the owner (count) and by any waker (sequence); see segment/wake_word.hpp.
//
// doorbell: bit s of doorbell[s / 64] is set by sender s (fetch_or) when it
// pushed into a ring this rank had parked; cleared by the owner (exchange).
struct alignas(kFalseSharingRange) RankControl {
  std::atomic<std::uint32_t> wake_word;
  std::uint32_t reserved;
  std::atomic<std::uint64_t> doorbell[kMaxCapacity / 64];
};
static_assert(sizeof(RankControl) <= kRankControlBytes,
              "layout.hpp reserves 256 B");
static_assert(std::atomic<std::uint64_t>::is_always_lock_free, "address-free");

}  // namespace shmpi::segment
