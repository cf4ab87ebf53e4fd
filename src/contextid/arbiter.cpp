// SPDX-License-Identifier: MIT
#include "contextid/arbiter.hpp"

#include <algorithm>
#include <bit>

#include "base/assert.hpp"

namespace shmpi::contextid {

std::unique_lock<std::mutex> Arbiter::lock() {
  return thread_safe_ ? std::unique_lock<std::mutex>(mutex_)
                      : std::unique_lock<std::mutex>();
}

Arbiter::Offered Arbiter::offer(Key key,
                                std::span<std::uint32_t, kMaskWords> out,
                                bool nonblocking, Reach reach) {
  auto guard = lock();
  std::fill(out.begin(), out.end(), 0u);
  if (nonblocking) {
    // Every process serves its nonblocking allocations lowest key first,
    // so the lowest everywhere gets every member's offer (MPICH's scheme).
    pending_nonblocking_.insert(key);
    if (*pending_nonblocking_.begin() != key) {
      return {};
    }
  } else if (thread_safe_) {
    pending_.insert(key);
    const bool free_or_mine = !owned_ || owner_ == key;
    if (!free_or_mine || *pending_.begin() != key) {
      return {};
    }
    owned_ = true;
    owner_ = key;
  }
  const unsigned split = kMaskWords - kNonblockingWords;
  const unsigned first = reach == Reach::kNonblocking ? split : 0;
  const unsigned end = reach == Reach::kBlocking ? split : kMaskWords;
  Offered offered;
  offered.real = true;
  Loan loan{key, {}};
  for (unsigned w = first; w < end; ++w) {
    const std::uint32_t free = mask_.words()[w];
    loan.bits[w] = free & ~lent_[w];
    offered.lent_out = offered.lent_out || loan.bits[w] != free;
    out[w] = loan.bits[w];
    lent_[w] |= loan.bits[w];
  }
  loans_.push_back(loan);
  return offered;
}

void Arbiter::give_back(Key key) {
  for (auto it = loans_.begin(); it != loans_.end(); ++it) {
    if (it->key == key) {
      for (unsigned w = 0; w < kMaskWords; ++w) {
        lent_[w] &= ~it->bits[w];
      }
      loans_.erase(it);
      return;
    }
  }
}

void Arbiter::drop(Key key) {
  give_back(key);
  if (owned_ && owner_ == key) {
    owned_ = false;
  }
}

void Arbiter::commit(Key key, std::span<const ContextId> ids) {
  auto guard = lock();
  for (ContextId id : ids) {
    // Agreed from this round's loan, which no other round could take.
    const bool was_free = mask_.allocate(id);
    SHMPI_ASSERT(was_free, "an agreed context ID was free and lent");
  }
  drop(key);
  pending_.erase(key);
  pending_nonblocking_.erase(key);
}

void Arbiter::retry(Key key) {
  auto guard = lock();
  drop(key);
}

void Arbiter::abandon(Key key) {
  auto guard = lock();
  drop(key);
  pending_.erase(key);
  pending_nonblocking_.erase(key);
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
