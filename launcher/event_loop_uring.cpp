// SPDX-License-Identifier: MIT
// io_uring backend: one read in flight per stream (the bytes arrive with the
// completion, no extra read(2)) and one POLL_ADD per ready source. Each
// source has at most one request in flight and the rings are sized for all
// of them, so a submission queue entry is always free and the completion
// queue (twice the size) cannot overflow.
#include <liburing.h>
#include <poll.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <vector>

#include "launcher/event_loop.hpp"
#include "launcher/fd.hpp"

namespace shmpi::launcher {

namespace {

constexpr std::uint32_t kMaxEntries = 32768;  // IORING_MAX_ENTRIES

class UringLoop final : public EventLoop {
 public:
  explicit UringLoop(std::uint32_t max_sources) : max_sources_(max_sources) {}
  UringLoop(const UringLoop&) = delete;
  UringLoop& operator=(const UringLoop&) = delete;
  UringLoop(UringLoop&&) = delete;
  UringLoop& operator=(UringLoop&&) = delete;
  ~UringLoop() override {
    if (initialized_) {
      // Cancels reads still in flight (pipes a rank's own child keeps open).
      io_uring_queue_exit(&ring_);
    }
  }

  int init() {
    std::uint32_t entries = std::bit_ceil(max_sources_ < 8 ? 8U : max_sources_);
    if (entries > kMaxEntries) {
      return EINVAL;
    }
    int result = io_uring_queue_init(entries, &ring_, 0);
    if (result < 0) {
      return -result;
    }
    initialized_ = true;
    // io_uring_setup has no close-on-exec flag; the ranks must not inherit it.
    set_cloexec(ring_.ring_fd, true);
    sources_.reserve(max_sources_);
    return 0;
  }

  bool add_stream(int fd, std::uint64_t token) override {
    if (!has_room() ||
        !set_nonblocking(fd, false)) {  // io_uring waits for data itself
      return false;
    }
    sources_.push_back(
        Source{fd, token, std::vector<char>(kStreamBufferBytes)});
    arm_if_running();
    return true;
  }

  bool add_ready_source(int fd, std::uint64_t token) override {
    if (!has_room()) {
      return false;
    }
    sources_.push_back(Source{fd, token, {}});
    arm_if_running();
    return true;
  }

  bool run(EventSink& sink, std::string* why) override {
    running_ = true;
    for (std::size_t index = 0; index < sources_.size(); ++index) {
      arm(index);
    }
    while (!sink.finished()) {
      int submitted = io_uring_submit_and_wait(&ring_, 1);
      if (submitted < 0 && submitted != -EINTR && submitted != -EAGAIN) {
        *why = std::string("io_uring_submit_and_wait failed: ") +
               std::strerror(-submitted);
        return false;
      }
      unsigned head = 0;
      unsigned seen = 0;
      io_uring_cqe* cqe = nullptr;
      // Handle the whole batch, then release the CQEs in one step; re-arming
      // only fills SQEs, which the next submit_and_wait() sends.
      io_uring_for_each_cqe(&ring_, head, cqe) {
        dispatch(static_cast<std::size_t>(io_uring_cqe_get_data64(cqe)),
                 cqe->res, sink);
        ++seen;
      }
      io_uring_cq_advance(&ring_, seen);
    }
    return true;
  }

  [[nodiscard]] const char* name() const override { return "io_uring"; }

 private:
  struct Source {
    int fd;
    std::uint64_t token;
    std::vector<char> buffer;  // streams only; empty for ready sources
  };

  [[nodiscard]] bool has_room() const {
    if (sources_.size() < max_sources_) {
      return true;
    }
    errno = ENOSPC;
    return false;
  }

  // A source added from a callback: its request goes out with the next
  // submit. sources_ never reallocates (reserved for max_sources_), so the
  // callback's reference to its own source stays valid.
  void arm_if_running() {
    if (running_) {
      arm(sources_.size() - 1);
    }
  }

  void arm(std::size_t index) {
    Source& source = sources_[index];
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    // Cannot fail: at most one request per source, entries >= sources.
    if (!source.buffer.empty()) {
      // Offset -1: read at the file position, as read(2) does on a pipe.
      io_uring_prep_read(sqe, source.fd, source.buffer.data(),
                         kStreamBufferBytes, static_cast<__u64>(-1));
    } else {
      io_uring_prep_poll_add(sqe, source.fd, POLLIN);
    }
    io_uring_sqe_set_data64(sqe, index);
  }

  void dispatch(std::size_t index, int result, EventSink& sink) {
    Source& source = sources_[index];
    if (!source.buffer.empty()) {
      if (result > 0) {
        sink.on_data(source.token,
                     std::span<const char>(source.buffer.data(),
                                           static_cast<std::size_t>(result)));
        arm(index);
      } else if (result == -EINTR || result == -EAGAIN) {
        arm(index);
      } else {
        sink.on_eof(source.token);  // 0: EOF; other errors end the stream too
      }
      return;
    }
    if (result == -EINTR || result == -EAGAIN || sink.on_ready(source.token)) {
      arm(index);
    }
  }

  std::uint32_t max_sources_;
  bool initialized_ = false;
  bool running_ = false;
  io_uring ring_{};
  std::vector<Source> sources_;
};

}  // namespace

std::unique_ptr<EventLoop> make_uring_loop(std::uint32_t max_sources,
                                           int* error) {
  auto loop = std::make_unique<UringLoop>(max_sources);
  *error = loop->init();
  if (*error != 0) {
    return nullptr;
  }
  return loop;
}

}  // namespace shmpi::launcher
