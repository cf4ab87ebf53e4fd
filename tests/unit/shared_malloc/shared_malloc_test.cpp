// SPDX-License-Identifier: MIT
// shared_malloc's policy: which requests the shared heap serves (the malloc
// replacement itself lives only in libshmpi; tests/mpi/p2p/shared_malloc.c
// checks it through real ranks).
#include "shared_malloc/shared_malloc.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "segment/segment.hpp"
#include "segment/shared_heap.hpp"
#include "support/small_segment.hpp"

namespace shmpi::shared_malloc {
namespace {

constexpr std::uint64_t kHeapBytes = 8 << 20;

// One segment for the whole binary: enable() is process-wide and final.
segment::Segment& shared_segment() {
  static segment::Segment segment = [] {
    segment::Segment s = test::segment_with_heap(kHeapBytes);
    const segment::SegmentLayout& layout = s.layout();
    enable(&s.heap(), s.base() + layout.heap_offset, layout.heap_bytes,
           layout.heap_bytes / 4);
    return s;
  }();
  return segment;
}

TEST(SharedMalloc, ServesLargeBlocksOnly) {
  segment::Segment& segment = shared_segment();
  EXPECT_EQ(allocate(kMinBytes - 1, 64), nullptr);
  EXPECT_EQ(allocate(100, 64), nullptr);
  void* block = allocate(kMinBytes, 64);
  ASSERT_NE(block, nullptr);
  EXPECT_TRUE(owns(block));
  EXPECT_TRUE(segment.in_heap(block, kMinBytes));
  EXPECT_GE(usable_size(block), kMinBytes);
  std::memset(block, 0x5a, kMinBytes);
  release(block);
  int outside = 0;
  EXPECT_FALSE(owns(&outside));
  EXPECT_FALSE(owns(nullptr));
}

TEST(SharedMalloc, HonoursAlignment) {
  shared_segment();
  for (std::size_t alignment : {64u, 4096u, 65536u}) {
    void* block = allocate(100000, alignment);
    ASSERT_NE(block, nullptr) << alignment;
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(block) % alignment, 0u);
    release(block);
  }
}

TEST(SharedMalloc, KeepsTheReserveFree) {
  segment::Segment& segment = shared_segment();
  std::vector<void*> blocks;
  while (void* block = allocate(256 * 1024, 64)) {
    blocks.push_back(block);
    ASSERT_LT(blocks.size(), 64u) << "the reserve was never reached";
  }
  EXPECT_FALSE(blocks.empty());
  // A quarter of the heap stays for MPI_Alloc_mem and staging.
  EXPECT_GE(segment.heap().free_bytes(), kHeapBytes / 4);
  void* direct = segment.heap().allocate(256 * 1024);
  EXPECT_NE(direct, nullptr);
  segment.heap().deallocate(direct);
  for (void* block : blocks) {
    release(block);
  }
  EXPECT_NE(allocate(256 * 1024, 64), nullptr);
}

TEST(SharedMalloc, ForkedChildNeitherAllocatesNorFrees) {
  segment::Segment& segment = shared_segment();
  void* parents = allocate(200000, 64);
  ASSERT_NE(parents, nullptr);
  const std::size_t free_before = segment.heap().free_bytes();
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    release(parents);  // must leave the parent's block alone
    const bool ok = allocate(200000, 64) == nullptr && !allocating();
    ::_exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(segment.heap().free_bytes(), free_before);
  EXPECT_TRUE(allocating());
  release(parents);
}

// Runs last in this binary (ctest runs each test in its own process anyway).
TEST(SharedMalloc, StopsAllocatingButStillFrees) {
  shared_segment();
  void* block = allocate(100000, 64);
  ASSERT_NE(block, nullptr);
  stop_allocating();
  EXPECT_FALSE(allocating());
  EXPECT_EQ(allocate(100000, 64), nullptr);
  EXPECT_TRUE(owns(block));
  std::memset(block, 1, 100000);  // still mapped, still ours
  release(block);
}

}  // namespace
}  // namespace shmpi::shared_malloc
