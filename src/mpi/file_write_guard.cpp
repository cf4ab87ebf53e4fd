// SPDX-License-Identifier: MIT
#include "mpi/file_write_guard.hpp"

#include <sched.h>

#include <atomic>

namespace shmpi::mpi {

PlainWriteGuard::PlainWriteGuard(const File& file, std::int64_t first,
                                 std::int64_t end) noexcept
    : file_(file) {
  io::FileShared& shared = *file.shared;
  // seq_cst, both: the store of our count and the load of theirs must not
  // be reordered (Dekker; file_write_guard.hpp).
  shared.unlocked_writers.fetch_add(1, std::memory_order_seq_cst);
  if (shared.sieving_writers.load(std::memory_order_seq_cst) == 0) [[likely]] {
    counted_ = true;
    return;
  }
  // Release: nothing of ours was written yet; the sieving writer waiting
  // for the count to drop may go on.
  shared.unlocked_writers.fetch_sub(1, std::memory_order_release);
  // Threads of this process share its open file description, on which a
  // shared lock would weaken a sieving thread's exclusive one: wait for
  // it (file.sieve_mutex, held by sieving calls under THREAD_MULTIPLE).
  if (state().thread_multiple) {
    threads_ = std::unique_lock<std::mutex>(file.sieve_mutex);
  }
  lock_.emplace(file.fd, first, end, false);
}

PlainWriteGuard::~PlainWriteGuard() {
  if (counted_) {
    // Release: our pwrites happen before a sieving writer's acquire load
    // that sees the count drop, so its read of the span sees them.
    file_.shared->unlocked_writers.fetch_sub(1, std::memory_order_release);
  }
}

SievingWriteGuard::SievingWriteGuard(const File& file) noexcept : file_(file) {
  if (state().thread_multiple) {
    threads_ = std::unique_lock<std::mutex>(file.sieve_mutex);
  }
  io::FileShared& shared = *file.shared;
  // seq_cst: the other half of the handshake (PlainWriteGuard).
  shared.sieving_writers.fetch_add(1, std::memory_order_seq_cst);
  // Plain writers that did not see us finish their writes; those that
  // come later see us and lock. Their writes are short: yield meanwhile.
  while (shared.unlocked_writers.load(std::memory_order_seq_cst) != 0) {
    sched_yield();
  }
}

SievingWriteGuard::~SievingWriteGuard() {
  // Release: our spans are written before a plain writer that no longer
  // sees us writes without a lock.
  file_.shared->sieving_writers.fetch_sub(1, std::memory_order_release);
}

}  // namespace shmpi::mpi
