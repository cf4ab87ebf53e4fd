// SPDX-License-Identifier: MIT
#include "launcher/fd.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>

namespace shmpi::launcher {

void UniqueFd::reset(int fd) noexcept {
  if (fd_ >= 0) {
    ::close(fd_);
  }
  fd_ = fd;
}

bool write_all(int fd, const char* data, std::size_t bytes) noexcept {
  while (bytes > 0) {
    ssize_t written = ::write(fd, data, bytes);
    if (written >= 0) {
      data += written;
      bytes -= static_cast<std::size_t>(written);
      continue;
    }
    if (errno == EINTR) {
      continue;
    }
    if (errno == EAGAIN) {
      // Our stdout may be a non-blocking descriptor we inherited.
      struct pollfd wait_for {
        fd, POLLOUT, 0
      };
      ::poll(&wait_for, 1, -1);
      continue;
    }
    return false;
  }
  return true;
}

unsigned long raise_fd_limit() noexcept {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 ||
      limit.rlim_cur >= limit.rlim_max) {
    return 0;
  }
  rlim_t original = limit.rlim_cur;
  limit.rlim_cur = limit.rlim_max;
  return ::setrlimit(RLIMIT_NOFILE, &limit) == 0
             ? static_cast<unsigned long>(original)
             : 0;
}

void restore_fd_limit(unsigned long soft_limit) noexcept {
  rlimit limit{};
  if (soft_limit == 0 || ::getrlimit(RLIMIT_NOFILE, &limit) != 0) {
    return;
  }
  limit.rlim_cur = static_cast<rlim_t>(soft_limit);
  ::setrlimit(RLIMIT_NOFILE, &limit);
}

bool set_nonblocking(int fd, bool on) noexcept {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0) {
    return false;
  }
  flags = on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK);
  return ::fcntl(fd, F_SETFL, flags) == 0;
}

bool set_cloexec(int fd, bool on) noexcept {
  int flags = ::fcntl(fd, F_GETFD);
  if (flags < 0) {
    return false;
  }
  flags = on ? (flags | FD_CLOEXEC) : (flags & ~FD_CLOEXEC);
  return ::fcntl(fd, F_SETFD, flags) == 0;
}

}  // namespace shmpi::launcher
