// SPDX-License-Identifier: MIT
// File-descriptor helpers for the launcher: an owning descriptor and a write
// that does not give up on short writes, EINTR or a non-blocking stdout.
#pragma once

#include <cstddef>
#include <utility>

namespace shmpi::launcher {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) noexcept : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) {
      reset(std::exchange(other.fd_, -1));
    }
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  int get() const noexcept { return fd_; }
  bool valid() const noexcept { return fd_ >= 0; }
  int release() noexcept { return std::exchange(fd_, -1); }
  void reset(int fd = -1) noexcept;

 private:
  int fd_ = -1;
};

// Writes all of [data, data + bytes), retrying on EINTR and waiting with
// poll() on EAGAIN. Returns false on any other error (e.g. EPIPE when the
// reader of our stdout went away); the caller then drops the output.
bool write_all(int fd, const char* data, std::size_t bytes) noexcept;

// Raises the soft RLIMIT_NOFILE to the hard limit (a job holds about four
// descriptors per rank) and returns the previous soft limit, which the ranks
// get back before exec; 0 if unchanged.
unsigned long raise_fd_limit() noexcept;
// In a forked child: puts back the soft limit raise_fd_limit() returned.
void restore_fd_limit(unsigned long soft_limit) noexcept;

// Sets or clears O_NONBLOCK / FD_CLOEXEC. Return false on failure.
bool set_nonblocking(int fd, bool on) noexcept;
bool set_cloexec(int fd, bool on) noexcept;

}  // namespace shmpi::launcher
