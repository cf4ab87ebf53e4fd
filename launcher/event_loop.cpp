// SPDX-License-Identifier: MIT
#include "launcher/event_loop.hpp"

#include <cstdlib>
#include <cstring>

namespace shmpi::launcher {

std::unique_ptr<EventLoop> make_event_loop(std::uint32_t max_sources,
                                           std::string* fallback_reason) {
  const char* force_epoll = std::getenv("SHMPI_LAUNCHER_EPOLL");
  if (force_epoll != nullptr && force_epoll[0] != '\0' &&
      std::strcmp(force_epoll, "0") != 0) {
    *fallback_reason = "SHMPI_LAUNCHER_EPOLL is set";
  } else {
    int error = 0;
    if (auto loop = make_uring_loop(max_sources, &error)) {
      fallback_reason->clear();
      return loop;
    }
    // EPERM/ENOSYS under seccomp or io_uring_disabled, ENOMEM on kernels that
    // charge rings to RLIMIT_MEMLOCK: epoll does the same job, a bit slower.
    *fallback_reason =
        std::string("io_uring_queue_init failed: ") + std::strerror(error);
  }
  int error = 0;
  return make_epoll_loop(max_sources, &error);
}

}  // namespace shmpi::launcher
