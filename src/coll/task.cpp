// SPDX-License-Identifier: MIT
#include "coll/task.hpp"

#include <array>
#include <new>

namespace shmpi::coll::frame_cache {

namespace {

constexpr std::size_t kClassBytes = 128;  // size classes: 128 B steps
constexpr std::size_t kClasses = 32;      // cached: frames up to 4 KiB
constexpr std::size_t kPerClass = 8;      // frames kept per class

// Freed frames, per class; frames are plain operator new memory, so one
// freed on another thread than its allocator simply joins that thread's
// cache.
struct Cache {
  std::array<std::array<void*, kPerClass>, kClasses> frames{};
  std::array<std::size_t, kClasses> count{};
  Cache() = default;
  Cache(const Cache&) = delete;
  Cache& operator=(const Cache&) = delete;
  ~Cache();
};
thread_local Cache cache;
// Set once the thread's cache is gone: frames freed later (static
// destructors) go straight back to operator delete.
thread_local bool cache_gone = false;

Cache::~Cache() {
  for (std::size_t k = 0; k < kClasses; ++k) {
    for (std::size_t i = 0; i < count[k]; ++i) {
      ::operator delete(frames[k][i]);
    }
    count[k] = 0;
  }
  cache_gone = true;
}

std::size_t class_of(std::size_t bytes) {
  return (bytes + kClassBytes - 1) / kClassBytes - 1;
}

}  // namespace

void* allocate(std::size_t bytes) {
  const std::size_t k = class_of(bytes);
  if (k >= kClasses || cache_gone) {
    return ::operator new(bytes);
  }
  if (cache.count[k] != 0) {
    return cache.frames[k][--cache.count[k]];
  }
  return ::operator new((k + 1) * kClassBytes);
}

void release(void* frame, std::size_t bytes) noexcept {
  const std::size_t k = class_of(bytes);
  if (k < kClasses && !cache_gone && cache.count[k] < kPerClass) {
    cache.frames[k][cache.count[k]++] = frame;
    return;
  }
  ::operator delete(frame);
}

}  // namespace shmpi::coll::frame_cache
