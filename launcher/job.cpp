// SPDX-License-Identifier: MIT
#include "launcher/job.hpp"

#include <poll.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "launcher/rank_exit.hpp"
#include "segment/header.hpp"
#include "segment/wake_word.hpp"

namespace shmpi::launcher {

namespace {

UniqueFd make_timer() {
  return UniqueFd(
      ::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC));
}

// One-shot expiry `ns` from now; 0 disarms.
void arm_timer(const UniqueFd& timer, std::int64_t ns) {
  itimerspec spec{};
  spec.it_value.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
  spec.it_value.tv_nsec = static_cast<long>(ns % 1'000'000'000);
  ::timerfd_settime(timer.get(), 0, &spec, nullptr);
}

// The exit status of child `pid` in waitpid() form if it has exited, without
// reaping it.
bool peek_exit_status(pid_t pid, int* status) {
  siginfo_t info{};
  for (;;) {
    if (::waitid(P_PID, static_cast<id_t>(pid), &info,
                 WEXITED | WNOHANG | WNOWAIT) == 0) {
      break;
    }
    if (errno != EINTR) {
      *status =
          255 << 8;  // cannot happen for our own child; count it as a failure
      return true;
    }
  }
  if (info.si_pid == 0) {
    return false;
  }
  if (info.si_code == CLD_EXITED) {
    *status = (info.si_status & 0xff) << 8;
  } else {
    *status = info.si_status & 0x7f;  // CLD_KILLED or CLD_DUMPED: the signal
  }
  return true;
}

// True if the timer expired (false: a spurious report, or disarmed since).
bool consume_timer(const UniqueFd& timer) {
  std::uint64_t expirations = 0;
  return ::read(timer.get(), &expirations, sizeof expirations) ==
             static_cast<ssize_t>(sizeof expirations) &&
         expirations > 0;
}

}  // namespace

Job::Job(const Options& options, segment::Segment& segment,
         const topo::Topology* topology, SignalSetup& signals,
         unsigned long original_fd_limit)
    : options_(options),
      segment_(segment),
      signals_(signals),
      output_(options.universe_size, options.tag_output, STDOUT_FILENO,
              STDERR_FILENO) {
  plan_.segment = &segment;
  plan_.topology = options.bind == topo::BindPolicy::kNone ? nullptr : topology;
  plan_.bind = options.bind;
  plan_.nranks = options.nranks;
  plan_.command = options.command;
  plan_.launcher_pid = ::getpid();
  plan_.signals = &signals;
  plan_.original_fd_limit = original_fd_limit;
  plan_.rank0_in_launcher_group = ::isatty(STDIN_FILENO) != 0;
}

int Job::run(EventLoop& loop) {
  timeout_timer_ = make_timer();
  grace_timer_ = make_timer();
  drain_timer_ = make_timer();
  if (!timeout_timer_.valid() || !grace_timer_.valid() ||
      !drain_timer_.valid()) {
    print(std::string("shmpirun: timerfd_create failed: ") +
          std::strerror(errno));
    return 1;
  }
  loop_ = &loop;
  std::string why;
  if (!open_spawn_pipe()) {
    why = std::string("cannot make the spawn pipe: ") + std::strerror(errno);
    print("shmpirun: " + why);
    return 1;
  }
  plan_.spawn_fd = spawn_write_.get();
  spawn_all();
  if (!register_sources(loop)) {
    why = std::string("cannot watch the ranks (") + loop.name() +
          "): " + std::strerror(errno);
  } else {
    if (options_.timeout_s && !ending_) {
      // At most ~31 years, so the nanoseconds fit in 64 bits.
      double seconds = std::min(*options_.timeout_s, 1e9);
      arm_timer(timeout_timer_,
                std::max<std::int64_t>(1, std::llround(seconds * 1e9)));
    }
    if (loop.run(*this, &why)) {
      why.clear();
    }
  }
  if (!why.empty()) {
    // Without an event loop we cannot watch the ranks: stop them outright.
    fail(1, "shmpirun: " + why);
    signal_live_ranks(SIGKILL);
    for (Rank& rank : ranks_) {
      if (!rank.reaped) {
        ::waitpid(rank.process.pid, nullptr, 0);
        rank.reaped = true;
      }
    }
  }
  loop_ = nullptr;
  output_.finish_all();
  for (Rank& rank : ranks_) {
    print_rank_message(rank);
  }
  return exit_code_.value_or(0);
}

void Job::spawn_all() {
  ranks_.reserve(options_.nranks);
  for (std::uint32_t index = 0; index < options_.nranks; ++index) {
    Rank rank;
    rank.name = "rank " + std::to_string(index);
    std::string why;
    if (!spawn_rank(plan_, first_world_rank(plan_, index), rank.process,
                    &why)) {
      fail(1,
           "shmpirun: cannot start rank " + std::to_string(index) + ": " + why);
      break;
    }
    ranks_.push_back(std::move(rank));
    ++live_ranks_;
  }
  // All ranks fork first and exec in parallel; then we collect the reports.
  bool reported = false;
  for (Rank& rank : ranks_) {
    int error = wait_for_exec(rank.process);
    if (error != 0 && !reported) {
      reported = true;
      fail(127, "shmpirun: cannot execute '" + options_.command[0] +
                    "': " + std::strerror(error));
    }
  }
}

bool Job::register_rank(EventLoop& loop, std::uint32_t slot) {
  Rank& rank = ranks_[slot];
  if (!loop.add_stream(rank.process.stdout_fd.get(),
                       token(Source::kStdout, slot)) ||
      !loop.add_stream(rank.process.stderr_fd.get(),
                       token(Source::kStderr, slot)) ||
      !loop.add_ready_source(rank.process.pidfd.get(),
                             token(Source::kPidfd, slot))) {
    return false;
  }
  rank.stream_open = {true, true};
  open_streams_ += 2;
  return true;
}

bool Job::register_sources(EventLoop& loop) {
  for (std::uint32_t index = 0; index < ranks_.size(); ++index) {
    if (!register_rank(loop, index)) {
      return false;
    }
  }
  return loop.add_ready_source(signals_.signal_fd.get(),
                               token(Source::kSignal)) &&
         loop.add_ready_source(timeout_timer_.get(), token(Source::kTimeout)) &&
         loop.add_ready_source(grace_timer_.get(), token(Source::kGrace)) &&
         loop.add_ready_source(drain_timer_.get(), token(Source::kDrain)) &&
         loop.add_ready_source(spawn_read_.get(), token(Source::kSpawn));
}

void Job::on_data(std::uint64_t source_token, std::span<const char> bytes) {
  auto index = static_cast<std::uint32_t>(source_token);
  auto stream = static_cast<Source>(source_token >> 32) == Source::kStdout
                    ? Stream::kStdout
                    : Stream::kStderr;
  if (ranks_[index]
          .stream_open[static_cast<std::size_t>(stream)]) {  // else abandoned
    output_.forward(index, stream,
                    std::string_view(bytes.data(), bytes.size()));
  }
}

void Job::on_eof(std::uint64_t source_token) {
  auto index = static_cast<std::uint32_t>(source_token);
  bool is_stdout = static_cast<Source>(source_token >> 32) == Source::kStdout;
  close_stream(index, is_stdout ? Stream::kStdout : Stream::kStderr);
  // The loop no longer watches it: free the descriptor now (1024 ranks).
  (is_stdout ? ranks_[index].process.stdout_fd
             : ranks_[index].process.stderr_fd)
      .reset();
}

void Job::close_stream(std::uint32_t index, Stream stream) {
  Rank& rank = ranks_[index];
  bool& open = rank.stream_open[static_cast<std::size_t>(stream)];
  if (!open) {
    return;
  }
  open = false;
  output_.finish(index, stream);
  --open_streams_;
  if (!rank.has_open_stream() && rank.reaped) {
    print_rank_message(rank);
  }
}

void Job::abandon_held_streams() {
  for (std::uint32_t index = 0; index < ranks_.size(); ++index) {
    Rank& rank = ranks_[index];
    const std::array<int, 2> fds = {rank.process.stdout_fd.get(),
                                    rank.process.stderr_fd.get()};
    for (int stream = 0; stream < 2; ++stream) {
      if (!rank.stream_open[static_cast<std::size_t>(stream)]) {
        continue;
      }
      // POLLHUP: no writer is left, so the end will come; keep reading
      // (under load that may take longer than the grace). Otherwise someone
      // the rank started still holds the pipe: stop waiting for it.
      pollfd probe{fds[static_cast<std::size_t>(stream)], POLLIN, 0};
      if (::poll(&probe, 1, 0) == 1 &&
          (probe.revents & (POLLHUP | POLLERR)) != 0) {
        continue;
      }
      close_stream(index, static_cast<Stream>(stream));
    }
  }
}

bool Job::on_ready(std::uint64_t source_token) {
  switch (static_cast<Source>(source_token >> 32)) {
    case Source::kPidfd: {
      auto index = static_cast<std::uint32_t>(source_token);
      handle_rank_exit(index);
      return !ranks_[index].reaped;
    }
    case Source::kSignal:
      handle_signals();
      return true;
    case Source::kTimeout:
      if (!consume_timer(timeout_timer_)) {
        return true;
      }
      if (!ending_) {
        fail(124,
             "shmpirun: job timed out after " + options_.timeout_text + " s");
      }
      return false;
    case Source::kGrace:
      if (!consume_timer(grace_timer_)) {
        return true;
      }
      grace_expired_ = true;
      signal_live_ranks(SIGKILL);
      return false;
    case Source::kDrain:
      if (!consume_timer(drain_timer_)) {
        return true;
      }
      abandon_held_streams();
      return false;
    case Source::kSpawn:
      read_spawn_requests();
      return true;
    case Source::kStdout:
    case Source::kStderr:
      break;
  }
  return false;
}

bool Job::finished() const { return live_ranks_ == 0 && open_streams_ == 0; }

void Job::handle_rank_exit(std::uint32_t index) {
  // A Ctrl-C reaches the ranks and us together: let ours decide the outcome
  // before their deaths by SIGINT are judged as failures.
  handle_signals();
  Rank& rank = ranks_[index];
  // Look without reaping: while the rank is a zombie its pid (and process
  // group id) cannot be reused, so end_job() below can still signal its
  // group, reaching whatever the rank started.
  int status = 0;
  if (!peek_exit_status(rank.process.pid, &status)) {
    return;  // not yet: the pidfd stays watched
  }
  --live_ranks_;

  segment::RankInfo& info = segment_.rank_info(index);
  // Acquire: pairs with the rank's release stores of kRunning/kFinalized (its
  // exit, seen through waitid, has already ordered them before us anyway).
  auto state = static_cast<segment::RankState>(
      info.state.load(std::memory_order_acquire));
  if (state != segment::RankState::kFinalized) {
    // Release: other ranks that see kDead also see everything we did before.
    info.state.store(static_cast<std::uint32_t>(segment::RankState::kDead),
                     std::memory_order_release);
  }

  if (rank.discarded) {
    // Killed because its spawn failed; the spawning root was told.
  } else if (ending_) {
    // A consequence of the end: its group got SIGTERM already; make sure
    // what the rank left behind goes too once the grace period is over.
    if (grace_expired_) {
      signal_rank(rank.process, SIGKILL);
    }
  } else {
    segment::SegmentHeader& header = segment_.header();
    // Acquire: pairs with the release store of abort_flag in MPI_Abort, which
    // publishes abort_rank and abort_code.
    if (header.abort_flag.load(std::memory_order_acquire) != 0 &&
        header.abort_rank.load(std::memory_order_relaxed) >= 0) {
      // MPI_Abort: the aborting rank printed its own message.
      if (!exit_code_) {
        exit_code_ = header.abort_code.load(std::memory_order_relaxed);
      }
      end_job();
    } else {
      RankExit verdict =
          judge_rank_exit(rank.name, rank.process.pid, status, state);
      if (verdict.kind != RankExit::Kind::kClean) {
        if (!exit_code_) {
          exit_code_ = verdict.job_exit_code;
        }
        rank.message = std::move(verdict.message);
        if (verdict.end_job) {
          end_job();
        }
      }
    }
  }
  ::waitpid(rank.process.pid, nullptr, 0);  // reap: the status is known
  rank.reaped = true;

  if (!rank.has_open_stream()) {
    print_rank_message(rank);
  }
  if (live_ranks_ == 0) {
    arm_timer(grace_timer_, 0);
    if (open_streams_ > 0) {
      arm_timer(drain_timer_, kDrainGraceNs);
    }
  }
}

void Job::handle_signals() {
  while (int signal = read_signal(signals_.signal_fd.get())) {
    if (ending_) {
      // Asked again while stopping: no more grace.
      grace_expired_ = true;
      signal_live_ranks(SIGKILL);
      continue;
    }
    if (!exit_code_) {
      exit_code_ = 128 + signal;
    }
    end_job();
  }
}

void Job::fail(int exit_code, const std::string& message) {
  if (!exit_code_) {
    exit_code_ = exit_code;
  }
  print(message);
  end_job();
}

void Job::end_job() {
  if (ending_) {
    return;
  }
  ending_ = true;
  arm_timer(timeout_timer_, 0);
  segment::SegmentHeader& header = segment_.header();
  if (header.abort_flag.load(std::memory_order_acquire) == 0) {
    header.abort_rank.store(-1, std::memory_order_relaxed);
    header.abort_code.store(exit_code_.value_or(1), std::memory_order_relaxed);
    // Release: pairs with the acquire load of abort_flag in every rank's
    // wait loops; publishes abort_rank and abort_code.
    header.abort_flag.store(1, std::memory_order_release);
  }
  // seq_cst fence: the abort_flag store must be visible before we touch the
  // wake words, as in segment::wake_if_sleeping(): a rank about to sleep
  // either sees the flag in its re-check or has its FUTEX_WAIT fail or woken.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  for (std::uint32_t index = 0; index < ranks_.size(); ++index) {
    segment::wake_now(*segment_.at<segment::RankControl>(
        segment_.layout().control_offset(index)));
  }
  signal_live_ranks(SIGTERM);
  if (live_ranks_ > 0) {
    arm_timer(grace_timer_, kKillGraceNs);
  }
}

void Job::signal_live_ranks(int signal) {
  for (Rank& rank : ranks_) {
    if (!rank.reaped) {
      // Not reaped yet, so the pid still names our child (a zombie at worst)
      // and its process group.
      signal_rank(rank.process, signal);
    }
  }
}

void Job::print_rank_message(Rank& rank) {
  if (!rank.message.empty()) {
    print(rank.message);
    rank.message.clear();
  }
}

void Job::print(const std::string& line) {
  std::string text = line + '\n';
  write_all(STDERR_FILENO, text.data(), text.size());
}

}  // namespace shmpi::launcher
