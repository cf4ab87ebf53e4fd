// SPDX-License-Identifier: MIT
// The 16-bit context ID of seeds 000/001, laid out as VWWWWWWXXXXXLYYZ:
//
//   bit 15      V  dynamic-process ID (allocated outside the mask)
//   bits 14..9  W  mask word index (0..63)
//   bits  8..4  X  bit index within the word (0..31)
//   bit   3     L  localcomm of an intercommunicator (derived, no agreement)
//   bits  2..1  Y  sub-communicator type: 0 parent, 1 intranode, 2 internode
//   bit   0     Z  0 point-to-point, 1 internal collective traffic
//
// The mask index is i = word * 32 + bit and the prefix is i << 4, so the
// predefined communicators (mask bits 0, 1, 2 of word 0) have prefixes 0,
// 16 and 32, and the first ID allocated after init (word 0, bit 31) is 496.
// Only V, W and X name a mask bit; L, Y and Z derive further IDs from one
// allocated bit without any communication.
#pragma once

#include <cstdint>

namespace shmpi::contextid {

using ContextId = std::uint16_t;

inline constexpr unsigned kMaskWords = 64;
inline constexpr unsigned kBitsPerWord = 32;
inline constexpr unsigned kMaskBits = kMaskWords * kBitsPerWord;  // 2048

// Sub-communicator types (the Y field).
enum class SubComm : std::uint8_t {
  kParent = 0,
  kIntranode = 1,
  kInternode = 2
};
// Context type suffix (the Z field).
enum class Suffix : std::uint8_t { kPointToPoint = 0, kCollective = 1 };

namespace field {
inline constexpr unsigned kSuffixShift = 0;
inline constexpr unsigned kSubCommShift = 1;
inline constexpr unsigned kLocalShift = 3;
inline constexpr unsigned kBitShift = 4;
inline constexpr unsigned kWordShift = 9;
inline constexpr unsigned kDynamicShift = 15;
}  // namespace field

constexpr bool is_dynamic(ContextId id) {
  return ((id >> field::kDynamicShift) & 1u) != 0;
}
constexpr unsigned mask_word(ContextId id) {
  return (id >> field::kWordShift) & 0x3fu;
}
constexpr unsigned mask_bit(ContextId id) {
  return (id >> field::kBitShift) & 0x1fu;
}
constexpr unsigned mask_index(ContextId id) {
  return mask_word(id) * kBitsPerWord + mask_bit(id);
}
constexpr bool is_localcomm(ContextId id) {
  return ((id >> field::kLocalShift) & 1u) != 0;
}
constexpr SubComm subcomm(ContextId id) {
  return static_cast<SubComm>((id >> field::kSubCommShift) & 3u);
}
constexpr Suffix suffix(ContextId id) {
  return static_cast<Suffix>((id >> field::kSuffixShift) & 1u);
}

// The prefix of mask index i (L, Y, Z all zero).
constexpr ContextId from_mask_index(unsigned index) {
  return static_cast<ContextId>(index << field::kBitShift);
}
// The ID with its Z field set to `s`.
constexpr ContextId with_suffix(ContextId id, Suffix s) {
  return static_cast<ContextId>(
      (id & ~1u) | (static_cast<unsigned>(s) << field::kSuffixShift));
}
constexpr ContextId collective(ContextId id) {
  return with_suffix(id, Suffix::kCollective);
}
// Derived IDs: the localcomm of an intercommunicator and the intranode /
// internode sub-communicators. They share the parent's mask bit.
constexpr ContextId localcomm(ContextId id) {
  return static_cast<ContextId>(id | (1u << field::kLocalShift));
}
constexpr ContextId with_subcomm(ContextId id, SubComm type) {
  return static_cast<ContextId>(
      (id & ~(3u << field::kSubCommShift)) |
      (static_cast<unsigned>(type) << field::kSubCommShift));
}
// True for an ID that owns its mask bit (not derived through L or Y, not a
// dynamic-process ID): only such IDs release their bit when freed.
constexpr bool owns_mask_bit(ContextId id) {
  return !is_dynamic(id) && !is_localcomm(id) &&
         subcomm(id) == SubComm::kParent;
}
// The ID without Z: what a communicator's scratch block is keyed by.
constexpr ContextId without_suffix(ContextId id) {
  return static_cast<ContextId>(id & ~1u);
}

static_assert(from_mask_index(31) == 496, "word 0 bit 31");
static_assert(mask_word(from_mask_index(63 * 32 + 5)) == 63);
static_assert(mask_bit(from_mask_index(63 * 32 + 5)) == 5);

}  // namespace shmpi::contextid
