// SPDX-License-Identifier: MIT
// The job's port and name registry (MPI 4.0 §11.4, docs/design.md#ports):
// the ports MPI_Open_port opened, the connects queued on each, and the
// names MPI_Publish_name published. One block of the shared heap, found
// through a word in the scratch area's header page and made by its first
// user; every access holds the block's robust process-shared mutex (these
// are cold calls). Only processes of the same segment (one shmpirun job)
// see each other's ports.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "base/cache_line.hpp"
#include "lpid/gpid.hpp"
#include "mpi/core.hpp"
#include "scratch/block_pool.hpp"
#include "segment/robust_mutex.hpp"

namespace shmpi::mpi::ports {

// Where the registry's offset lives: the scratch header page's line after
// the block pool's heads (scratch/block_pool.hpp), zero in a new segment.
inline constexpr std::size_t kRootInScratch =
    scratch::kPoolHeadsInScratch + sizeof(scratch::PoolHeads);

struct alignas(kFalseSharingRange) RegistryRoot {
  // The registry's segment offset, 0 until made. Written once by the first
  // user's compare-exchange, read by every later one.
  std::atomic<std::uint64_t> registry_offset;
};
static_assert(kRootInScratch + sizeof(RegistryRoot) <=
                  segment::kScratchHeaderBytes,
              "the root shares the scratch area's header page");
static_assert(std::atomic<std::uint64_t>::is_always_lock_free,
              "address-free across processes");

inline constexpr unsigned kMaxPorts = 256;
inline constexpr unsigned kMaxNames = 256;
// The names MPI_Open_port makes are short ("shmpi-port:<job>:<serial>").
inline constexpr std::size_t kPortNameBytes = 64;
// Longer service names are refused (MPI_ERR_ARG): the standard sets no
// limit, a fixed one keeps entries by offset.
inline constexpr std::size_t kServiceNameBytes = 256;

// A connect waiting on a port, in the shared heap, made and freed by the
// connecting root. The accepting root fills the accept half and sets
// `state`; the connecting root then reads it and frees the request.
struct alignas(kFalseSharingRange) ConnectRequest {
  // kQueued, then kAccepted (by the accepting root) or kRefused (by
  // MPI_Close_port). Release stores by those two after they wrote the
  // rest; acquire loads by the connecting root, which waits for it.
  std::atomic<std::uint32_t> state;
  std::uint32_t connector_slot;  // segment slot to wake
  std::uint64_t next;            // queue link (offset, 0: last); under mutex
  std::uint64_t connection;      // job-wide serial, set by the acceptor
  std::int32_t connect_size;     // gpids of the connecting group
  std::int32_t connect_root;     // the connecting root's rank in its group
  std::int32_t accept_size;      // gpids of the accepting group
  std::int32_t accept_root;
  // connect_size gpids follow, then room for `capacity` accept gpids.
  lpid::Gpid* gpids() {
    // The gpids follow the header in the same heap block.
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast)
    return reinterpret_cast<lpid::Gpid*>(this + 1);
  }
};
inline constexpr std::uint32_t kQueued = 0;
inline constexpr std::uint32_t kAccepted = 1;
inline constexpr std::uint32_t kRefused = 2;
static_assert(sizeof(ConnectRequest) == kFalseSharingRange);
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);
static_assert(std::is_trivially_copyable_v<lpid::Gpid> &&
              alignof(lpid::Gpid) <= kFalseSharingRange);

struct alignas(kFalseSharingRange) PortEntry {
  char name[kPortNameBytes];  // "" when the entry is free; under mutex
  std::uint64_t head;         // FIFO of ConnectRequest offsets; under mutex
  std::uint64_t tail;
  // Connects queued. Changed under the mutex; an accepting root that
  // waits reads it without the mutex (acquire, pairs with the release
  // increments) to know when to take the mutex again.
  std::atomic<std::uint32_t> queued;
  // Bumped (release) when the port closes: a waiting acceptor stops.
  std::atomic<std::uint32_t> closes;
  std::int32_t accept_waiter;  // slot of an accepting root asleep, or -1
};
static_assert(sizeof(PortEntry) == kFalseSharingRange);

struct alignas(kFalseSharingRange) NameEntry {
  char service[kServiceNameBytes];  // "" when the entry is free
  char port[MPI_MAX_PORT_NAME];
};
static_assert(sizeof(NameEntry) % kFalseSharingRange == 0);

struct Registry {
  alignas(kFalseSharingRange) segment::RobustMutex mutex;
  std::uint64_t next_port_serial;  // under mutex
  std::uint64_t next_connection;   // under mutex
  PortEntry ports[kMaxPorts];
  NameEntry names[kMaxNames];
};
static_assert(alignof(Registry) == kFalseSharingRange);

// The registry, made on first use; nullptr when the heap has no room.
Registry* registry();
// A heap block's segment offset and back.
inline std::uint64_t offset_of(const void* pointer) {
  return state().runtime->segment().offset_of(pointer);
}
template <typename T>
T* at(std::uint64_t offset) {
  return state().runtime->segment().at<T>(static_cast<std::size_t>(offset));
}

// The port named `name` (compared in full), or nullptr; under the mutex.
PortEntry* find_port(Registry& r, const char* name);

// Scoped hold of the registry's mutex.
class Lock {
 public:
  explicit Lock(Registry& r) : r_(r) { r_.mutex.lock(); }
  ~Lock() { r_.mutex.unlock(); }
  Lock(const Lock&) = delete;
  Lock& operator=(const Lock&) = delete;

 private:
  Registry& r_;
};

// Wakes the process in `slot` if it sleeps (after a release store).
void wake_slot(std::uint32_t slot);

}  // namespace shmpi::mpi::ports
