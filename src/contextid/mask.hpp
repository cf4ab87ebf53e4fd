// SPDX-License-Identifier: MIT
// The per-process context-ID mask of seed 000: 64 words of 32 bits, a set
// bit is a free ID. Allocation takes the lowest word that has a free bit and
// the highest free bit in it. The mask itself is not thread-safe: the
// agreement (agreement.hpp) serialises access to it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "contextid/context_id.hpp"

namespace shmpi::contextid {

using MaskWords = std::array<std::uint32_t, kMaskWords>;

class Mask {
 public:
  // Every bit free except bits 0, 1, 2 of word 0 (MPI_COMM_WORLD,
  // MPI_COMM_SELF and the reserved third predefined communicator).
  Mask();

  const MaskWords& words() const { return words_; }

  // The ID of the lowest word's highest set bit of `candidates` (typically
  // the AND of every member's mask), or nothing if no bit is set.
  static std::optional<ContextId> locate(
      std::span<const std::uint32_t> candidates);

  bool is_free(ContextId id) const;
  // Marks the ID's bit as used; false if it was not free.
  bool allocate(ContextId id);
  // Frees the ID's bit if the ID owns it (derived and dynamic IDs are
  // ignored, as the seeds say); false if it owned a bit that was not in use.
  bool release(ContextId id);
  // Allocates the lowest-word / highest-bit free ID of this mask alone.
  std::optional<ContextId> allocate_any();

  unsigned free_count() const;
  // 512 hex digits, word 0 first, each word most significant digit first:
  // "fffffff8ffffffff..." right after init.
  std::string to_hex() const;

 private:
  MaskWords words_;
  unsigned free_ = 0;  // set bits of words_, kept up to date
};

}  // namespace shmpi::contextid
