// SPDX-License-Identifier: MIT
#include "launcher/signals.hpp"

#include <fcntl.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace shmpi::launcher {

void ensure_standard_fds() noexcept {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
      int null_fd = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
      if (null_fd >= 0 && null_fd != fd) {
        ::dup2(null_fd, fd);
        ::close(null_fd);
      }
    }
  }
}

bool setup_launcher_signals(SignalSetup& setup, std::string* why) {
  sigset_t handled;
  sigemptyset(&handled);
  sigaddset(&handled, SIGINT);
  sigaddset(&handled, SIGTERM);
  sigaddset(&handled, SIGHUP);
  if (::sigprocmask(SIG_BLOCK, &handled, &setup.original_mask) != 0) {
    *why = std::string("sigprocmask failed: ") + std::strerror(errno);
    return false;
  }
  setup.signal_fd.reset(::signalfd(-1, &handled, SFD_NONBLOCK | SFD_CLOEXEC));
  if (!setup.signal_fd.valid()) {
    *why = std::string("signalfd failed: ") + std::strerror(errno);
    return false;
  }
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGPIPE, &ignore, &setup.original_sigpipe);
  // Reaping goes through pidfds and waitpid(); an inherited SIG_IGN for
  // SIGCHLD would make the kernel reap the ranks behind our back.
  struct sigaction child_default {};
  child_default.sa_handler = SIG_DFL;
  sigemptyset(&child_default.sa_mask);
  ::sigaction(SIGCHLD, &child_default, nullptr);
  return true;
}

void restore_child_signals(const SignalSetup& setup) noexcept {
  ::sigaction(SIGPIPE, &setup.original_sigpipe, nullptr);
  ::sigprocmask(SIG_SETMASK, &setup.original_mask, nullptr);
}

int read_signal(int signal_fd) noexcept {
  signalfd_siginfo info{};
  for (;;) {
    ssize_t got = ::read(signal_fd, &info, sizeof info);
    if (got == static_cast<ssize_t>(sizeof info)) {
      return static_cast<int>(info.ssi_signo);
    }
    if (got < 0 && errno == EINTR) {
      continue;
    }
    return 0;
  }
}

}  // namespace shmpi::launcher
