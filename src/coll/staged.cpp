// SPDX-License-Identifier: MIT
// Reductions of elements larger than a bulk buffer, through copies in the
// shared heap (staged.hpp).
#include "coll/staged.hpp"

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

// This member's packed contribution in the shared heap, where the other
// members read it; freed when the coroutine ends, after the release round.
class Staging {
 public:
  explicit Staging(std::size_t bytes)
      : memory_(static_cast<std::byte*>(shared_heap().allocate(bytes))) {
    if (memory_ == nullptr) {
      base::log_error(
          "the shared heap is full: no room for a %zu-byte copy of a "
          "reduction's data (user operation on elements over %zu bytes; "
          "shmpirun --heap-size)",
          bytes, kBulk);
      mpi::state().runtime->abort_job(1);
    }
  }
  ~Staging() { shared_heap().deallocate(memory_); }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  std::byte* get() const { return memory_; }

 private:
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
  const Staging own(count * size);
  datatype::pack(send, 0, own.get(), count * size);
  co_await writable(c);
  const std::uint64_t offset = heap_offset_of(own.get(), count * size, true);
  std::memcpy(write_area(c, sizeof offset), &offset, sizeof offset);
  publish(c);
  co_await all_arrived(c);
  const std::size_t n = share.hi - share.lo;
  if (share.last >= share.first && n > 0) {
    // Straight into a contiguous receive buffer, else through a copy that
    // is unpacked at the end.
    std::unique_ptr<std::byte[]> folded;
    std::byte* acc = recv.base;
    if (recv.map != nullptr) {
      folded = std::make_unique<std::byte[]>(n * size);
      acc = folded.get();
    }
    const std::size_t at = share.lo * size;
    std::memcpy(acc, copy_of(c, share.last) + at, n * size);
    for (int m = share.last - 1; m >= share.first; --m) {
      mpi::apply_op(op, type, copy_of(c, m) + at, acc, n);
    }
    if (recv.map != nullptr) {
      datatype::unpack(recv, 0, acc, n * size);
    }
  }
  // The release round: every copy stays until everyone has folded.
  arrive(c);
  co_await all_arrived(c);
}

}  // namespace shmpi::coll
