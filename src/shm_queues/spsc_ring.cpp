// SPDX-License-Identifier: MIT
#include "shm_queues/spsc_ring.hpp"

#include <bit>

namespace shmpi::shm_queues {

namespace {
Cell* cells_of(std::byte* ring_memory) {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): segment memory
  // by offset
  return reinterpret_cast<Cell*>(ring_memory + segment::kRingHeaderBytes);
}
}  // namespace

RingProducer::RingProducer(std::byte* ring_memory, std::uint32_t cells)
    : shared_(reinterpret_cast<RingShared*>(
          ring_memory)),  // NOLINT: segment offset
      cells_(cells_of(ring_memory)),
      prefetch_(base::has_prefetchw()),
      capacity_(cells),
      mask_(cells - 1),
      log2_cells_(static_cast<unsigned>(std::countr_zero(cells))) {}

RingConsumer::RingConsumer(std::byte* ring_memory, std::uint32_t cells)
    : shared_(reinterpret_cast<RingShared*>(
          ring_memory)),  // NOLINT: segment offset
      cells_(cells_of(ring_memory)),
      mask_(cells - 1),
      log2_cells_(static_cast<unsigned>(std::countr_zero(cells))),
      half_shift_(log2_cells_ - 1) {}

bool RingConsumer::try_park() noexcept {
  Cell& head = cells_[read_index_ & mask_];
  const std::uint32_t full = seq_full(read_index_, log2_cells_);
  const std::uint32_t parked = seq_parked(read_index_, log2_cells_);
  // Relaxed: the CAS below decides; this load only supplies its expected value.
  std::uint32_t seen = head.seq.load(std::memory_order_relaxed);
  while (seen != full) {
    if (seen == parked) {
      return true;
    }
    // seq_cst: the park must be ordered before our later check of the
    // doorbell and the wake word (Dekker with the producer's exchange).
    if (head.seq.compare_exchange_weak(seen, parked, std::memory_order_seq_cst,
                                       std::memory_order_relaxed)) {
      return true;
    }
  }
  return false;
}

void RingConsumer::park_initial(std::byte* ring_memory) noexcept {
  // Relaxed: runs before the start-up barrier, which publishes it.
  cells_of(ring_memory)[0].seq.store(seq_parked(0, 0),
                                     std::memory_order_relaxed);
}

}  // namespace shmpi::shm_queues
