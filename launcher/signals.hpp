// SPDX-License-Identifier: MIT
// The launcher's signal and descriptor set-up. SIGINT, SIGTERM and SIGHUP are
// blocked and read from a signalfd by the event loop; SIGPIPE is ignored (a
// closed stdout drops the ranks' output instead of killing the launcher).
// Children get the original mask and SIGPIPE disposition back before exec.
#pragma once

#include <signal.h>

#include <string>

#include "launcher/fd.hpp"

namespace shmpi::launcher {

struct SignalSetup {
  sigset_t original_mask;
  struct sigaction original_sigpipe;
  UniqueFd signal_fd;  // non-blocking, close-on-exec
};

// Opens /dev/null on any of descriptors 0-2 that is closed, so that nothing
// the launcher opens (the segment's memfd above all) lands there and is then
// overwritten by a child's dup2().
void ensure_standard_fds() noexcept;

// Returns false with a message in *why on failure.
bool setup_launcher_signals(SignalSetup& setup, std::string* why);

// In a forked child, before exec: async-signal-safe.
void restore_child_signals(const SignalSetup& setup) noexcept;

// The next signal queued on the signalfd, or 0 if there is none (it never
// blocks).
int read_signal(int signal_fd) noexcept;

}  // namespace shmpi::launcher
