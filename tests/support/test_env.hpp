// SPDX-License-Identifier: MIT
// Helpers of the unit tests: SHMPI_TEST_SCALE and forked children.
// Children report through their exit status and never return into gtest.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <thread>

namespace shmpi::test {

// Iteration counts are multiplied by SHMPI_TEST_SCALE (0.2 under sanitizers).
inline std::uint64_t scaled(std::uint64_t count) {
  double scale = 1.0;
  if (const char* text = std::getenv("SHMPI_TEST_SCALE"); text != nullptr) {
    scale = std::strtod(text, nullptr);
  }
  auto result = static_cast<std::uint64_t>(static_cast<double>(count) * scale);
  return std::max<std::uint64_t>(result, 1);
}

// Runs body() in a forked child that exits with its return value. The child
// also dies by SIGALRM after alarm_s seconds, should the parent's watchdog
// never run.
template <typename Body>
pid_t fork_child(Body&& body, unsigned alarm_s = 60) {
  pid_t pid = ::fork();
  if (pid == 0) {
    ::alarm(alarm_s);
    int code = 1;
    try {
      code = body();
    } catch (...) {
      code = 2;
    }
    ::_exit(code);
  }
  return pid;
}

// The child's exit code; -1 if it did not exit by itself within timeout
// (it is then killed), -2 if it died by a signal.
inline int wait_child(
    pid_t pid, std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  while (true) {
    pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      break;
    }
    if (done < 0) {
      return -3;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (WIFEXITED(status)) {
    return WEXITSTATUS(status);
  }
  return -2;
}

}  // namespace shmpi::test
