// SPDX-License-Identifier: MIT
#include "io/sieve.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "io/posix_file.hpp"

namespace shmpi::io {

std::byte* scratch(std::size_t bytes, int slot) noexcept {
  struct Buffer {
    void* data = nullptr;
    std::size_t size = 0;
    ~Buffer() {
      if (data != nullptr) {
        ::munmap(data, size);
      }
    }
  };
  thread_local Buffer buffers[2];
  Buffer& b = buffers[slot];
  if (b.size < bytes) {
    if (b.data != nullptr) {
      ::munmap(b.data, b.size);
      b.data = nullptr;
      b.size = 0;
    }
    void* memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) {
      return nullptr;
    }
    b.data = memory;
    b.size = bytes;
  }
  return static_cast<std::byte*>(b.data);
}

bool SievingReader::flush() {
  if (stopped_ || pieces_.empty()) {
    pieces_.clear();
    return !stopped_;
  }
  const Piece& first = pieces_.front();
  if (pieces_.size() == 1) {
    take(read_at(fd_, first.to, first.length, first.at), first.length);
  } else {
    const Piece& last = pieces_.back();
    const auto span =
        static_cast<std::uint64_t>(last.at - first.at) + last.length;
    std::byte* sieve = scratch(kSieveBytes, 1);
    const std::int64_t n =
        sieve != nullptr ? read_at(fd_, sieve, span, first.at) : -ENOMEM;
    if (n < 0) {
      take(n, 0);
    } else {
      for (const Piece& p : pieces_) {
        const auto at = static_cast<std::uint64_t>(p.at - first.at);
        const std::uint64_t have =
            static_cast<std::uint64_t>(n) > at
                ? std::min(p.length, static_cast<std::uint64_t>(n) - at)
                : 0;
        std::memcpy(p.to, sieve + at, have);
        if (!take(static_cast<std::int64_t>(have), p.length)) {
          break;
        }
      }
    }
  }
  pieces_.clear();
  return !stopped_;
}

bool SievingWriter::flush() {
  if (error_number_ != 0 || pieces_.empty()) {
    pieces_.clear();
    return error_number_ == 0;
  }
  const Piece& first = pieces_.front();
  const Piece& last = pieces_.back();
  const std::int64_t end = last.at + static_cast<std::int64_t>(last.length);
  RangeLock lock(fd_, first.at, end, true);
  if (lock.error() != 0) {
    error_number_ = lock.error();
  } else if (pieces_.size() == 1) {
    put(write_at(fd_, first.from, first.length, first.at), first.length);
  } else {
    const auto span = static_cast<std::uint64_t>(end - first.at);
    std::byte* sieve = scratch(kSieveBytes, 1);
    std::int64_t n =
        sieve != nullptr ? read_at(fd_, sieve, span, first.at) : -ENOMEM;
    if (n >= 0) {
      // Past the end of the file the holes read as zeros, as they would.
      std::memset(sieve + n, 0, span - static_cast<std::uint64_t>(n));
      for (const Piece& p : pieces_) {
        std::memcpy(sieve + (p.at - first.at), p.from, p.length);
      }
      n = write_at(fd_, sieve, span, first.at);
    }
    if (n < 0) {
      error_number_ = static_cast<int>(-n);
    } else {
      for (const Piece& p : pieces_) {
        written_ += p.length;
      }
    }
  }
  pieces_.clear();
  return error_number_ == 0;
}

}  // namespace shmpi::io
