// SPDX-License-Identifier: MIT
// epoll backend, for where io_uring is refused. Level-triggered; one read per
// readiness report keeps the ranks' streams fair to each other.
#include <sys/epoll.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <vector>

#include "launcher/event_loop.hpp"
#include "launcher/fd.hpp"

namespace shmpi::launcher {

namespace {

constexpr int kMaxEventsPerWait = 64;

class EpollLoop final : public EventLoop {
 public:
  explicit EpollLoop(std::uint32_t max_sources) {
    sources_.reserve(max_sources);
  }

  int init() {
    epoll_.reset(::epoll_create1(EPOLL_CLOEXEC));
    return epoll_.valid() ? 0 : errno;
  }

  bool add_stream(int fd, std::uint64_t token) override {
    // Non-blocking: a spurious report must not block the loop in read().
    return set_nonblocking(fd, true) && add(fd, token, true);
  }

  bool add_ready_source(int fd, std::uint64_t token) override {
    return add(fd, token, false);
  }

  bool run(EventSink& sink, std::string* why) override {
    std::array<epoll_event, kMaxEventsPerWait> events{};
    while (!sink.finished()) {
      int count =
          ::epoll_wait(epoll_.get(), events.data(), kMaxEventsPerWait, -1);
      if (count < 0) {
        if (errno == EINTR) {
          continue;
        }
        *why = std::string("epoll_wait failed: ") + std::strerror(errno);
        return false;
      }
      for (int event = 0; event < count; ++event) {
        dispatch(static_cast<std::size_t>(
                     events[static_cast<std::size_t>(event)].data.u64),
                 sink);
      }
    }
    return true;
  }

  [[nodiscard]] const char* name() const override { return "epoll"; }

 private:
  struct Source {
    int fd;
    std::uint64_t token;
    bool is_stream;
    bool watched;
  };

  bool add(int fd, std::uint64_t token, bool is_stream) {
    // Within the reserve, so a dispatch's reference to its source survives
    // a source added from its callback.
    if (sources_.size() == sources_.capacity()) {
      errno = ENOSPC;
      return false;
    }
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.u64 = sources_.size();
    if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &event) != 0) {
      return false;
    }
    sources_.push_back(Source{fd, token, is_stream, true});
    return true;
  }

  void forget(Source& source) {
    ::epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, source.fd, nullptr);
    source.watched = false;
  }

  void dispatch(std::size_t index, EventSink& sink) {
    Source& source = sources_[index];
    if (!source.watched) {
      return;  // removed earlier in this batch
    }
    if (!source.is_stream) {
      if (!sink.on_ready(source.token)) {
        forget(source);
      }
      return;
    }
    ssize_t got = ::read(source.fd, buffer_.data(), buffer_.size());
    if (got > 0) {
      sink.on_data(
          source.token,
          std::span<const char>(buffer_.data(), static_cast<std::size_t>(got)));
    } else if (got < 0 && (errno == EINTR || errno == EAGAIN)) {
      // spurious: wait for the next report
    } else {
      forget(source);
      sink.on_eof(source.token);
    }
  }

  UniqueFd epoll_;
  std::vector<Source> sources_;
  std::array<char, kStreamBufferBytes> buffer_{};
};

}  // namespace

std::unique_ptr<EventLoop> make_epoll_loop(std::uint32_t max_sources,
                                           int* error) {
  auto loop = std::make_unique<EpollLoop>(max_sources);
  *error = loop->init();
  if (*error != 0) {
    return nullptr;
  }
  return loop;
}

}  // namespace shmpi::launcher
