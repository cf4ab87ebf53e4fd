// SPDX-License-Identifier: MIT
// Reductions of elements larger than a bulk buffer, through copies in the
// shared heap (staged.hpp).
#include "coll/staged.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

#include "base/log.hpp"
#include "coll/rounds.hpp"
#include "p2p/engine.hpp"
#include "segment/shared_heap.hpp"

namespace shmpi::coll {

namespace {

segment::SharedHeap& shared_heap() {
  return mpi::state().engine->segment().heap();
}

// This member's staging buffers in the shared heap, where the other
// members read its batches; freed when the coroutine ends, after the
// release round.
class Staging {
 public:
  // Room for batches of `units` elements of `size` packed bytes.
  Staging(std::size_t units, std::size_t size)
      : batch_bytes_(units * size),
        memory_(static_cast<std::byte*>(
            shared_heap().allocate(kBuffers * batch_bytes_))) {
    if (memory_ == nullptr) {
      base::log_error(
          "the shared heap is full: no room for %zu staging buffers of "
          "%zu bytes (a batch: %zu-byte elements, %zu of them) for a "
          "reduction with a user operation on elements over %zu bytes "
          "(shmpirun --heap-size)",
          kBuffers, batch_bytes_, size, units, kBulk);
      mpi::state().runtime->abort_job(1);
    }
  }
  ~Staging() { shared_heap().deallocate(memory_); }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  // Batch b's buffer: the two take turns.
  std::byte* for_batch(std::size_t b) const {
    return memory_ + (b % kBuffers) * batch_bytes_;
  }

  // Two, so that a batch's round also releases the batch before last
  // (reduce_staged()).
  static constexpr std::size_t kBuffers = 2;

 private:
  std::size_t batch_bytes_;
  std::byte* memory_;
};

// Member m's copy, by the offset it published in the current round.
const std::byte* copy_of(Comm& c, int m) {
  std::uint64_t offset = 0;
  std::memcpy(&offset, data_of(c, m), sizeof offset);
  return heap_at(offset);
}

}  // namespace

bool stages_units(const TypeArg& type, const OpArg& op) {
  return op.user != nullptr && type.packed > kBulk;
}

Task reduce_staged(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
                   std::size_t count, StagedShare share) {
  const std::size_t size = type.packed;
  // Whole elements, as a user function takes them, up to a bulk buffer's
  // worth: one element when an element is more than a bulk buffer (always
  // so, by stages_units()). Memory then follows the element size alone.
  const std::size_t batch = std::max<std::size_t>(1, kBulk / size);
  const Staging own(batch, size);
  const bool folds = share.last >= share.first && share.hi > share.lo;
  // A non-contiguous receive buffer gets each batch's part of the share
  // through a copy, unpacked at its place.
  std::unique_ptr<std::byte[]> folded;
  if (folds && recv.map != nullptr) {
    folded = std::make_unique<std::byte[]>(
        std::min(batch, share.hi - share.lo) * size);
  }
  std::size_t b = 0;
  for (std::size_t first = 0; first < count; first += batch, ++b) {
    const std::size_t n = std::min(batch, count - first);
    // Batch b's buffer last held batch b - 2, which every member has
    // folded: each published batch b - 1 (the last all_arrived() below)
    // after folding b - 2. In place (`send` overlapping `recv`): this
    // member's fold of a batch writes `recv` from packed (lo - share.lo) *
    // size, never past the batch's end, and everything up to there is
    // packed by then.
    std::byte* staged = own.for_batch(b);
    datatype::pack(send, first * size, staged, n * size);
    co_await writable(c);
    const std::uint64_t offset = heap_offset_of(staged, n * size, true);
    std::memcpy(write_area(c, sizeof offset), &offset, sizeof offset);
    publish(c);
    co_await all_arrived(c);
    const std::size_t lo = std::max(first, share.lo);
    const std::size_t hi = std::min(first + n, share.hi);
    if (!folds || lo >= hi) {
      continue;
    }
    const std::size_t units = hi - lo;
    const std::size_t at = (lo - first) * size;     // in the batch's copies
    const std::size_t to = (lo - share.lo) * size;  // in `recv`, packed
    std::byte* acc = recv.map != nullptr ? folded.get() : recv.base + to;
    std::memcpy(acc, copy_of(c, share.last) + at, units * size);
    for (int m = share.last - 1; m >= share.first; --m) {
      mpi::apply_op(op, type, copy_of(c, m) + at, acc, units);
    }
    if (recv.map != nullptr) {
      datatype::unpack(recv, to, acc, units * size);
    }
  }
  // The release round: the last batch's copies stay until everyone has
  // folded them (the round of each batch released the one before it).
  arrive(c);
  co_await all_arrived(c);
}

}  // namespace shmpi::coll
