// SPDX-License-Identifier: MIT
#include "runtime/runtime.hpp"

#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <thread>

#include "base/log.hpp"
#include "base/membarrier.hpp"
#include "runtime/knobs.hpp"
#include "runtime/world_barrier.hpp"
#include "segment/shared_heap.hpp"
#include "segment/spawn_request.hpp"
#include "segment/wake_word.hpp"
#include "shared_malloc/shared_malloc.hpp"

namespace shmpi::runtime {

Runtime* Runtime::instance_ = nullptr;
std::atomic<Runtime*> Runtime::published_{nullptr};

std::atomic<int>& lifecycle() {
  static std::atomic<int> state{kNotInitialized};
  return state;
}

std::atomic<bool>& active() {
  static std::atomic<bool> running{false};
  return running;
}

namespace {

constexpr int kErrOther = 16;

bool read_env_u64(const char* name, std::uint64_t* out) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') {
    return false;
  }
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (errno != 0 || *end != '\0') {
    return false;
  }
  *out = value;
  return true;
}

bool read_env_u32(const char* name, std::uint32_t* out) {
  std::uint64_t value = 0;
  if (!read_env_u64(name, &value) || value > 0xffffffffULL) {
    return false;
  }
  *out = static_cast<std::uint32_t>(value);
  return true;
}

}  // namespace

Runtime::Runtime(segment::Segment segment) : segment_(std::move(segment)) {}

Result<Runtime*> Runtime::initialize(bool thread_multiple, int thread_level) {
  std::uint32_t fd = 0;
  std::uint32_t rank = 0;
  std::uint32_t size = 1;
  std::uint32_t base = 0;  // first slot of this world
  std::uint32_t pg = 0;
  std::uint32_t appnum = 0;
  std::uint64_t request = 0;
  const bool launched = read_env_u32("SHMPI_SEGMENT_FD", &fd);
  const Knobs knobs = knobs_from_environment();
  std::unique_ptr<Runtime> runtime;
  if (launched) {
    if (!read_env_u32("SHMPI_RANK", &rank) ||
        !read_env_u32("SHMPI_SIZE", &size) || rank >= size) {
      return Err{kErrOther, "SHMPI_RANK/SHMPI_SIZE are missing or invalid"};
    }
    auto segment = segment::Segment::attach(static_cast<int>(fd));
    if (!segment) {
      return segment.error();
    }
    if (read_env_u32("SHMPI_PG", &pg) && pg != 0) {
      // Spawned (launcher/job_spawn.cpp sets all of these).
      if (!read_env_u32("SHMPI_WORLD_BASE", &base) ||
          !read_env_u32("SHMPI_APPNUM", &appnum) ||
          !read_env_u64("SHMPI_SPAWN_REQUEST", &request)) {
        return Err{kErrOther, "a spawned process's SHMPI_* are missing"};
      }
    } else if (segment->header().nranks != size) {
      return Err{kErrOther, "SHMPI_SIZE does not match the job's segment"};
    }
    if (std::uint64_t{base} + size > segment->layout().config.capacity) {
      return Err{kErrOther, "SHMPI_SIZE does not match the job's segment"};
    }
    runtime.reset(new Runtime(std::move(segment.value())));
  } else {
    // A world of one: a private segment that dies with this process.
    auto segment = segment::Segment::create(knobs.segment, 0);
    if (!segment) {
      return segment.error();
    }
    runtime.reset(new Runtime(std::move(segment.value())));
  }
  WorldInfo& world = runtime->world_;
  world.rank = rank;
  world.size = size;
  world.slot = base + rank;
  world.pg = pg;
  world.appnum = appnum;
  world.thread_level = thread_level;
  world.thread_multiple = thread_multiple;
  if (pg != 0) {
    if (auto read = runtime->read_spawn_request(request); !read) {
      return read.error();
    }
  }

  p2p::EngineConfig config;
  config.my_slot = world.slot;
  config.world_size = size;
  config.world_base = base;
  config.thread_multiple = thread_multiple;
  config.cpus = std::max(1U, std::thread::hardware_concurrency());
  config.oversubscribed = static_cast<unsigned>(size) > config.cpus;
  if (knobs.light_fences) {
    // Collective rounds publish behind a compiler barrier while nobody
    // sleeps, and a sleeper pays for the fence (coll/rounds.cpp).
    base::register_light_fences();
  }
  config.ring_eager_max = knobs.ring_eager_max;
  config.eager_max = knobs.eager_max;
  config.sleep_timeout_ns = knobs.sleep_timeout_ns;
  runtime->engine_ = std::make_unique<p2p::Engine>(runtime->segment_, config);
  if (auto prepared = runtime->engine_->prepare(); !prepared) {
    return prepared.error();
  }
  segment::RankInfo& info = runtime->segment_.rank_info(world.slot);
  info.pid.store(static_cast<std::int32_t>(::getpid()),
                 std::memory_order_relaxed);
  // gpid = (process group, rank in it): the first world is group 0. The
  // launcher wrote the same value before it forked us; plain store,
  // published by the release below and the start-up barrier.
  info.gpid = (std::uint64_t{world.pg} << 32) | world.rank;
  // Release: our prepared region is published with the state (MPI_Init's
  // barrier, or a session's first agreement round, also orders it: no rank
  // sends to us before either).
  info.state.store(static_cast<std::uint32_t>(segment::RankState::kRunning),
                   std::memory_order_release);
  runtime->launched_ = launched;
  if (launched) {
    runtime->enable_shared_malloc();
  }
  instance_ = runtime.release();
  // Release: pairs with the acquire in published(); the runtime is built.
  published_.store(instance_, std::memory_order_release);
  return instance_;
}

void Runtime::enable_shared_malloc() {
  // SHMPI_SHARED_MALLOC=0 keeps every allocation private (docs/design.md).
  if (!knobs_from_environment().shared_malloc) {
    return;
  }
  const segment::SegmentLayout& layout = segment_.layout();
  // A quarter of the heap stays for MPI_Alloc_mem and collective staging.
  shared_malloc::enable(&segment_.heap(), segment_.base() + layout.heap_offset,
                        layout.heap_bytes, layout.heap_bytes / 4);
}

Result<void> Runtime::read_spawn_request(std::uint64_t offset) {
  const segment::SegmentLayout& layout = segment_.layout();
  if (offset < layout.heap_offset ||
      offset + sizeof(segment::SpawnRequest) >
          layout.heap_offset + layout.heap_bytes) {
    return Err{kErrOther, "SHMPI_SPAWN_REQUEST is not in the shared heap"};
  }
  auto* request = segment_.at<segment::SpawnRequest>(offset);
  // The launcher answers once every process of the spawn has exec'd, so
  // this wait is short. Acquire: pairs with its release of the answer.
  while (request->state.load(std::memory_order_acquire) !=
         static_cast<std::uint32_t>(segment::SpawnState::kDone)) {
    ::usleep(100);
  }
  if (request->error != static_cast<std::int32_t>(segment::SpawnError::kNone)) {
    // The spawn failed elsewhere and the launcher is killing us: end
    // quietly, holding no reference.
    ::_exit(1);
  }
  WorldInfo& world = world_;
  world.world_block = request->world_block;
  world.world_barrier = request->world_barrier;
  world.parent_root = request->parent_root;
  world.parent_gpids.assign(request->parent_gpids(),
                            request->parent_gpids() + request->parent_size);
  // acq_rel: our reads of the block happen before whoever frees it, and
  // the last one acquires everyone's.
  if (request->references.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    segment_.heap().deallocate(request);
  }
  return {};
}

void Runtime::world_barrier() {
  // A spawned world has its own block in the shared heap (made by the
  // spawning root); the first world's opens the scratch area.
  auto* block = segment_.at<WorldBarrierBlock>(
      world_.world_barrier != 0 ? world_.world_barrier
                                : segment_.layout().scratch_offset);
  const std::uint64_t epoch = barrier_epoch_;
  ++barrier_epoch_;
  // acq_rel: our prior writes are released to the ranks that pass the
  // barrier, and the last arrival acquires everyone's.
  if (block->arrived.fetch_add(1, std::memory_order_acq_rel) + 1 ==
      world_.size) {
    // Relaxed reset: ordered before the epoch release below, and no rank
    // arrives for the next barrier before it sees the new epoch.
    block->arrived.store(0, std::memory_order_relaxed);
    // Release: pairs with the waiters' acquire load of epoch.
    block->epoch.store(epoch + 1, std::memory_order_release);
    for (std::uint32_t r = 0; r < world_.size; ++r) {
      if (r != world_.rank) {
        segment::wake_if_sleeping(engine_->control(world_.base_slot() + r));
      }
    }
    return;
  }
  engine_->wait_until(
      [&] { return block->epoch.load(std::memory_order_acquire) > epoch; });
}

void Runtime::end() {
  segment::RankInfo& info = segment_.rank_info(world_.slot);
  // Release: pairs with shmpirun's acquire when it judges our exit; what we
  // did before ending is ordered before the state it reads.
  info.state.store(static_cast<std::uint32_t>(segment::RankState::kFinalized),
                   std::memory_order_release);
  shared_malloc::stop_allocating();
}

void Runtime::resume() {
  segment::RankInfo& info = segment_.rank_info(world_.slot);
  // Release: as in initialize(); nothing of ours changed meanwhile.
  info.state.store(static_cast<std::uint32_t>(segment::RankState::kRunning),
                   std::memory_order_release);
  if (launched_) {
    enable_shared_malloc();
  }
}

void Runtime::abort_job(int code) {
  segment::SegmentHeader& header = segment_.header();
  header.abort_code.store(code, std::memory_order_relaxed);
  header.abort_rank.store(static_cast<std::int32_t>(world_.rank),
                          std::memory_order_relaxed);
  // Release: code and rank are visible to whoever sees the flag.
  header.abort_flag.store(1, std::memory_order_release);
  for (std::uint32_t r = 0; r < world_.size; ++r) {
    if (r != world_.rank) {
      segment::wake_if_sleeping(engine_->control(world_.base_slot() + r));
    }
  }
  ::_exit(code & 0xff ? code & 0xff : 1);
}

}  // namespace shmpi::runtime
