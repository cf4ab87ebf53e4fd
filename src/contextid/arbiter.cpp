// SPDX-License-Identifier: MIT
#include "contextid/arbiter.hpp"

#include <algorithm>
#include <bit>

namespace shmpi::contextid {

std::unique_lock<std::mutex> Arbiter::lock() {
  return thread_safe_ ? std::unique_lock<std::mutex>(mutex_)
                      : std::unique_lock<std::mutex>();
}

bool Arbiter::offer(Key key, std::span<std::uint32_t, kMaskWords> out) {
  auto guard = lock();
  if (thread_safe_) {
    pending_.insert(key);
    const bool free_or_mine = !owned_ || owner_ == key;
    if (!free_or_mine || *pending_.begin() != key) {
      std::fill(out.begin(), out.end(), 0u);
      return false;
    }
    owned_ = true;
    owner_ = key;
  }
  std::copy(mask_.words().begin(), mask_.words().end(), out.begin());
  return true;
}

void Arbiter::drop(Key key) {
  if (owned_ && owner_ == key) {
    owned_ = false;
  }
}

void Arbiter::commit(Key key, std::span<const ContextId> ids) {
  auto guard = lock();
  for (ContextId id : ids) {
    mask_.allocate(id);
  }
  drop(key);
  pending_.erase(key);
}

void Arbiter::retry(Key key) {
  auto guard = lock();
  drop(key);
}

void Arbiter::abandon(Key key) {
  auto guard = lock();
  drop(key);
  pending_.erase(key);
}

void Arbiter::release(ContextId id) {
  auto guard = lock();
  mask_.release(id);
}

bool Arbiter::allocate(ContextId id) {
  auto guard = lock();
  return mask_.allocate(id);
}

unsigned Arbiter::free_count() {
  auto guard = lock();
  return mask_.free_count();
}

std::string Arbiter::to_hex() {
  auto guard = lock();
  return mask_.to_hex();
}

std::vector<ContextId> agree(std::span<const std::uint32_t* const> masks,
                             unsigned want) {
  std::vector<ContextId> ids;
  for (unsigned word = 0; word < kMaskWords && ids.size() < want; ++word) {
    std::uint32_t common = 0xffffffffu;
    for (const std::uint32_t* mask : masks) {
      common &= mask[word];
      if (common == 0) {
        break;
      }
    }
    while (common != 0 && ids.size() < want) {
      const unsigned bit =
          31u - static_cast<unsigned>(std::countl_zero(common));
      ids.push_back(from_mask_index(word * kBitsPerWord + bit));
      common &= ~(1u << bit);
    }
  }
  return ids;
}

}  // namespace shmpi::contextid
