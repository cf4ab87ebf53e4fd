// SPDX-License-Identifier: MIT
// io/sieve.hpp: SievingReader and SievingWriter against a real file. Runs
// a small gap apart are served by one read (and write) of their span and
// must still land exactly where they belong: the reader stops at the end
// of the file inside a run, counting only what it read; the writer leaves
// the bytes between its runs as they were and reads past the end of the
// file as zeros.
#include "io/sieve.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "io/posix_file.hpp"

namespace shmpi::io {
namespace {

std::byte file_byte(std::int64_t at) {
  return static_cast<std::byte>((at * 7 + 3) & 0xff);
}

class Sieve : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* dir = std::getenv("TMPDIR");
    path_ = std::string(dir != nullptr && dir[0] != '\0' ? dir : "/tmp") +
            "/shmpi-sieve-XXXXXX";
    fd_ = ::mkstemp(path_.data());
    ASSERT_GE(fd_, 0) << "mkstemp: " << errno;
  }
  void TearDown() override {
    ::close(fd_);
    ::unlink(path_.c_str());
  }
  void fill(std::int64_t bytes) {
    std::vector<std::byte> all(static_cast<std::size_t>(bytes));
    for (std::int64_t i = 0; i < bytes; ++i) {
      all[static_cast<std::size_t>(i)] = file_byte(i);
    }
    ASSERT_EQ(write_at(fd_, all.data(), all.size(), 0), bytes);
  }

  std::string path_;
  int fd_ = -1;
};

TEST_F(Sieve, ReaderPutsEachRunInItsPlace) {
  fill(1 << 16);
  // 8 bytes every 16 (sieved), then runs 64 KiB apart... within the file:
  // every 4096th 8 bytes (too far apart: read one by one).
  std::vector<std::byte> out(2048 * 8);
  SievingReader reader(fd_);
  std::size_t k = 0;
  for (std::int64_t at = 0; at < 16 * 1024; at += 16, ++k) {
    ASSERT_TRUE(reader.add(at, out.data() + 8 * k, 8));
  }
  for (std::int64_t at = 16 * 1024; at < (1 << 16); at += 4096, ++k) {
    ASSERT_TRUE(reader.add(at, out.data() + 8 * k, 8));
  }
  ASSERT_TRUE(reader.flush());
  EXPECT_EQ(reader.got(), 8 * k);
  EXPECT_EQ(reader.error_number(), 0);
  std::size_t i = 0;
  for (std::int64_t at = 0; at < 16 * 1024; at += 16) {
    for (int b = 0; b < 8; ++b, ++i) {
      ASSERT_EQ(out[i], file_byte(at + b)) << "run at " << at;
    }
  }
  for (std::int64_t at = 16 * 1024; at < (1 << 16); at += 4096) {
    for (int b = 0; b < 8; ++b, ++i) {
      ASSERT_EQ(out[i], file_byte(at + b)) << "run at " << at;
    }
  }
}

TEST_F(Sieve, ReaderStopsAtTheEndOfTheFileInsideARun) {
  fill(1000);  // ends 8 bytes into the run at 992
  std::vector<std::byte> out(64 * 16, std::byte{0xee});
  SievingReader reader(fd_);
  bool going = true;
  std::size_t k = 0;
  for (std::int64_t at = 0; at < 64 * 32 && going; at += 32, ++k) {
    going = reader.add(at, out.data() + 16 * k, 16);
  }
  reader.flush();
  // Runs at 0, 32, ..., 960 are whole (31 of them), the one at 992 has 8.
  EXPECT_EQ(reader.got(), 31u * 16 + 8);
  EXPECT_EQ(out[31 * 16 + 7], file_byte(999));
  EXPECT_EQ(out[31 * 16 + 8], std::byte{0xee}) << "nothing past the end";
}

TEST_F(Sieve, WriterLeavesTheHolesAsTheyWere) {
  fill(1 << 15);
  std::vector<std::byte> in(1024 * 4, std::byte{0xab});
  {
    SievingWriter writer(fd_);
    for (std::size_t k = 0; k < 1024; ++k) {
      ASSERT_TRUE(
          writer.add(static_cast<std::int64_t>(32 * k), in.data() + 4 * k, 4));
    }
    ASSERT_TRUE(writer.flush());
    EXPECT_EQ(writer.written(), 4096u);
  }
  std::vector<std::byte> now(1 << 15);
  ASSERT_EQ(read_at(fd_, now.data(), now.size(), 0), 1 << 15);
  for (std::int64_t at = 0; at < (1 << 15); ++at) {
    const std::byte expected = at % 32 < 4 ? std::byte{0xab} : file_byte(at);
    ASSERT_EQ(now[static_cast<std::size_t>(at)], expected) << "at " << at;
  }
}

TEST_F(Sieve, WriterPastTheEndLeavesZerosInTheHoles) {
  fill(10);
  const std::byte ones[4] = {std::byte{1}, std::byte{1}, std::byte{1},
                             std::byte{1}};
  SievingWriter writer(fd_);
  ASSERT_TRUE(writer.add(20, ones, 4));
  ASSERT_TRUE(writer.add(40, ones, 4));
  ASSERT_TRUE(writer.flush());
  EXPECT_EQ(file_size(fd_), 44);
  std::vector<std::byte> now(44);
  ASSERT_EQ(read_at(fd_, now.data(), now.size(), 0), 44);
  for (std::int64_t at = 0; at < 44; ++at) {
    const std::byte expected = at < 10 ? file_byte(at)
                               : (at >= 20 && at < 24) || at >= 40
                                   ? std::byte{1}
                                   : std::byte{0};
    ASSERT_EQ(now[static_cast<std::size_t>(at)], expected) << "at " << at;
  }
}

}  // namespace
}  // namespace shmpi::io
