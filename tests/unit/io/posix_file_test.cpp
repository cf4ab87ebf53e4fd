// SPDX-License-Identifier: MIT
// io/posix_file.hpp: positioned reads and writes (whole, short only at the
// end of the file), size, preallocation and sync, and RangeLock, whose
// open-file-description locks must exclude another process that opened
// the file itself (tested with fork: the child reports through its exit
// status and never returns into gtest).
#include "io/posix_file.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace shmpi::io {
namespace {

// A fresh file in $TMPDIR (or /tmp), removed with the fixture.
class PosixFile : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* dir = std::getenv("TMPDIR");
    path_ = std::string(dir != nullptr && dir[0] != '\0' ? dir : "/tmp") +
            "/shmpi-posix-file-XXXXXX";
    fd_ = ::mkstemp(path_.data());
    ASSERT_GE(fd_, 0) << "mkstemp: " << errno;
  }
  void TearDown() override {
    ::close(fd_);
    ::unlink(path_.c_str());
  }
  // The same file again, read-only.
  int open_read_only() const { return ::open(path_.c_str(), O_RDONLY); }

  std::string path_;
  int fd_ = -1;
};

TEST_F(PosixFile, ResizeGrowsAndShrinks) {
  EXPECT_EQ(file_size(fd_), 0);
  EXPECT_EQ(resize(fd_, 4096), 0);
  EXPECT_EQ(file_size(fd_), 4096);
  EXPECT_EQ(resize(fd_, 10), 0);
  EXPECT_EQ(file_size(fd_), 10);
}

TEST_F(PosixFile, PreallocateGrowsButNeverShrinks) {
  const char data[] = "0123456789";
  ASSERT_EQ(write_at(fd_, data, 10, 0), 10);
  EXPECT_EQ(preallocate(fd_, 5), 0);
  EXPECT_EQ(file_size(fd_), 10);
  EXPECT_EQ(preallocate(fd_, 0), 0);
  EXPECT_EQ(file_size(fd_), 10);
  EXPECT_EQ(preallocate(fd_, 1 << 16), 0);
  EXPECT_EQ(file_size(fd_), 1 << 16);
  char back[10] = {};
  ASSERT_EQ(read_at(fd_, back, 10, 0), 10);
  EXPECT_EQ(std::string(back, 10), std::string(data, 10));
}

TEST_F(PosixFile, SyncWorksOnReadOnlyDescriptors) {
  EXPECT_EQ(sync(fd_), 0);
  const int read_only = open_read_only();
  ASSERT_GE(read_only, 0);
  EXPECT_EQ(sync(read_only), 0);
  ::close(read_only);
}

TEST_F(PosixFile, ChangesThroughReadOnlyDescriptorsFail) {
  const int read_only = open_read_only();
  ASSERT_GE(read_only, 0);
  EXPECT_NE(resize(read_only, 100), 0);
  EXPECT_NE(preallocate(read_only, 100), 0);
  EXPECT_EQ(file_size(read_only), 0);
  ::close(read_only);
}

TEST(PosixFileErrors, BadDescriptorGivesErrno) {
  EXPECT_EQ(file_size(-1), -EBADF);
  EXPECT_EQ(resize(-1, 1), EBADF);
  EXPECT_EQ(preallocate(-1, 1), EBADF);
  EXPECT_EQ(sync(-1), EBADF);
  char buffer[4] = {};
  EXPECT_EQ(read_at(-1, buffer, sizeof buffer, 0), -EBADF);
  EXPECT_EQ(write_at(-1, buffer, sizeof buffer, 0), -EBADF);
}

TEST_F(PosixFile, WriteAtThenReadAtRoundTrips) {
  const std::string data = "positioned write";
  ASSERT_EQ(write_at(fd_, data.data(), data.size(), 100),
            static_cast<std::int64_t>(data.size()));
  std::string back(data.size(), '\0');
  ASSERT_EQ(read_at(fd_, back.data(), back.size(), 100),
            static_cast<std::int64_t>(data.size()));
  EXPECT_EQ(back, data);
  // The hole before it reads as zeros.
  std::vector<char> hole(100, 'x');
  ASSERT_EQ(read_at(fd_, hole.data(), hole.size(), 0), 100);
  EXPECT_EQ(hole, std::vector<char>(100, '\0'));
}

TEST_F(PosixFile, ReadAtIsShortAtEndOfFile) {
  ASSERT_EQ(write_at(fd_, "0123456789", 10, 0), 10);
  char buffer[20] = {};
  EXPECT_EQ(read_at(fd_, buffer, sizeof buffer, 5), 5);
  EXPECT_EQ(std::string(buffer, 5), "56789");
  EXPECT_EQ(read_at(fd_, buffer, sizeof buffer, 10), 0);
  EXPECT_EQ(read_at(fd_, buffer, sizeof buffer, 1000), 0);
}

TEST_F(PosixFile, RangeLockOfNothingHoldsNothing) {
  const RangeLock lock(fd_, 8, 8, true);
  EXPECT_EQ(lock.error(), 0);
}

// Forks a child that opens `path` itself, takes a RangeLock on [first, end)
// (exclusive or shared) and writes one byte to `ready` once it holds it,
// then exits. Returns its pid.
pid_t lock_in_child(const std::string& path, std::int64_t first,
                    std::int64_t end, bool exclusive, int ready) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(path.c_str(), O_RDWR);
    if (fd < 0) {
      ::_exit(2);
    }
    {
      const RangeLock lock(fd, first, end, exclusive);
      if (lock.error() != 0) {
        ::_exit(3);
      }
      const char byte = 1;
      if (::write(ready, &byte, 1) != 1) {
        ::_exit(4);
      }
    }
    ::close(fd);
    ::_exit(0);
  }
  return pid;
}

// Whether a byte arrives on `fd` within `ms` milliseconds.
bool arrives(int fd, int ms) {
  struct pollfd p {};
  p.fd = fd;
  p.events = POLLIN;
  if (::poll(&p, 1, ms) != 1) {
    return false;
  }
  char byte = 0;
  return ::read(fd, &byte, 1) == 1;
}

int exit_status(pid_t pid) {
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
    return -1;
  }
  return WEXITSTATUS(status);
}

TEST_F(PosixFile, RangeLockExcludesAnotherProcess) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  pid_t child = -1;
  {
    const RangeLock held(fd_, 0, 100, true);
    ASSERT_EQ(held.error(), 0);
    // An overlapping exclusive lock waits while this one is held...
    child = lock_in_child(path_, 50, 150, true, pipe_fds[1]);
    ASSERT_GT(child, 0);
    EXPECT_FALSE(arrives(pipe_fds[0], 300));
  }
  // ...and gets it once it is released.
  EXPECT_TRUE(arrives(pipe_fds[0], 10000));
  EXPECT_EQ(exit_status(child), 0);
  {
    // A shared lock excludes an exclusive one too, but not a disjoint one.
    const RangeLock held(fd_, 0, 100, false);
    ASSERT_EQ(held.error(), 0);
    child = lock_in_child(path_, 100, 200, true, pipe_fds[1]);
    EXPECT_TRUE(arrives(pipe_fds[0], 10000));
    EXPECT_EQ(exit_status(child), 0);
    child = lock_in_child(path_, 99, 100, true, pipe_fds[1]);
    EXPECT_FALSE(arrives(pipe_fds[0], 300));
  }
  EXPECT_TRUE(arrives(pipe_fds[0], 10000));
  EXPECT_EQ(exit_status(child), 0);
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
}

TEST_F(PosixFile, SharedRangeLocksDoNotExcludeEachOther) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  {
    const RangeLock held(fd_, 0, 100, false);
    ASSERT_EQ(held.error(), 0);
    const pid_t child = lock_in_child(path_, 0, 100, false, pipe_fds[1]);
    EXPECT_TRUE(arrives(pipe_fds[0], 10000));
    EXPECT_EQ(exit_status(child), 0);
  }
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
}

}  // namespace
}  // namespace shmpi::io
