// SPDX-License-Identifier: MIT
// rma::read / rma::write against a forked child: the kernel path for the
// child's private memory, the segment path for memory in a shared mapping
// that this process sees at another address, with contiguous and strided
// layouts on either side.
#include "rma/remote_memory.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstring>

#include "datatype/type_map.hpp"

namespace shmpi::rma {
namespace {

// Three 4-byte blocks 8 bytes apart in a 24-byte element.
datatype::TypeMap strided_map() {
  datatype::TypeMap map;
  map.segments = {datatype::Segment{0, 8, 4, 3}};
  map.starts = {0};
  map.packed = 12;
  map.extent = 24;
  return map;
}

datatype::Layout contiguous(void* base, std::size_t bytes) {
  return datatype::Layout{static_cast<std::byte*>(base), bytes, nullptr};
}

// A child that keeps a private buffer at `buffer` (the parent's address,
// inherited through fork): fills it with `fill` if asked, waits for the
// parent, then exits 0 if it holds `expect`.
class Child {
 public:
  Child(std::int32_t* buffer, std::size_t ints, std::int32_t fill_base,
        const std::int32_t* expect) {
    EXPECT_EQ(::pipe(go_), 0);
    EXPECT_EQ(::pipe(ready_), 0);
    pid_ = ::fork();
    if (pid_ == 0) {
      for (std::size_t i = 0; i < ints; ++i) {
        buffer[i] = fill_base + static_cast<std::int32_t>(i);
      }
      char c = 1;
      if (::write(ready_[1], &c, 1) != 1 || ::read(go_[0], &c, 1) != 1) {
        ::_exit(2);
      }
      if (expect != nullptr &&
          std::memcmp(buffer, expect, ints * sizeof *buffer) != 0) {
        ::_exit(1);
      }
      ::_exit(0);
    }
    char c = 0;
    EXPECT_EQ(::read(ready_[0], &c, 1), 1);
  }
  ~Child() {
    ::close(go_[0]);
    ::close(go_[1]);
    ::close(ready_[0]);
    ::close(ready_[1]);
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  pid_t pid() const { return pid_; }
  // Lets the child check its buffer; its exit status.
  int finish() {
    char c = 1;
    EXPECT_EQ(::write(go_[1], &c, 1), 1);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_ = -1;
  int go_[2] = {-1, -1};
  int ready_[2] = {-1, -1};
};

// No segment: every address takes the kernel path.
RemoteProcess kernel_only(pid_t pid) { return RemoteProcess{pid, 0, 0, false}; }

TEST(RemoteMemory, KernelWriteContiguous) {
  std::array<std::int32_t, 64> buffer{};
  std::array<std::int32_t, 64> data{};
  for (std::size_t i = 0; i < data.size(); ++i) {
    data[i] = static_cast<std::int32_t>(1000 + i);
  }
  Child child(buffer.data(), buffer.size(), 0, data.data());
  const CopyResult r = write(kernel_only(child.pid()), LocalSegment{},
                             contiguous(buffer.data(), sizeof buffer),
                             contiguous(data.data(), sizeof data));
  EXPECT_TRUE(r.ok()) << r.error_number;
  EXPECT_EQ(child.finish(), 0);
}

TEST(RemoteMemory, KernelReadStridedRemoteContiguousLocal) {
  std::array<std::int32_t, 18> buffer{};  // 3 elements of 24 bytes
  Child child(buffer.data(), buffer.size(), 500, nullptr);
  const datatype::TypeMap map = strided_map();
  std::array<std::int32_t, 9> got{};
  const CopyResult r =
      read(kernel_only(child.pid()), LocalSegment{},
           datatype::Layout{reinterpret_cast<std::byte*>(buffer.data()),
                            3 * map.packed, &map},
           contiguous(got.data(), sizeof got));
  EXPECT_TRUE(r.ok()) << r.error_number;
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i], static_cast<std::int32_t>(500 + 2 * i)) << i;
  }
  EXPECT_EQ(child.finish(), 0);
}

TEST(RemoteMemory, KernelWriteStridedBothSides) {
  std::array<std::int32_t, 18> buffer{};
  std::array<std::int32_t, 18> data{};
  std::array<std::int32_t, 18> expect{};
  for (std::size_t i = 0; i < data.size(); ++i) {
    data[i] = static_cast<std::int32_t>(7000 + i);
    expect[i] = static_cast<std::int32_t>(i);  // the child's own fill
  }
  for (std::size_t i = 0; i < data.size(); i += 2) {
    expect[i] = data[i];
  }
  Child child(buffer.data(), buffer.size(), 0, expect.data());
  const datatype::TypeMap map = strided_map();
  const CopyResult r =
      write(kernel_only(child.pid()), LocalSegment{},
            datatype::Layout{reinterpret_cast<std::byte*>(buffer.data()),
                             3 * map.packed, &map},
            datatype::Layout{reinterpret_cast<std::byte*>(data.data()),
                             3 * map.packed, &map});
  EXPECT_TRUE(r.ok()) << r.error_number;
  EXPECT_EQ(child.finish(), 0);
}

TEST(RemoteMemory, KernelWriteManyBlocksSpansBatches) {
  // 3000 separate 4-byte blocks: more than one IOV_MAX batch.
  constexpr std::size_t kBlocks = 3000;
  std::vector<std::int32_t> buffer(2 * kBlocks);
  std::vector<std::int32_t> data(kBlocks);
  std::vector<std::int32_t> expect(2 * kBlocks);
  for (std::size_t i = 0; i < kBlocks; ++i) {
    data[i] = static_cast<std::int32_t>(i * 3 + 1);
    expect[2 * i] = data[i];
    expect[2 * i + 1] = static_cast<std::int32_t>(2 * i + 1);
  }
  Child child(buffer.data(), buffer.size(), 0, expect.data());
  datatype::TypeMap map;
  map.segments = {datatype::Segment{0, 8, 4, kBlocks}};
  map.starts = {0};
  map.packed = 4 * kBlocks;
  map.extent = 8 * kBlocks;
  const CopyResult r =
      write(kernel_only(child.pid()), LocalSegment{},
            datatype::Layout{reinterpret_cast<std::byte*>(buffer.data()),
                             map.packed, &map},
            contiguous(data.data(), map.packed));
  EXPECT_TRUE(r.ok()) << r.error_number;
  EXPECT_EQ(child.finish(), 0);
}

TEST(RemoteMemory, UnmappedRemoteAddressIsFault) {
  std::int32_t value = 0;
  Child child(&value, 1, 0, nullptr);
  std::int32_t data = 1;
  // Page zero is never mapped.
  const CopyResult r =
      write(kernel_only(child.pid()), LocalSegment{},
            contiguous(reinterpret_cast<void*>(std::uintptr_t{64}), 4),
            contiguous(&data, 4));
  EXPECT_EQ(r.kind, CopyResult::Kind::kFault);
  EXPECT_EQ(child.finish(), 0);
}

TEST(RemoteMemory, ProbeSeesTheChild) {
  std::int32_t value = 0;
  Child child(&value, 1, 0, nullptr);
  EXPECT_TRUE(probe(child.pid(), reinterpret_cast<std::uint64_t>(&value)).ok());
  EXPECT_EQ(child.finish(), 0);
}

// One shared memory object mapped twice: `theirs` stands for the remote
// process's mapping of the segment, `mine` for this process's.
class SegmentPath : public ::testing::Test {
 protected:
  void SetUp() override {
    fd_ = ::memfd_create("rma_test", 0);
    ASSERT_GE(fd_, 0);
    ASSERT_EQ(::ftruncate(fd_, kBytes), 0);
    theirs_ = static_cast<std::byte*>(
        ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0));
    mine_ = static_cast<std::byte*>(
        ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0));
    ASSERT_NE(theirs_, MAP_FAILED);
    ASSERT_NE(mine_, MAP_FAILED);
  }
  void TearDown() override {
    ::munmap(theirs_, kBytes);
    ::munmap(mine_, kBytes);
    ::close(fd_);
  }
  // A pid no process has: the kernel path would fail.
  RemoteProcess process() const {
    return RemoteProcess{0x7ffffff0, reinterpret_cast<std::uint64_t>(theirs_),
                         kBytes, false};
  }

  static constexpr std::size_t kBytes = 1 << 16;
  int fd_ = -1;
  std::byte* theirs_ = nullptr;
  std::byte* mine_ = nullptr;
};

TEST_F(SegmentPath, WriteTranslatesWithoutTheKernel) {
  const datatype::TypeMap map = strided_map();
  std::array<std::int32_t, 9> data{};
  for (std::size_t i = 0; i < data.size(); ++i) {
    data[i] = static_cast<std::int32_t>(40 + i);
  }
  std::byte* remote = theirs_ + 4096;
  const CopyResult r = write(process(), LocalSegment{mine_},
                             datatype::Layout{remote, 3 * map.packed, &map},
                             contiguous(data.data(), sizeof data));
  ASSERT_TRUE(r.ok()) << r.error_number;
  const auto* seen = reinterpret_cast<const std::int32_t*>(remote);
  for (std::size_t i = 0; i < data.size(); ++i) {
    EXPECT_EQ(seen[2 * i], data[i]) << i;
  }
}

TEST_F(SegmentPath, ReadTranslatesWithoutTheKernel) {
  auto* remote = reinterpret_cast<std::int32_t*>(theirs_ + 128);
  for (int i = 0; i < 16; ++i) {
    remote[i] = 3 * i;
  }
  std::array<std::int32_t, 16> got{};
  const CopyResult r =
      read(process(), LocalSegment{mine_}, contiguous(remote, sizeof got),
           contiguous(got.data(), sizeof got));
  ASSERT_TRUE(r.ok()) << r.error_number;
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(got[static_cast<std::size_t>(i)], 3 * i);
  }
}

TEST_F(SegmentPath, SpanPastTheSegmentTakesTheKernel) {
  // The last 4 bytes of the segment plus 4 beyond: not all inside, so the
  // kernel is asked, and the pid does not exist.
  std::array<std::int32_t, 2> data{1, 2};
  const CopyResult r = write(process(), LocalSegment{mine_},
                             contiguous(theirs_ + kBytes - 4, sizeof data),
                             contiguous(data.data(), sizeof data));
  EXPECT_FALSE(r.ok());
}

TEST(RemoteMemory, SpanOfStridedLayout) {
  const datatype::TypeMap map = strided_map();
  auto* base = reinterpret_cast<std::byte*>(std::uintptr_t{1000});
  const Span span = span_of(datatype::Layout{base, 2 * map.packed, &map});
  EXPECT_EQ(span.lo, 1000u);
  EXPECT_EQ(span.hi, 1000u + 24 + 16 + 4);  // element 1's last block ends
  EXPECT_EQ(span_of(datatype::Layout{base, 0, &map}).hi, 1000u);
  EXPECT_EQ(span_of(contiguous(base, 10)).hi, 1010u);
}

TEST(RemoteMemory, SpanOfNegativeStride) {
  datatype::TypeMap map;
  map.segments = {datatype::Segment{16, -8, 4, 3}};  // blocks at 16, 8, 0
  map.starts = {0};
  map.packed = 12;
  map.extent = 20;
  auto* base = reinterpret_cast<std::byte*>(std::uintptr_t{100});
  const Span span = span_of(datatype::Layout{base, 12, &map});
  EXPECT_EQ(span.lo, 100u);
  EXPECT_EQ(span.hi, 120u);
}

}  // namespace
}  // namespace shmpi::rma
