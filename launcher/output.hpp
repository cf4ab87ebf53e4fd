// SPDX-License-Identifier: MIT
// Forwards the ranks' stdout and stderr to the launcher's own. Each rank's
// streams are cut into lines; a partial line waits for the rest of it and
// every line goes out whole, so lines of different ranks or streams never mix
// when stdout and stderr go to one file (a rank's stdio buffer often ends
// mid-line). With --tag-output each line is prefixed "[rank] ".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace shmpi::launcher {

enum class Stream : std::uint8_t { kStdout = 0, kStderr = 1 };

// Single-threaded: called from the event loop only.
class OutputForwarder {
 public:
  // A partial line longer than this is emitted as a line of its own,
  // so one rank that never prints a newline cannot grow our memory.
  static constexpr std::size_t kMaxLineBytes = 64 * 1024;

  OutputForwarder(std::uint32_t nranks, bool tag_output, int stdout_fd,
                  int stderr_fd);

  // Bytes the rank wrote to `stream`.
  void forward(std::uint32_t rank, Stream stream, std::string_view bytes);
  // End of the rank's stream: a pending partial line goes out (with a
  // newline added when tagging).
  void finish(std::uint32_t rank, Stream stream);
  // finish() for every stream of every rank.
  void finish_all();

 private:
  std::string& pending(std::uint32_t rank, Stream stream);
  void append_line(std::uint32_t rank, std::string_view line);
  void emit(Stream stream, std::string_view bytes);

  bool tag_output_;
  int fds_[2];
  bool broken_[2] = {false, false};   // our reader went away: drop output
  std::vector<std::string> pending_;  // partial lines, [rank * 2 + stream]
  std::string batch_;  // whole lines being assembled for one write
};

}  // namespace shmpi::launcher
