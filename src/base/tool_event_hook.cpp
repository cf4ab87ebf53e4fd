// SPDX-License-Identifier: MIT
// The process-local state behind base/tool_event_hook.hpp.
#include "base/tool_event_hook.hpp"

#include <time.h>

namespace shmpi::base::tool_events {
namespace detail {

// Writer: set_armed_mask(), under the MPI layer's registry lock. Readers:
// every raise site (relaxed; see the header's Memory ordering).
std::atomic<std::uint32_t> g_armed_mask{0};

}  // namespace detail
namespace {

// Written once by set_sink() before the first bit of the mask is set.
std::atomic<Sink> g_sink{nullptr};

}  // namespace

void raise(EventType type, SiteSafety safety, const void* elements) noexcept {
  // Acquire: pairs with the release store in set_sink(), which happens
  // before any bit of the mask is set.
  if (const Sink sink = g_sink.load(std::memory_order_acquire);
      sink != nullptr) {
    sink(type, safety, elements);
  }
}

void set_sink(Sink sink) noexcept {
  // Release: see raise().
  g_sink.store(sink, std::memory_order_release);
}

void set_armed_mask(std::uint32_t mask) noexcept {
  // Relaxed: the flag only selects the slow path (header, Memory ordering).
  detail::g_armed_mask.store(mask, std::memory_order_relaxed);
}

std::int64_t monotonic_ns() noexcept {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 +
         static_cast<std::int64_t>(now.tv_nsec);
}

}  // namespace shmpi::base::tool_events
