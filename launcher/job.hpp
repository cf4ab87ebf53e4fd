// SPDX-License-Identifier: MIT
// One job: its ranks, their streams, the timers, and the rules for how it
// ends. It is the event loop's sink: the loop reports bytes, ends of streams
// and readable pidfds/timerfds/signalfd; the job forwards output, reaps ranks
// and, at the first failure, raises the segment's abort flag, wakes every
// rank, sends SIGTERM and, after a grace period, SIGKILL.
#pragma once

#include <sys/types.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "launcher/event_loop.hpp"
#include "launcher/fd.hpp"
#include "launcher/options.hpp"
#include "launcher/output.hpp"
#include "launcher/signals.hpp"
#include "launcher/spawn.hpp"
#include "segment/segment.hpp"

namespace shmpi::launcher {

class Job final : public EventSink {
 public:
  // SIGTERM first; ranks still alive this long after get SIGKILL.
  static constexpr std::int64_t kKillGraceNs = 1'000'000'000;
  // Once every rank is reaped, a pipe whose writers are all gone is read to
  // its end however long that takes; one that a rank handed to a process of
  // its own (still open for writing) is abandoned after this.
  static constexpr std::int64_t kDrainGraceNs = 250'000'000;

  // original_fd_limit: what raise_fd_limit() returned, restored in each rank.
  Job(const Options& options, segment::Segment& segment,
      const topo::Topology* topology, SignalSetup& signals,
      unsigned long original_fd_limit);

  // Spawns every rank, registers all sources with `loop` and runs it until
  // the job is over. Returns the launcher's exit code.
  int run(EventLoop& loop);

  void on_data(std::uint64_t token, std::span<const char> bytes) override;
  void on_eof(std::uint64_t token) override;
  bool on_ready(std::uint64_t token) override;
  [[nodiscard]] bool finished() const override;

 private:
  enum class Source : std::uint32_t {
    kStdout,
    kStderr,
    kPidfd,
    kSignal,
    kTimeout,
    kGrace,
    kDrain,
    kSpawn
  };

  // ranks_[slot]: the first world's ranks, then every process spawned, in
  // slot order (a slot is used once).
  struct Rank {
    RankProcess process;
    std::string name;  // "rank 3", or "spawned rank 0 of process group 1"
    bool reaped = false;
    bool discarded = false;  // killed because its spawn failed: not judged
    std::array<bool, 2> stream_open = {false, false};  // by Stream
    bool has_open_stream() const { return stream_open[0] || stream_open[1]; }
    std::string message;  // failure line, printed once its output is flushed
  };

  static std::uint64_t token(Source source, std::uint32_t rank = 0) {
    return (static_cast<std::uint64_t>(source) << 32) | rank;
  }

  void spawn_all();
  bool register_sources(EventLoop& loop);
  bool register_rank(EventLoop& loop, std::uint32_t slot);
  // MPI_Comm_spawn (launcher/job_spawn.cpp): requests arrive as segment
  // offsets on the spawn pipe.
  bool open_spawn_pipe();
  void read_spawn_requests();
  void serve_spawn(std::uint64_t offset);
  void handle_rank_exit(std::uint32_t rank);
  void close_stream(std::uint32_t rank, Stream stream);
  void abandon_held_streams();
  void handle_signals();
  void fail(int exit_code, const std::string& message);
  void end_job();
  void signal_live_ranks(int signal);
  void print_rank_message(Rank& rank);
  static void print(const std::string& line);

  const Options& options_;
  segment::Segment& segment_;
  SpawnPlan plan_;
  SignalSetup& signals_;
  OutputForwarder output_;
  std::vector<Rank> ranks_;  // the ranks actually started
  UniqueFd timeout_timer_;
  UniqueFd grace_timer_;
  UniqueFd drain_timer_;
  UniqueFd spawn_read_;        // non-blocking; ranks hold the write end
  UniqueFd spawn_write_;       // kept so spawned processes can inherit it
  std::string spawn_partial_;  // bytes of an offset not read whole yet
  EventLoop* loop_ = nullptr;  // while run() runs
  std::uint32_t next_pg_ = 1;  // process group of the next spawn
  std::uint32_t live_ranks_ = 0;
  std::uint32_t open_streams_ = 0;
  bool ending_ = false;           // TERM sent, abort flag raised
  bool grace_expired_ = false;    // KILL sent
  std::optional<int> exit_code_;  // the first failure decides
};

}  // namespace shmpi::launcher
