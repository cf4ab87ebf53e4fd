// SPDX-License-Identifier: MIT
// Plain writes and sieving writes of one open file, kept out of each
// other's way across its processes.
//
// A sieving write (file_access.cpp) writes a view of small blocks by
// reading the span around a group of them, copying the blocks in and
// writing the span back: one pread and one pwrite instead of a pwrite per
// block. The bytes between the blocks are written back as they were read,
// so a plain write of those bytes by another process in between would be
// lost. Hence the handshake, through two counts in the file's shared line
// (io/file_shared.hpp):
// - a plain writer counts itself in `unlocked_writers`, then looks at
//   `sieving_writers`: none, and it writes without a lock; some, and it
//   counts itself out again and writes under a shared byte-range lock of
//   the bytes it writes, which a sieving writer's exclusive lock excludes;
// - a sieving writer counts itself in `sieving_writers`, then waits until
//   `unlocked_writers` is 0, and takes an exclusive byte-range lock over
//   each span it rewrites.
// Both sides store, then load the other's count, all seq_cst (Dekker): at
// least one of them sees the other, so no plain write lands unlocked in a
// span being rewritten. Atomic mode needs none of this: every access holds
// a lock over its bytes already.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>

#include "io/posix_file.hpp"
#include "mpi/file.hpp"

namespace shmpi::mpi {

// Held around one call's plain pwrites, all within file bytes
// [first, end).
class PlainWriteGuard {
 public:
  PlainWriteGuard(const File& file, std::int64_t first,
                  std::int64_t end) noexcept;
  ~PlainWriteGuard();
  PlainWriteGuard(const PlainWriteGuard&) = delete;
  PlainWriteGuard& operator=(const PlainWriteGuard&) = delete;

 private:
  const File& file_;
  bool counted_ = false;  // in unlocked_writers
  std::unique_lock<std::mutex> threads_;
  std::optional<io::RangeLock> lock_;
};

// Held by a sieving writer for its whole call: registered, and no plain
// writer is writing unlocked. Its spans take exclusive RangeLocks.
class SievingWriteGuard {
 public:
  explicit SievingWriteGuard(const File& file) noexcept;
  ~SievingWriteGuard();
  SievingWriteGuard(const SievingWriteGuard&) = delete;
  SievingWriteGuard& operator=(const SievingWriteGuard&) = delete;

 private:
  const File& file_;
  std::unique_lock<std::mutex> threads_;
};

}  // namespace shmpi::mpi
