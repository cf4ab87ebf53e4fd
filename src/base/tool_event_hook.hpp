// SPDX-License-Identifier: MIT
// The hook through which the runtime raises MPI_T events (MPI 4.0 section
// 15.3.8) without depending on the MPI layer: a raise site asks armed(),
// and only when a tool has registered a callback for that event type does
// it fill the event's element buffer and call raise(). src/mpi/tool_events*
// installs the sink that finds the callbacks (docs/design.md#tool-events).
//
// Memory ordering: armed() is a relaxed load of a process-local word (not in
// the segment), written only when registrations change, so its cache line
// stays shared-clean in every core while nothing changes. Relaxed is enough
// because the flag only decides whether to take the slow path: raise() then
// synchronises with the registry itself (a mutex in the sink). A raise that
// misses a registration made at the same moment by another thread is a race
// the standard leaves open; the next occurrence sees it.
#pragma once

#include <atomic>
#include <cstdint>

namespace shmpi::base::tool_events {

// The event types the runtime raises, in MPI_T event-index order.
enum class EventType : std::uint32_t {
  kUnexpectedMessage,  // a message arrived before its receive was posted
  kWaitSleep,          // a waiting rank stopped polling and went to sleep
  kWaitWake,           // ... and woke again
  kCount
};
inline constexpr int kEventTypeCount = static_cast<int>(EventType::kCount);

// What a raise site can guarantee a callback, in increasing order of the
// restrictions the callback must accept (MPI_T_cb_safety's order): a site
// that needs kMpiRestricted may only call callbacks registered for
// kMpiRestricted or a stricter level.
enum class SiteSafety : std::uint8_t {
  kNone,
  kMpiRestricted,
  kThreadSafe,
  kAsyncSignalSafe
};

// Element buffers, one struct per event type. Their layout is the ABI that
// MPI_T_event_get_info describes (src/mpi/tool_events_catalog.cpp), so the
// fields are fixed-size and in the order of the elements.
struct UnexpectedMessageElements {
  std::int64_t bytes;        // message length
  std::int32_t source;       // sender's rank in the communicator
  std::int32_t tag;          // the message's tag
  std::uint32_t context_id;  // the communicator's receive context id
};
struct WaitSleepElements {
  std::int64_t polled_ns;  // time this wait polled and yielded first
};
struct WaitWakeElements {
  std::int64_t slept_ns;  // time spent asleep
};

using Sink = void (*)(EventType type, SiteSafety safety,
                      const void* elements) noexcept;

namespace detail {
// Bit t set: a callback is registered for EventType t. Written by the sink's
// owner under its registry lock; read relaxed (see Memory ordering above).
extern std::atomic<std::uint32_t> g_armed_mask;
}  // namespace detail

// True when a tool listens for `type` in this process.
inline bool armed(EventType type) noexcept {
  return ((detail::g_armed_mask.load(std::memory_order_relaxed) >>
           static_cast<std::uint32_t>(type)) &
          1U) != 0;
}

// Hands the element buffer to the sink, which invokes the callbacks in this
// thread before it returns. Call only when armed(type) said true.
[[gnu::cold]] void raise(EventType type, SiteSafety safety,
                         const void* elements) noexcept;

// For the MPI layer: installs the sink (once) and sets which types are armed.
void set_sink(Sink sink) noexcept;
void set_armed_mask(std::uint32_t mask) noexcept;

// Nanoseconds of CLOCK_MONOTONIC: the clock of MPI_Wtime and of the event
// timestamps.
std::int64_t monotonic_ns() noexcept;

}  // namespace shmpi::base::tool_events
