// SPDX-License-Identifier: MIT
#include "launcher/spawn.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace shmpi::launcher {

namespace {

constexpr int kExecFailedCode = 127;

struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};

bool make_pipe(Pipe& pipe, std::string* why) {
  std::array<int, 2> fds{};
  if (::pipe2(fds.data(), O_CLOEXEC) != 0) {
    *why = std::string("pipe2 failed: ") + std::strerror(errno);
    return false;
  }
  pipe.read_end.reset(fds[0]);
  pipe.write_end.reset(fds[1]);
  return true;
}

void write_message(const std::string& text) noexcept {
  ssize_t ignored = ::write(STDERR_FILENO, text.data(), text.size());
  (void)ignored;
}

// Runs in the forked child and never returns. The launcher is
// single-threaded, so allocating here (setenv, hwloc) is safe.
// glibc 2.36's <sys/pidfd.h> lacks extern "C" (fixed in 2.37): call the
// system call directly. The descriptor is always close-on-exec.
int open_pidfd(pid_t pid) noexcept {
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0U));
}

[[noreturn]] void exec_failed(Pipe& report, int error) {
  ssize_t ignored = ::write(report.write_end.get(), &error, sizeof error);
  (void)ignored;
  ::_exit(kExecFailedCode);
}

// execvp, but a spawned command without a '/' is looked for in the info
// key "path"'s directories first.
void exec_command(const ChildSpec& child, std::vector<char*>& argv) {
  const std::string command = argv[0];
  if (!child.path.empty() && command.find('/') == std::string::npos) {
    std::size_t start = 0;
    while (start <= child.path.size()) {
      std::size_t end = child.path.find(':', start);
      if (end == std::string::npos) {
        end = child.path.size();
      }
      if (end > start) {
        const std::string candidate =
            child.path.substr(start, end - start) + "/" + command;
        if (::access(candidate.c_str(), X_OK) == 0) {
          ::execv(candidate.c_str(), argv.data());
        }
      }
      start = end + 1;
    }
  }
  ::execvp(argv[0], argv.data());
}

[[noreturn]] void become_rank(const SpawnPlan& plan, const ChildSpec& child,
                              std::vector<char*>& argv, Pipe& out, Pipe& err,
                              Pipe& report) {
  const std::uint32_t rank = child.slot;
  // First, so that a launcher killed from here on takes us with it; then
  // check it did not die before the prctl took effect.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != plan.launcher_pid) {
    ::_exit(kExecFailedCode);
  }
  restore_child_signals(*plan.signals);
  restore_fd_limit(plan.original_fd_limit);
  if (rank != 0 || !plan.rank0_in_launcher_group) {
    ::setpgid(0, 0);
  }

  if (::dup2(out.write_end.get(), STDOUT_FILENO) < 0 ||
      ::dup2(err.write_end.get(), STDERR_FILENO) < 0) {
    ::_exit(kExecFailedCode);
  }
  if (rank != 0) {
    int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null_fd >= 0) {
      ::dup2(null_fd, STDIN_FILENO);
    }
  }
  // The segment's memfd is close-on-exec in the launcher; this rank keeps it.
  set_cloexec(plan.segment->fd(), false);

  ::setenv("SHMPI_SEGMENT_FD", std::to_string(plan.segment->fd()).c_str(), 1);
  ::setenv("SHMPI_RANK", std::to_string(child.world_rank).c_str(), 1);
  ::setenv("SHMPI_SIZE", std::to_string(child.world_size).c_str(), 1);
  if (plan.spawn_fd >= 0) {
    set_cloexec(plan.spawn_fd, false);
    ::setenv("SHMPI_SPAWN_FD", std::to_string(plan.spawn_fd).c_str(), 1);
  }
  if (child.pg != 0) {
    // A spawned process: where its world starts and what asked for it
    // (runtime/runtime.cpp reads these).
    ::setenv("SHMPI_WORLD_BASE",
             std::to_string(child.slot - child.world_rank).c_str(), 1);
    ::setenv("SHMPI_PG", std::to_string(child.pg).c_str(), 1);
    ::setenv("SHMPI_APPNUM", std::to_string(child.appnum).c_str(), 1);
    ::setenv("SHMPI_SPAWN_REQUEST",
             std::to_string(child.request_offset).c_str(), 1);
    if (!child.wdir.empty() && ::chdir(child.wdir.c_str()) != 0) {
      exec_failed(report, errno);
    }
  } else {
    // A process that the first world's ranks started themselves (with
    // fork and exec) must not take these from a spawned parent.
    ::unsetenv("SHMPI_WORLD_BASE");
    ::unsetenv("SHMPI_PG");
    ::unsetenv("SHMPI_APPNUM");
    ::unsetenv("SHMPI_SPAWN_REQUEST");
  }

  segment::RankInfo& info = plan.segment->rank_info(rank);
  topo::Placement placement;
  if (plan.topology != nullptr) {
    auto bound = plan.topology->bind_current_process(
        static_cast<int>(rank), static_cast<int>(plan.nranks), plan.bind);
    if (bound) {
      placement = bound.value();
    } else {
      write_message("shmpirun: warning: rank " + std::to_string(rank) + ": " +
                    std::string(bound.error().what) + "; running unbound\n");
    }
  }
  // Plain fields, written by this rank alone before exec; other ranks read
  // them only after synchronizing with it in MPI_Init.
  info.core = placement.core;
  info.numa_node = placement.numa_node;
  // The launcher stores the same value after fork; storing it here too makes
  // it visible before exec whichever runs first.
  info.pid.store(static_cast<std::int32_t>(::getpid()),
                 std::memory_order_relaxed);

  exec_command(child, argv);
  exec_failed(report, errno);
}

}  // namespace

bool spawn_rank(const SpawnPlan& plan, const ChildSpec& child,
                RankProcess& process, std::string* why) {
  const std::uint32_t rank = child.slot;
  const std::vector<std::string>& command =
      child.command != nullptr ? *child.command : plan.command;
  Pipe out;
  Pipe err;
  Pipe report;
  if (!make_pipe(out, why) || !make_pipe(err, why) || !make_pipe(report, why)) {
    return false;
  }
  std::vector<char*> argv;
  argv.reserve(command.size() + 1);
  for (const std::string& word : command) {
    argv.push_back(
        const_cast<char*>(word.c_str()));  // exec's signature; not written
  }
  argv.push_back(nullptr);

  segment::RankInfo& info = plan.segment->rank_info(rank);
  // Plain: nobody reads the gpid of a kEmpty slot (lpid/rank_table.cpp).
  info.gpid = (std::uint64_t{child.pg} << 32) | child.world_rank;
  // Release: pairs with the acquire in lpid::find_slot, which may scan the
  // table while the job runs (a spawn); publishes the gpid. fork() publishes
  // both to the child.
  info.state.store(static_cast<std::uint32_t>(segment::RankState::kStarting),
                   std::memory_order_release);

  pid_t pid = ::fork();
  if (pid < 0) {
    *why = std::string("fork failed: ") + std::strerror(errno);
    // kDead, not kEmpty: a slot is used once (spawn never reuses one).
    info.state.store(static_cast<std::uint32_t>(segment::RankState::kDead),
                     std::memory_order_relaxed);
    return false;
  }
  if (pid == 0) {
    become_rank(plan, child, argv, out, err, report);
  }
  info.pid.store(static_cast<std::int32_t>(pid), std::memory_order_relaxed);

  process.pid = pid;
  process.own_group = rank != 0 || !plan.rank0_in_launcher_group;
  if (process.own_group) {
    // The child does the same; whichever runs first wins, so a signal to
    // -pid cannot arrive before the group exists. EACCES after its exec is
    // fine: by then the child has done it.
    ::setpgid(pid, pid);
  }
  process.pidfd.reset(open_pidfd(pid));
  if (!process.pidfd.valid()) {
    *why = std::string("pidfd_open failed: ") + std::strerror(errno);
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    info.state.store(static_cast<std::uint32_t>(segment::RankState::kDead),
                     std::memory_order_relaxed);
    return false;
  }
  process.stdout_fd = std::move(out.read_end);
  process.stderr_fd = std::move(err.read_end);
  process.exec_report = std::move(report.read_end);
  // The write ends close here (UniqueFd), so the parent holds none of them:
  // EOF on a pipe then means the rank (and whatever it passed them to) is gone.
  return true;
}

void signal_rank(const RankProcess& process, int signal) noexcept {
  if (process.own_group && ::kill(-process.pid, signal) == 0) {
    return;
  }
  ::kill(process.pid, signal);
}

int wait_for_exec(RankProcess& process) {
  int error = 0;
  for (;;) {
    ssize_t got = ::read(process.exec_report.get(), &error, sizeof error);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    process.exec_report.reset();
    return got == static_cast<ssize_t>(sizeof error) ? error : 0;
  }
}

}  // namespace shmpi::launcher
