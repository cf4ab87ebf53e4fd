// SPDX-License-Identifier: MIT
// Runtime: the life of one MPI process. MPI_Init attaches to the job's
// segment (or makes a private one when the program was started without
// shmpirun), prepares the point-to-point engine and meets the other ranks;
// MPI_Finalize meets them again and marks this rank finalized.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "base/result.hpp"
#include "p2p/engine.hpp"
#include "segment/segment.hpp"

namespace shmpi::runtime {

struct WorldInfo {
  std::uint32_t rank = 0;  // this process's rank in MPI_COMM_WORLD
  std::uint32_t size = 1;  // ranks in MPI_COMM_WORLD
  std::uint32_t slot = 0;  // segment slot (== rank for the first world)
  int thread_level = 0;    // granted level (mpi.h value)
  bool thread_multiple = false;
};

class Runtime {
 public:
  // Initialises the process; `thread_multiple` turns the engine's locks on.
  static Result<Runtime*> initialize(bool thread_multiple, int thread_level);
  static Runtime* get() { return instance_; }
  // Collective over MPI_COMM_WORLD; destroys the runtime.
  static Result<void> finalize();

  const WorldInfo& world() const { return world_; }
  p2p::Engine& engine() { return *engine_; }
  const segment::Segment& segment() const { return segment_; }
  // Barrier over the first world's ranks on the segment's scratch area.
  void world_barrier();
  // Ends the job: raises the abort flag with `code` and exits.
  [[noreturn]] void abort_job(int code);

 private:
  // Large allocations from now on come from the shared heap
  // (src/shared_malloc), unless SHMPI_SHARED_MALLOC=0.
  void enable_shared_malloc();
  explicit Runtime(segment::Segment segment);
  static Runtime* instance_;

  segment::Segment segment_;
  WorldInfo world_;
  std::unique_ptr<p2p::Engine> engine_;
  std::uint64_t barrier_epoch_ = 0;
};

// The state that MPI_Initialized / MPI_Finalized report; safe from any thread.
std::atomic<int>& lifecycle();  // 0 not yet, 1 initialized, 2 finalized
inline constexpr int kNotInitialized = 0;
inline constexpr int kInitialized = 1;
inline constexpr int kFinalized = 2;

}  // namespace shmpi::runtime
