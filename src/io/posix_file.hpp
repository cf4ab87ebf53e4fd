// SPDX-License-Identifier: MIT
// Positioned reads and writes on a file descriptor, whole or to the end of
// the file, byte-range locks between processes, and the file-wide
// operations: size, resizing, preallocation and flushing.
#pragma once

#include <cstdint>

namespace shmpi::io {

// Reads `bytes` at file offset `offset` into `buffer`, retrying short
// reads and EINTR: the bytes read (fewer only at the end of the file), or
// -errno.
std::int64_t read_at(int fd, void* buffer, std::uint64_t bytes,
                     std::int64_t offset) noexcept;
// Writes all `bytes`: the bytes written, or -errno.
std::int64_t write_at(int fd, const void* buffer, std::uint64_t bytes,
                      std::int64_t offset) noexcept;
// What read_at and write_at have moved in this process so far, data
// sieving's whole blocks included (MPI_T's shmpi_io_bytes_*). Any thread.
std::uint64_t bytes_read() noexcept;
std::uint64_t bytes_written() noexcept;

// The file's size in bytes, or -errno.
std::int64_t file_size(int fd) noexcept;
// Sets the size to `size` bytes, truncating or extending with zeros: 0 or
// the errno.
int resize(int fd, std::int64_t size) noexcept;
// Allocates storage for bytes [0, size) and extends the file to `size` if
// it is shorter; never shrinks it and leaves the data alone. Where the file
// system has no fallocate (EOPNOTSUPP) the file is only extended, with
// ftruncate. 0 or the errno.
int preallocate(int fd, std::int64_t size) noexcept;
// Writes the file's data and metadata to the storage device: 0 or the
// errno.
int sync(int fd) noexcept;

// A lock on file bytes [first, end) for its lifetime, shared (readers) or
// exclusive (writers), waited for. Open-file-description locks: each
// process opened the file itself, so they exclude each other; threads of
// one process sharing a descriptor do not. error() is 0 or the errno of
// the failed lock, which then holds nothing.
class RangeLock {
 public:
  RangeLock() = default;
  RangeLock(int fd, std::int64_t first, std::int64_t end,
            bool exclusive) noexcept;
  ~RangeLock();
  RangeLock(const RangeLock&) = delete;
  RangeLock& operator=(const RangeLock&) = delete;
  [[nodiscard]] int error() const { return error_; }

 private:
  int fd_ = -1;  // -1: nothing held
  std::int64_t first_ = 0;
  std::int64_t end_ = 0;
  int error_ = 0;
};

}  // namespace shmpi::io
