// SPDX-License-Identifier: MIT
// Data sieving: reading and writing many small runs of a file, close
// together, with one pread (and one pwrite) of the span around them
// instead of one system call per run. The callers (mpi/file_access.cpp)
// decide when a call sieves; a sieving writer rewrites the bytes between
// its runs, so it must hold the span's byte-range lock and keep plain
// writers out (mpi/file_write_guard.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace shmpi::io {

// Noncontiguous memory is packed (or unpacked) through a buffer of at most
// this many bytes at a time.
inline constexpr std::uint64_t kStageBytes = 4u << 20;

// Reads of neighbouring runs a gap of at most this many bytes apart are
// one pread of their span ("data sieving"). Measured on views interleaving
// blocks of b bytes: 4 ranks, b = 512 (1.5 KiB holes) take 1.1-1.4 ms run
// by run and 0.54-0.99 ms sieved (Open MPI 0.87, MPICH 1.26); 2 ranks,
// b = 4 KiB take 0.16 ms run by run and 0.40 sieved. A hole of 4 KiB is
// cheaper skipped than read; one of 2 KiB is not.
inline constexpr std::uint64_t kSieveGap = 2u << 10;
// The span one sieving read covers at most, and the runs it serves.
inline constexpr std::uint64_t kSieveBytes = 4u << 20;
inline constexpr std::size_t kSievePieces = 1u << 16;
// Writes join runs up to this far apart: a gap costs a read and a write of
// its bytes, a run on its own a lock and a pwrite (4 ranks, 512-byte
// blocks 1.5 KiB apart: 16.8 ms run by run, 3.3 ms sieved, MPICH 1.45).
inline constexpr std::uint64_t kSieveWriteGap = 4u << 10;
// A write sieves when it has at least this many runs averaging under
// kSieveRunBytes, most within kSieveWriteGap of the one before: fewer,
// larger or sparser runs are cheaper written one by one.
inline constexpr std::uint64_t kSieveMinRuns = 64;
inline constexpr std::uint64_t kSieveRunBytes = 4u << 10;

// A buffer of at least `bytes` kept by this thread between calls, `slot`
// 0 for staging and 1 for sieving (at most kStageBytes / kSieveBytes),
// or nullptr when there is no memory: fresh memory on every call would
// cost a page fault per 4 KiB, and a vector's zeroing a pass over it.
// Private anonymous memory, not the shared heap, which large mallocs
// would otherwise take it from.
std::byte* scratch(std::size_t bytes, int slot) noexcept;

// The runs one read call takes from the file, in stream order, each into
// its place in memory. Runs close together in the file are read with one
// pread of their span, then copied out: a view of small blocks (an
// interleaved vector, a subarray's rows) costs a few large reads instead
// of one system call per block. The hole bytes read are thrown away, so
// nothing is written and other processes are never disturbed.
class SievingReader {
 public:
  explicit SievingReader(int fd) : fd_(fd) {}

  // Queues run [at, at + length) of the file for `to`; false once the read
  // has stopped (end of file or an error).
  bool add(std::int64_t at, std::byte* to, std::uint64_t length) {
    if (!pieces_.empty()) {
      const Piece& first = pieces_.front();
      const std::int64_t end =
          pieces_.back().at + static_cast<std::int64_t>(pieces_.back().length);
      // Only forward, near and within the bounds: the span stays sorted.
      const bool joins =
          at >= end && static_cast<std::uint64_t>(at - end) <= kSieveGap &&
          static_cast<std::uint64_t>(at - first.at) + length <= kSieveBytes &&
          pieces_.size() < kSievePieces;
      if (!joins && !flush()) {
        return false;
      }
    }
    pieces_.push_back(Piece{at, to, length});
    return true;
  }

  // Reads what is queued; false as add().
  bool flush();

  std::uint64_t got() const { return got_; }
  int error_number() const { return error_number_; }

 private:
  struct Piece {
    std::int64_t at;
    std::byte* to;
    std::uint64_t length;
  };

  // Counts a read of `n` bytes (or -errno) of a run of `length`; false when
  // it ends the call.
  bool take(std::int64_t n, std::uint64_t length) {
    if (n < 0) {
      error_number_ = static_cast<int>(-n);
      stopped_ = true;
      return false;
    }
    got_ += static_cast<std::uint64_t>(n);
    stopped_ = static_cast<std::uint64_t>(n) < length;
    return !stopped_;
  }

  int fd_;
  std::vector<Piece> pieces_;
  std::uint64_t got_ = 0;
  int error_number_ = 0;
  bool stopped_ = false;
};

// The write counterpart of SievingReader: the runs of one call, grouped
// alike; a group of several is written by reading its span, copying the
// runs in and writing the span back, under an exclusive byte-range lock
// and a SievingWriteGuard (file_write_guard.hpp), so that no other write
// lands in the span meanwhile.
class SievingWriter {
 public:
  // Gaps cost a read and a write here, against a pwrite and a lock per
  // run: worth it up to a larger gap than for reads.
  explicit SievingWriter(int fd) : fd_(fd) {}

  // Queues run [at, at + length) of the file from `from`; false once a
  // write has failed.
  bool add(std::int64_t at, const std::byte* from, std::uint64_t length) {
    if (!pieces_.empty()) {
      const Piece& first = pieces_.front();
      const std::int64_t end =
          pieces_.back().at + static_cast<std::int64_t>(pieces_.back().length);
      const bool joins =
          at >= end && static_cast<std::uint64_t>(at - end) <= kSieveWriteGap &&
          static_cast<std::uint64_t>(at - first.at) + length <= kSieveBytes &&
          pieces_.size() < kSievePieces;
      if (!joins && !flush()) {
        return false;
      }
    }
    pieces_.push_back(Piece{at, from, length});
    return true;
  }

  bool flush();

  std::uint64_t written() const { return written_; }
  int error_number() const { return error_number_; }

 private:
  struct Piece {
    std::int64_t at;
    const std::byte* from;
    std::uint64_t length;
  };

  void put(std::int64_t n, std::uint64_t length) {
    if (n < 0) {
      error_number_ = static_cast<int>(-n);
    } else {
      written_ += length;
    }
  }

  int fd_;
  std::vector<Piece> pieces_;
  std::uint64_t written_ = 0;
  int error_number_ = 0;
};

}  // namespace shmpi::io
