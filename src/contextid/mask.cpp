// SPDX-License-Identifier: MIT
#include "contextid/mask.hpp"

#include <bit>
#include <cstdio>

namespace shmpi::contextid {

Mask::Mask() {
  words_.fill(0xffffffffu);
  words_[0] &= ~0x7u;  // predefined communicators: mask bits 0, 1, 2
  free_ = kMaskBits - 3;
}

std::optional<ContextId> Mask::locate(
    std::span<const std::uint32_t> candidates) {
  for (std::size_t word = 0; word < candidates.size(); ++word) {
    if (candidates[word] != 0) {
      const unsigned bit =
          31u - static_cast<unsigned>(std::countl_zero(candidates[word]));
      return from_mask_index(static_cast<unsigned>(word) * kBitsPerWord + bit);
    }
  }
  return std::nullopt;
}

bool Mask::is_free(ContextId id) const {
  return (words_[mask_word(id)] >> mask_bit(id) & 1u) != 0;
}

bool Mask::allocate(ContextId id) {
  if (!is_free(id)) {
    return false;
  }
  words_[mask_word(id)] &= ~(1u << mask_bit(id));
  --free_;
  return true;
}

bool Mask::release(ContextId id) {
  if (!owns_mask_bit(id)) {
    return true;
  }
  if (is_free(id)) {
    return false;
  }
  words_[mask_word(id)] |= 1u << mask_bit(id);
  ++free_;
  return true;
}

std::optional<ContextId> Mask::allocate_any() {
  std::optional<ContextId> id = locate(words_);
  if (id) {
    allocate(*id);
  }
  return id;
}

unsigned Mask::free_count() const { return free_; }

std::string Mask::to_hex() const {
  std::string text(kMaskWords * 8, '0');
  for (unsigned word = 0; word < kMaskWords; ++word) {
    char digits[9];
    std::snprintf(digits, sizeof digits, "%08x", words_[word]);
    text.replace(word * 8, 8, digits, 8);
  }
  return text;
}

}  // namespace shmpi::contextid
