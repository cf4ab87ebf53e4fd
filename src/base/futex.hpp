// SPDX-License-Identifier: MIT
// Shared (not FUTEX_PRIVATE) futex calls on 32-bit words in the segment, so
// one process can wake another. std::atomic::wait uses private futexes and
// cannot be used across processes.
#pragma once

#include <atomic>
#include <cstdint>

namespace shmpi::base {

// Sleeps while *word == expected, at most timeout_ns (0: no limit). Returns
// on wake, timeout, signal or a changed word; callers re-check their state.
void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected,
                std::int64_t timeout_ns) noexcept;
// Wakes every waiter on word.
void futex_wake_all(std::atomic<std::uint32_t>& word) noexcept;

}  // namespace shmpi::base
