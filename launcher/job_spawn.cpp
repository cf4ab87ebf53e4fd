// SPDX-License-Identifier: MIT
// MPI_Comm_spawn's launcher half (docs/design.md#spawn): a spawning root
// writes a SpawnRequest into the shared heap and its offset into the spawn
// pipe; we fork the processes into the next free slots, as a new process
// group, watch them like every other rank, and answer in the request.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "launcher/job.hpp"
#include "segment/header.hpp"
#include "segment/spawn_request.hpp"
#include "segment/wake_word.hpp"

namespace shmpi::launcher {

using segment::SpawnCommand;
using segment::SpawnError;
using segment::SpawnRequest;

bool Job::open_spawn_pipe() {
  std::array<int, 2> fds{};
  if (::pipe2(fds.data(), O_CLOEXEC) != 0) {
    return false;
  }
  spawn_read_.reset(fds[0]);
  spawn_write_.reset(fds[1]);
  return set_nonblocking(spawn_read_.get(), true);
}

void Job::read_spawn_requests() {
  char buffer[512];
  for (;;) {
    const ssize_t got = ::read(spawn_read_.get(), buffer, sizeof buffer);
    if (got <= 0) {
      return;  // EAGAIN: all read (we hold a write end, so never EOF)
    }
    // Offsets are written 8 bytes at a time, which a pipe keeps whole
    // (PIPE_BUF); keep a torn end anyway rather than trust that.
    spawn_partial_.append(buffer, static_cast<std::size_t>(got));
    std::size_t used = 0;
    while (spawn_partial_.size() - used >= sizeof(std::uint64_t)) {
      std::uint64_t offset = 0;
      std::memcpy(&offset, spawn_partial_.data() + used, sizeof offset);
      used += sizeof offset;
      serve_spawn(offset);
    }
    spawn_partial_.erase(0, used);
  }
}

namespace {

void answer(const segment::Segment& segment, SpawnRequest& request,
            SpawnError error, const std::string& message) {
  request.error = static_cast<std::int32_t>(error);
  std::snprintf(request.message, sizeof request.message, "%s", message.c_str());
  // Release: pairs with the root's (and the new processes') acquire of
  // state; publishes the answer, the new slots' rank-table entries and the
  // references added for the new processes.
  request.state.store(static_cast<std::uint32_t>(segment::SpawnState::kDone),
                      std::memory_order_release);
  segment::wake_if_sleeping(*segment.at<segment::RankControl>(
      segment.layout().control_offset(request.requester_slot)));
}

}  // namespace

void Job::serve_spawn(std::uint64_t offset) {
  const segment::SegmentLayout& layout = segment_.layout();
  const std::uint64_t heap_end = layout.heap_offset + layout.heap_bytes;
  // The offset came from a rank: the block must lie in the heap.
  if (offset < layout.heap_offset || offset % alignof(SpawnRequest) != 0 ||
      offset > heap_end - sizeof(SpawnRequest)) {
    return;  // nowhere to answer; a bug in the rank, which will hang
  }
  SpawnRequest& request = *segment_.at<SpawnRequest>(offset);
  if (request.magic != SpawnRequest::kMagic ||
      request.requester_slot >= layout.config.capacity ||
      request.parent_size > layout.config.capacity ||
      request.commands_bytes > heap_end - offset) {
    return;
  }
  if (request.command_count > request.commands_bytes ||
      SpawnRequest::bytes_for(request.parent_size, request.commands_bytes,
                              request.command_count) > heap_end - offset) {
    answer(segment_, request, SpawnError::kBadRequest,
           "the spawn request does not fit in the shared heap");
    return;
  }
  auto decoded = segment::decode_spawn_commands(
      std::span<const std::byte>(request.commands(), request.commands_bytes));
  if (!decoded) {
    answer(segment_, request, SpawnError::kBadRequest,
           std::string(decoded.error().what));
    return;
  }
  const std::vector<SpawnCommand>& commands = decoded.value();
  if (commands.size() != request.command_count) {
    answer(segment_, request, SpawnError::kBadRequest,
           "the spawn request's command count is wrong");
    return;
  }
  if (ending_) {
    answer(segment_, request, SpawnError::kExecFailed, "the job is ending");
    return;
  }

  // How many processes each command gets; all or nothing (but "soft").
  const auto first = static_cast<std::uint32_t>(ranks_.size());
  const std::uint64_t free_slots = layout.config.capacity - first;
  std::vector<std::uint32_t> counts;
  std::uint64_t total = 0;
  std::uint64_t asked = 0;
  for (const SpawnCommand& command : commands) {
    asked += command.maxprocs;
  }
  for (const SpawnCommand& command : commands) {
    const std::int64_t count =
        segment::spawn_count(command, free_slots - total);
    if (count < 0) {
      answer(segment_, request, SpawnError::kNoRoom,
             std::to_string(asked) +
                 " process(es) asked for, but the job has " +
                 std::to_string(free_slots) + " free slot(s) of " +
                 std::to_string(layout.config.capacity) +
                 " (shmpirun --universe-size sets them)");
      return;
    }
    counts.push_back(static_cast<std::uint32_t>(count));
    total += static_cast<std::uint64_t>(count);
  }

  const std::uint32_t pg = next_pg_++;
  std::string failure;
  std::vector<std::size_t> command_of;  // per process started, in slot order
  std::uint32_t world_rank = 0;
  for (std::size_t i = 0; i < commands.size() && failure.empty(); ++i) {
    for (std::uint32_t k = 0; k < counts[i] && failure.empty(); ++k) {
      ChildSpec child;
      child.slot = first + world_rank;
      child.world_rank = world_rank;
      child.world_size = static_cast<std::uint32_t>(total);
      child.pg = pg;
      child.command = &commands[i].argv;
      child.wdir = commands[i].wdir;
      child.path = commands[i].path;
      child.appnum = static_cast<std::uint32_t>(i);
      child.request_offset = offset;
      if (plan_.topology != nullptr) {
        // Best effort, as for the first world (main.cpp).
        const int node =
            plan_.topology
                ->placement_for(static_cast<int>(child.slot),
                                static_cast<int>(child.slot) + 1, plan_.bind)
                .numa_node;
        if (node >= 0) {
          (void)plan_.topology->bind_memory(
              segment_.base() + layout.region_offset(child.slot),
              layout.region_bytes, node);
        }
      }
      Rank rank;
      rank.name = "spawned rank " + std::to_string(world_rank) +
                  " of process group " + std::to_string(pg) + ", slot " +
                  std::to_string(child.slot);
      std::string why;
      if (!spawn_rank(plan_, child, rank.process, &why)) {
        failure = "cannot start '" + commands[i].argv[0] + "': " + why;
        break;
      }
      ranks_.push_back(std::move(rank));
      command_of.push_back(i);
      ++live_ranks_;
      ++world_rank;
    }
  }
  // They fork first and exec in parallel; then we collect the reports.
  for (std::uint32_t slot = first; slot < ranks_.size(); ++slot) {
    const int error = wait_for_exec(ranks_[slot].process);
    if (error != 0 && failure.empty()) {
      failure = "cannot execute '" +
                commands[command_of[slot - first]].argv[0] +
                "': " + std::strerror(error);
    }
  }
  bool watched = true;
  for (std::uint32_t slot = first; slot < ranks_.size(); ++slot) {
    watched = register_rank(*loop_, slot) && watched;
  }
  if (!watched && failure.empty()) {
    failure =
        std::string("cannot watch the new processes: ") + std::strerror(errno);
  }
  if (!failure.empty()) {
    // All or nothing: the ones that started are stopped, and their ends
    // are not judged. Slots are not reused.
    for (std::uint32_t slot = first; slot < ranks_.size(); ++slot) {
      ranks_[slot].discarded = true;
      signal_rank(ranks_[slot].process, SIGKILL);
    }
    answer(segment_, request, SpawnError::kExecFailed, failure);
    return;
  }
  request.first_slot = first;
  request.procs = static_cast<std::uint32_t>(total);
  std::copy(counts.begin(), counts.end(), request.started());
  request.pg = pg;
  // Relaxed: published by answer()'s release; each new process drops one.
  request.references.fetch_add(static_cast<std::uint32_t>(total),
                               std::memory_order_relaxed);
  answer(segment_, request, SpawnError::kNone, "");
}

}  // namespace shmpi::launcher
