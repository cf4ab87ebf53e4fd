// SPDX-License-Identifier: MIT
// The launcher's one event loop. Two kinds of sources: streams (the ranks'
// stdout/stderr pipes), whose bytes the loop reads and hands over, and ready
// sources (pidfds, timerfds, the signalfd), for which it only reports
// readability. Two backends: io_uring, and epoll where io_uring is refused
// (Docker's default seccomp profile) or SHMPI_LAUNCHER_EPOLL=1 asks for it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace shmpi::launcher {

// What the loop calls back. Tokens are the caller's, passed at registration.
class EventSink {
 public:
  virtual ~EventSink() = default;
  // Bytes read from a stream (never empty).
  virtual void on_data(std::uint64_t token, std::span<const char> bytes) = 0;
  // The stream ended (EOF or a read error). The loop no longer watches it, so
  // the sink may close it.
  virtual void on_eof(std::uint64_t token) = 0;
  // A ready source is readable. Return false to stop watching it (the sink
  // may close it afterwards), true to be told again while it stays readable.
  virtual bool on_ready(std::uint64_t token) = 0;
  // Checked after every batch of events: true ends run().
  [[nodiscard]] virtual bool finished() const = 0;
};

class EventLoop {
 public:
  virtual ~EventLoop() = default;
  // At most `max_sources` calls in total, before run() or from a sink's
  // callback during it (processes spawned while the job runs). They return
  // false (errno set) if the kernel refuses to watch fd.
  virtual bool add_stream(int fd, std::uint64_t token) = 0;
  virtual bool add_ready_source(int fd, std::uint64_t token) = 0;
  // Dispatches events to `sink` until sink.finished(). Returns false (with
  // errno-style text in *why) if the kernel interface fails unexpectedly.
  virtual bool run(EventSink& sink, std::string* why) = 0;
  [[nodiscard]] virtual const char* name() const = 0;
};

// Bytes read from a stream at a time (per stream, one read in flight).
inline constexpr std::size_t kStreamBufferBytes = 16 * 1024;

// io_uring unless SHMPI_LAUNCHER_EPOLL=1 or the kernel refuses it (then epoll).
// *fallback_reason says why io_uring was not used (empty if it was).
std::unique_ptr<EventLoop> make_event_loop(std::uint32_t max_sources,
                                           std::string* fallback_reason);
// nullptr with the errno in *error when io_uring_queue_init fails.
std::unique_ptr<EventLoop> make_uring_loop(std::uint32_t max_sources,
                                           int* error);
std::unique_ptr<EventLoop> make_epoll_loop(std::uint32_t max_sources,
                                           int* error);

}  // namespace shmpi::launcher
