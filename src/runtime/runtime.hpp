// SPDX-License-Identifier: MIT
// Runtime: the life of one MPI process. The first MPI_Init or
// MPI_Session_init attaches to the job's segment (or makes a private one
// when the program was started without shmpirun) and prepares the
// point-to-point engine; the last MPI_Finalize or MPI_Session_finalize
// marks this rank finalized (end()). The object then stays, mapping and
// engine included, so a later MPI_Init or MPI_Session_init resumes it.
// Meeting the other ranks (world_barrier) is the World Model's: MPI_Init
// and MPI_Finalize call it, sessions never do (MPI_Session_init is local).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

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
  // A world that MPI_Comm_spawn started (pg != 0; docs/design.md#spawn):
  // its slots are [slot - rank, slot - rank + size).
  std::uint32_t pg = 0;             // process group: 0 for the first world
  std::uint32_t appnum = 0;         // MPI_APPNUM: the command's index
  std::uint64_t world_block = 0;    // its MPI_COMM_WORLD CommBlock (offset)
  std::uint64_t world_barrier = 0;  // its WorldBarrierBlock (offset)
  std::vector<std::uint64_t> parent_gpids;  // packed; empty: no parent
  int parent_root = 0;  // the spawning root's rank among them
  std::uint32_t base_slot() const { return slot - rank; }
};

class Runtime {
 public:
  // Initialises the process; `thread_multiple` turns the engine's locks on.
  // Local: meets no other rank. Called once per process.
  static Result<Runtime*> initialize(bool thread_multiple, int thread_level);
  static Runtime* get() { return instance_; }
  // get() for callers on any thread that may run while another initializes
  // (the MPI_T interface): nullptr until initialize() has finished.
  static Runtime* published() {
    return published_.load(std::memory_order_acquire);
  }
  // Marks this rank finalized in the segment (what shmpirun checks when it
  // exits) and stops shared-heap allocations. Local. The engine and the
  // mapping stay: other ranks may still be reading our staging slots, and
  // the memfd lives until every process has exited.
  void end();
  // Undoes end(): the rank runs again (MPI_Init or MPI_Session_init after
  // every earlier user finished).
  void resume();

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
  // instance_, published once initialize() is done; never reset.
  static std::atomic<Runtime*> published_;

  segment::Segment segment_;
  WorldInfo world_;
  // Reads what a spawned process needs from its SpawnRequest (the
  // parents, its world's blocks) and drops its reference to it.
  Result<void> read_spawn_request(std::uint64_t offset);
  std::unique_ptr<p2p::Engine> engine_;
  std::uint64_t barrier_epoch_ = 0;
  bool launched_ = false;  // attached to shmpirun's segment
};

// The World Model's state, which MPI_Initialized / MPI_Finalized report
// (the MPI layer sets it); safe from any thread.
std::atomic<int>& lifecycle();  // 0 not yet, 1 initialized, 2 finalized
inline constexpr int kNotInitialized = 0;
inline constexpr int kInitialized = 1;
inline constexpr int kFinalized = 2;
// Whether the runtime runs: between the first MPI_Init / MPI_Session_init
// and the last MPI_Finalize / MPI_Session_finalize (the MPI layer sets it,
// mpi/lifecycle.cpp); safe from any thread.
std::atomic<bool>& active();

}  // namespace shmpi::runtime
