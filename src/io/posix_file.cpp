// SPDX-License-Identifier: MIT
#include "io/posix_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>

namespace shmpi::io {
namespace {

// Relaxed: statistics that order nothing. One increment per call, after
// its system calls; process-local counters (constant-initialised).
std::atomic<std::uint64_t> g_bytes_read{0};
std::atomic<std::uint64_t> g_bytes_written{0};

}  // namespace

std::uint64_t bytes_read() noexcept {
  return g_bytes_read.load(std::memory_order_relaxed);
}

std::uint64_t bytes_written() noexcept {
  return g_bytes_written.load(std::memory_order_relaxed);
}

std::int64_t read_at(int fd, void* buffer, std::uint64_t bytes,
                     std::int64_t offset) noexcept {
  auto* at = static_cast<std::byte*>(buffer);
  std::uint64_t done = 0;
  while (done < bytes) {
    const ssize_t n = ::pread(fd, at + done, bytes - done,
                              offset + static_cast<std::int64_t>(done));
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return -errno;
    }
    if (n == 0) {
      break;  // end of file
    }
    done += static_cast<std::uint64_t>(n);
  }
  g_bytes_read.fetch_add(done, std::memory_order_relaxed);
  return static_cast<std::int64_t>(done);
}

std::int64_t write_at(int fd, const void* buffer, std::uint64_t bytes,
                      std::int64_t offset) noexcept {
  const auto* at = static_cast<const std::byte*>(buffer);
  std::uint64_t done = 0;
  while (done < bytes) {
    const ssize_t n = ::pwrite(fd, at + done, bytes - done,
                               offset + static_cast<std::int64_t>(done));
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return -errno;
    }
    done += static_cast<std::uint64_t>(n);
  }
  g_bytes_written.fetch_add(done, std::memory_order_relaxed);
  return static_cast<std::int64_t>(done);
}

std::int64_t file_size(int fd) noexcept {
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    return -errno;
  }
  return static_cast<std::int64_t>(st.st_size);
}

int resize(int fd, std::int64_t size) noexcept {
  while (::ftruncate(fd, size) != 0) {
    if (errno != EINTR) {
      return errno;
    }
  }
  return 0;
}

int preallocate(int fd, std::int64_t size) noexcept {
  if (size <= 0) {
    return 0;  // nothing to allocate; fallocate refuses a zero length
  }
  // fallocate(2) rather than posix_fallocate(3): where the file system
  // lacks it, glibc's posix_fallocate emulates it by reading one byte of
  // each block and writing a zero there when it reads zero, which can
  // overwrite what another process writes there meanwhile.
  int result = ::fallocate(fd, 0, 0, size);
  while (result != 0 && errno == EINTR) {
    result = ::fallocate(fd, 0, 0, size);
  }
  if (result == 0) {
    return 0;
  }
  if (errno != EOPNOTSUPP) {
    return errno;
  }
  // No storage is reserved then, but the size is what MPI promises.
  const std::int64_t current = file_size(fd);
  if (current < 0) {
    return static_cast<int>(-current);
  }
  return current < size ? resize(fd, size) : 0;
}

int sync(int fd) noexcept {
  while (::fsync(fd) != 0) {
    if (errno != EINTR) {
      return errno;
    }
  }
  return 0;
}

namespace {

int lock_range(int fd, short type, std::int64_t first, std::int64_t end) {
  struct flock range {};
  range.l_type = type;
  range.l_whence = SEEK_SET;
  range.l_start = first;
  range.l_len = end - first;
  range.l_pid = 0;  // required for open-file-description locks
  while (::fcntl(fd, F_OFD_SETLKW, &range) != 0) {
    if (errno != EINTR) {
      return errno;
    }
  }
  return 0;
}

}  // namespace

RangeLock::RangeLock(int fd, std::int64_t first, std::int64_t end,
                     bool exclusive) noexcept
    : first_(first), end_(end) {
  if (end <= first) {
    return;
  }
  error_ = lock_range(fd, exclusive ? F_WRLCK : F_RDLCK, first, end);
  if (error_ == 0) {
    fd_ = fd;
  }
}

RangeLock::~RangeLock() {
  if (fd_ >= 0) {
    lock_range(fd_, F_UNLCK, first_, end_);
  }
}

}  // namespace shmpi::io
