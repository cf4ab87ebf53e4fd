// SPDX-License-Identifier: MIT
// Copies that write around the cache (non-temporal stores), for copies
// whose destination would not stay in this core's cache anyway: the
// stores skip the read for ownership of each destination line, so a
// memory-bound copy moves two bytes of memory traffic per byte instead of
// three. Callers decide when (coll: once the ranks bound to a core write
// at least its L2 cache in one call).
#pragma once

#include <cstddef>

namespace shmpi::base {

// memcpy(destination, source, bytes) for non-overlapping ranges, with
// non-temporal stores on x86-64 (SSE2: every x86-64 CPU has them). Ends
// with a store fence: those stores are weakly ordered, and a release
// store after this call must not become visible before them.
void copy_around_cache(void* destination, const void* source,
                       std::size_t bytes) noexcept;

}  // namespace shmpi::base
