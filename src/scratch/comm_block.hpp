// SPDX-License-Identifier: MIT
// A communicator's block in the collective scratch area. Every member owns
// slots_per_member(capacity) MemberSlots (round n uses slot n % that) and is
// their only writer; a round is "every member wrote its slot for round n
// and released n into its round word". Readers acquire the round word and
// then read the slot. A member reuses a slot only once every member has
// published a round that says it finished reading the slot's last use
// (coll/rounds.hpp: writable; docs/design.md#collectives). Rounds where
// everyone reads everyone need two slots; more let a member that only
// writes (a broadcast's root, a reduction's non-roots) run ahead of slow
// readers, which is what ranks sharing cores need.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "base/cache_line.hpp"
#include "contextid/context_id.hpp"

namespace shmpi::scratch {

inline constexpr std::uint64_t kBlockMagic = 0x73636b31626c6b31ULL;
// Slots per member of a block with room for `capacity` members (a power of
// two, at least 2): a member that only writes may run that many rounds
// less one ahead of its slowest reader. Deep for small communicators, where
// ranks sharing cores run many rounds per time slice (loops of 8-byte
// MPI_Bcast, MPI_Reduce and MPI_Scan at 8 ranks on 2 cores: 0.93, 1.31 and
// 2.08 us per call with 8 slots, 0.57, 0.79 and 1.07 with 32; at 4 ranks
// 0.42, 0.59 and 0.55 against 0.27, 0.41 and 0.41). A slot is 384 bytes,
// so large communicators keep 8 (a 128-member block: 384 KiB; a 16-member
// one with 32: 192 KiB).
inline constexpr std::uint32_t kSlotsSmallComm = 32;
inline constexpr std::uint32_t kSlotsLargeComm = 8;
inline constexpr std::uint32_t kSmallCommMembers = 16;
constexpr std::uint32_t slots_per_member(std::uint32_t capacity) {
  return capacity <= kSmallCommMembers ? kSlotsSmallComm : kSlotsLargeComm;
}
static_assert(kSlotsLargeComm >= 2 &&
              (kSlotsLargeComm & (kSlotsLargeComm - 1)) == 0 &&
              (kSlotsSmallComm & (kSlotsSmallComm - 1)) == 0 &&
              kSlotsSmallComm >= kSlotsLargeComm);
// What a member says in one round.
struct alignas(kFalseSharingRange) MemberSlot {
  // Released last: the round this slot's contents belong to.
  std::atomic<std::uint64_t> round;
  std::int32_t color;  // split: color, or a negative value for "not joining"
  std::int32_t key;    // split: key
  std::uint32_t flags;
  std::uint32_t free_ids;  // free context IDs on this process
  std::uint32_t want_ids;  // IDs the operation asks for (dup batches)
  std::uint32_t pad0;
  // Operation-specific payload: value[0] is a generation number (a new
  // communicator's directory key when this member is its lowest).
  std::uint64_t value[4];
  // The context-ID mask (or all zeros / all ones, see flags).
  alignas(kFalseSharingRange) std::uint32_t mask[contextid::kMaskWords];
};
static_assert(std::is_standard_layout_v<MemberSlot>, "shared by offset");
static_assert(sizeof(MemberSlot) == 3 * kFalseSharingRange,
              "one header line pair plus two mask line pairs");
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

namespace slot_flags {
inline constexpr std::uint32_t kRealMask = 1;  // mask is this process's
inline constexpr std::uint32_t kJoins = 2;     // takes part in the result
inline constexpr std::uint32_t kError = 4;     // local argument error
// The mask left out free IDs lent to other rounds of this process (see
// contextid/arbiter.hpp): an empty AND means "try again", not "none left".
inline constexpr std::uint32_t kLentOut = 8;
}  // namespace slot_flags

struct alignas(kFalseSharingRange) BlockHeader {
  std::uint64_t magic;
  std::uint32_t capacity;    // members the block has slots for
  std::uint32_t size_class;  // index into the pool's free lists
  // Members holding the block; the one that drops it to zero frees it.
  std::atomic<std::uint32_t> references;
  std::uint32_t pad0;
  // Free-list link (offset / 64), valid only while the block is free.
  std::atomic<std::uint64_t> next_free;
  // Directory key of a rendezvous block (MPI_Comm_create_group), else 0.
  std::uint64_t key;
  // The last round any communicator ran on this block: the next one starts
  // counting from here, so stale round words in the slots are always below
  // its rounds and recycling a block needs no zeroing (which would pull
  // every member's slot lines over). Written by the member that drops the
  // last reference (all members of a communicator end on the same round),
  // before it recycles the block; read by every member when it attaches.
  // Not by the others: a member may attach only after they have run every
  // round and left, and must still start from the first round.
  std::atomic<std::uint64_t> base_round;
};
static_assert(sizeof(BlockHeader) == kFalseSharingRange);

// The same slot as collectives use it: after the round word, where this
// round's data is (0: inline, else the offset of a bulk buffer) and how
// many bytes, then data that fits inline. A collective round and an
// agreement round never overlap, so they share the slot.
struct alignas(kFalseSharingRange) CollSlot {
  std::atomic<std::uint64_t> round;
  std::uint64_t where;
  std::byte data[sizeof(MemberSlot) - 2 * sizeof(std::uint64_t)];
  static constexpr std::size_t kInlineBytes = sizeof(data);
};
static_assert(sizeof(CollSlot) == sizeof(MemberSlot));
static_assert(offsetof(CollSlot, round) == offsetof(MemberSlot, round));

// A member's word for a barrier round, packed with the other members'
// (see CommBlock). Padded to 16 bytes: two members to a line and four to a
// line pair, the layout barriers were measured with (the padding held
// 8 bytes of data until stop 40, docs/bench.md).
struct ArrivalEntry {
  std::atomic<std::uint64_t> round;  // released last, as in a slot
  std::byte padding[8];
};
static_assert(sizeof(ArrivalEntry) == 16 && alignof(ArrivalEntry) == 8);
static_assert(kFalseSharingRange % (2 * sizeof(ArrivalEntry)) == 0,
              "a member's two entries share a line");

// Bytes of one bulk buffer. A member has a ring of 2 to kMaxBulkRing of
// them (each round that has bulk data writes the buffer after the one the
// member's previous such round wrote; its slot's `where` names it), made
// on its first collective round that does not fit inline (coll/rounds.cpp
// says how many).
inline constexpr std::size_t kBulkBytes = 64 * 1024;
inline constexpr std::uint32_t kMaxBulkRing = 8;
static_assert(kMaxBulkRing <= kSlotsLargeComm,
              "a slot names its round's buffer until the slot is reused");
// A member's bulk word: the offset of its ring of buffers (0: none yet),
// which the heap aligns to 64 bytes, with log2 of the ring's size in the
// low bits.
inline constexpr std::uint64_t kBulkRingBits = 63;
// A progress word's byte count takes the low bits (up to kBulkBytes).
inline constexpr unsigned kProgressShift = 17;
static_assert(kBulkBytes < (std::uint64_t{1} << kProgressShift));

struct CommBlock {
  BlockHeader header;
  // MemberSlot members[capacity][slots_per_member(capacity)] follows (the
  // capacity is the header's; the world block's header is never written,
  // its capacity is the segment's), then one word
  // per member: its bulk word (the offset of its bulk buffers; 0: none yet).
  // Bulk buffers stay with the block when it is recycled; the member in
  // that place reuses them. Last, from the next line pair, two arrival
  // entries per member (one per round parity), packed: rounds of a barrier
  // and of tiny reductions are published there instead of in the slot, so
  // that waiting for everyone reads one line pair per four members, and at
  // two members such a round moves one line between the cores instead of
  // two (docs/design.md#collectives). Then one progress word per member
  // (see progress()).
  // Member `member`'s slot of `round`, with `slots` the block's
  // slots_per_member() (callers keep it: the block's capacity is not in
  // the world block's header).
  MemberSlot& slot(std::uint32_t slots, std::uint32_t member,
                   std::uint64_t round) {
    auto* first = reinterpret_cast<MemberSlot*>(this + 1);
    return first[static_cast<std::size_t>(member) * slots +
                 (round & (slots - 1))];
  }
  CollSlot& coll_slot(std::uint32_t slots, std::uint32_t member,
                      std::uint64_t round) {
    return reinterpret_cast<CollSlot&>(slot(slots, member, round));
  }
  // The bulk words of a block with room for `capacity` members (the world
  // block's header is never written: its capacity is the segment's).
  std::atomic<std::uint64_t>* bulk_words(std::uint32_t capacity) {
    auto* first = reinterpret_cast<MemberSlot*>(this + 1);
    return reinterpret_cast<std::atomic<std::uint64_t>*>(
        first +
        static_cast<std::size_t>(capacity) * slots_per_member(capacity));
  }
  // The arrival entries: member m's entry for round r is [2 * m + r % 2].
  ArrivalEntry* arrivals(std::uint32_t capacity) {
    return reinterpret_cast<ArrivalEntry*>(reinterpret_cast<std::byte*>(this) +
                                           arrivals_at(capacity));
  }
  static constexpr std::size_t arrivals_at(std::uint32_t capacity) {
    const std::size_t bulk_end =
        sizeof(BlockHeader) +
        static_cast<std::size_t>(capacity) * slots_per_member(capacity) *
            sizeof(MemberSlot) +
        static_cast<std::size_t>(capacity) * sizeof(std::uint64_t);
    return (bulk_end + kFalseSharingRange - 1) & ~(kFalseSharingRange - 1);
  }
  // Member m's progress word: how much of its bulk data for a round it
  // has written so far, as (round << kProgressShift) | bytes, so that
  // readers of a broadcast may copy a round out while the root is still
  // writing it (coll/rounds.hpp: publish_progress). Only a member that
  // streams writes its word; a word from an older round never matches.
  std::atomic<std::uint64_t>* progress(std::uint32_t capacity) {
    return reinterpret_cast<std::atomic<std::uint64_t>*>(
        reinterpret_cast<std::byte*>(this) + progress_at(capacity));
  }
  static constexpr std::size_t progress_at(std::uint32_t capacity) {
    return arrivals_at(capacity) +
           static_cast<std::size_t>(capacity) * 2 * sizeof(ArrivalEntry);
  }
  static constexpr std::size_t bytes_for(std::uint32_t capacity) {
    return progress_at(capacity) +
           static_cast<std::size_t>(capacity) * sizeof(std::uint64_t);
  }
};
static_assert(sizeof(CommBlock) == sizeof(BlockHeader));
static_assert(alignof(CommBlock) == kFalseSharingRange);

}  // namespace shmpi::scratch
