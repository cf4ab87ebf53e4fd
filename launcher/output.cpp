// SPDX-License-Identifier: MIT
#include "launcher/output.hpp"

#include "launcher/fd.hpp"

namespace shmpi::launcher {

OutputForwarder::OutputForwarder(std::uint32_t nranks, bool tag_output,
                                 int stdout_fd, int stderr_fd)
    : tag_output_(tag_output), fds_{stdout_fd, stderr_fd} {
  pending_.resize(static_cast<std::size_t>(nranks) * 2);
}

std::string& OutputForwarder::pending(std::uint32_t rank, Stream stream) {
  return pending_[static_cast<std::size_t>(rank) * 2 +
                  static_cast<std::size_t>(stream)];
}

void OutputForwarder::append_line(std::uint32_t rank, std::string_view line) {
  if (tag_output_) {
    batch_ += '[';
    batch_ += std::to_string(rank);
    batch_ += "] ";
  }
  batch_ += line;
}

void OutputForwarder::emit(Stream stream, std::string_view bytes) {
  auto index = static_cast<std::size_t>(stream);
  if (bytes.empty() || broken_[index]) {
    return;
  }
  if (!write_all(fds_[index], bytes.data(), bytes.size())) {
    broken_[index] = true;
  }
}

void OutputForwarder::forward(std::uint32_t rank, Stream stream,
                              std::string_view bytes) {
  std::string& partial = pending(rank, stream);
  batch_.clear();
  while (!bytes.empty()) {
    std::size_t newline = bytes.find('\n');
    if (newline == std::string_view::npos) {
      partial.append(bytes);
      if (partial.size() >= kMaxLineBytes) {
        if (tag_output_) {
          partial += '\n';
        }
        append_line(rank, partial);
        partial.clear();
      }
      break;
    }
    std::string_view rest_of_line = bytes.substr(0, newline + 1);
    if (partial.empty()) {
      append_line(rank, rest_of_line);
    } else {
      partial.append(rest_of_line);
      append_line(rank, partial);
      partial.clear();
    }
    bytes.remove_prefix(newline + 1);
  }
  emit(stream, batch_);
}

void OutputForwarder::finish(std::uint32_t rank, Stream stream) {
  std::string& partial = pending(rank, stream);
  if (partial.empty()) {
    return;
  }
  if (tag_output_) {
    partial += '\n';
  }
  batch_.clear();
  append_line(rank, partial);
  partial.clear();
  emit(stream, batch_);
}

void OutputForwarder::finish_all() {
  for (std::uint32_t rank = 0; rank < pending_.size() / 2; ++rank) {
    finish(rank, Stream::kStdout);
    finish(rank, Stream::kStderr);
  }
}

}  // namespace shmpi::launcher
