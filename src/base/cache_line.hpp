// SPDX-License-Identifier: MIT
// Cache-line constants used for every shared layout. The segment is an ABI
// between the launcher and the ranks, so these are fixed numbers, not
// std::hardware_destructive_interference_size (which GCC warns may change).
#pragma once

#include <cstddef>

namespace shmpi {

inline constexpr std::size_t kCacheLineSize = 64;
// Adjacent-line prefetch pulls pairs of lines on Intel: keep writers 128 B
// apart (folly's Align.h reasoning).
inline constexpr std::size_t kFalseSharingRange = 128;
inline constexpr std::size_t kPageSize = 4096;

constexpr std::size_t align_up(std::size_t value, std::size_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// Where a copy of `bytes` split between two copiers divides: the middle,
// rounded up to a cache line, so the two never write the same line.
constexpr std::size_t line_aligned_half(std::size_t bytes) {
  return align_up(bytes / 2, kCacheLineSize);
}

}  // namespace shmpi
