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
};

// The thread's cache, made on first use and emptied at thread exit; after
// that (static destructors), frames go straight back to operator delete.
// Only a pointer lives in TLS, with the initial-exec model: no
// __tls_get_addr call per frame, and few enough bytes of static TLS that a
// program may still dlopen() libshmpi (mpi4py does).
struct CacheHolder {
  Cache* cache = nullptr;
  bool gone = false;
  CacheHolder() = default;
  CacheHolder(const CacheHolder&) = delete;
  CacheHolder& operator=(const CacheHolder&) = delete;
  ~CacheHolder() {
    if (cache != nullptr) {
      for (std::size_t k = 0; k < kClasses; ++k) {
        for (std::size_t i = 0; i < cache->count[k]; ++i) {
          ::operator delete(cache->frames[k][i]);
        }
      }
      delete cache;
      cache = nullptr;
    }
    gone = true;
  }
};
[[gnu::tls_model("initial-exec")]] thread_local CacheHolder holder;

Cache* thread_cache() {
  if (holder.cache == nullptr && !holder.gone) [[unlikely]] {
    holder.cache = new (std::nothrow) Cache();
  }
  return holder.cache;
}

std::size_t class_of(std::size_t bytes) {
  return (bytes + kClassBytes - 1) / kClassBytes - 1;
}

}  // namespace

void* allocate(std::size_t bytes) {
  const std::size_t k = class_of(bytes);
  Cache* cache = k < kClasses ? thread_cache() : nullptr;
  if (cache == nullptr) {
    return ::operator new(bytes);
  }
  if (cache->count[k] != 0) {
    return cache->frames[k][--cache->count[k]];
  }
  return ::operator new((k + 1) * kClassBytes);
}

void release(void* frame, std::size_t bytes) noexcept {
  const std::size_t k = class_of(bytes);
  Cache* cache = k < kClasses ? thread_cache() : nullptr;
  if (cache != nullptr && cache->count[k] < kPerClass) {
    cache->frames[k][cache->count[k]++] = frame;
    return;
  }
  ::operator delete(frame);
}

}  // namespace shmpi::coll::frame_cache
