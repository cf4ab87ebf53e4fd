// SPDX-License-Identifier: MIT
// Asking for a cache line's ownership before writing it (PREFETCHW), on
// CPUs that have the instruction. A hint only: it changes where a line
// lives, never what it holds, so it needs no memory order.
#pragma once

namespace shmpi::base {

// True when the CPU has PREFETCHW (CPUID 0x80000001, ECX bit 8); decided
// once. Where it is missing, callers skip their prefetches.
bool has_prefetchw() noexcept;

inline void prefetch_for_write(const void* address) noexcept {
#if defined(__x86_64__)
  // Written out: __builtin_prefetch emits PREFETCHW only when compiled for
  // a CPU that has it (-mprfchw); callers ask has_prefetchw() instead.
  __asm__ volatile("prefetchw %0" : : "m"(*static_cast<const char*>(address)));
#else
  __builtin_prefetch(address, 1, 3);
#endif
}

}  // namespace shmpi::base
