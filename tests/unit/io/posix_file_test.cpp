// SPDX-License-Identifier: MIT
#include "io/posix_file.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>

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
}

}  // namespace
}  // namespace shmpi::io
