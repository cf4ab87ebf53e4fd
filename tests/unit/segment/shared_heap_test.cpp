// SPDX-License-Identifier: MIT
// SharedHeap: allocation in the segment's heap region, shared by every
// process that attached to the segment.
#include "segment/shared_heap.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "segment/segment.hpp"
#include "support/small_segment.hpp"
#include "support/test_env.hpp"

namespace shmpi::segment {
namespace {

using test::segment_with_heap;

bool aligned64(const void* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) % 64 == 0;
}

TEST(SharedHeap, AllocateReturnsAlignedOwnedBlocks) {
  Segment segment = segment_with_heap(1 << 20);
  SharedHeap& heap = segment.heap();
  for (std::size_t bytes :
       {std::size_t{0}, std::size_t{1}, std::size_t{63}, std::size_t{64},
        std::size_t{1000}, std::size_t{65536}}) {
    void* block = heap.allocate(bytes);
    ASSERT_NE(block, nullptr) << bytes;
    EXPECT_TRUE(aligned64(block)) << bytes;
    EXPECT_TRUE(heap.owns(block)) << bytes;
    EXPECT_TRUE(segment.in_heap(block, bytes)) << bytes;
    std::memset(block, 0xab, bytes);
    heap.deallocate(block);
  }
  int outside = 0;
  EXPECT_FALSE(heap.owns(&outside));
  EXPECT_FALSE(heap.owns(segment.base()));
  heap.deallocate(nullptr);  // a no-op
}

TEST(SharedHeap, DeallocateGivesTheMemoryBack) {
  Segment segment = segment_with_heap(1 << 20);
  SharedHeap& heap = segment.heap();
  const std::size_t initially = heap.free_bytes();
  void* block = heap.allocate(100000);
  ASSERT_NE(block, nullptr);
  EXPECT_LE(heap.free_bytes(), initially - 100000);
  heap.deallocate(block);
  EXPECT_EQ(heap.free_bytes(), initially);
}

TEST(SharedHeap, BlocksDoNotOverlap) {
  Segment segment = segment_with_heap(1 << 20);
  SharedHeap& heap = segment.heap();
  std::vector<std::byte*> blocks;
  for (int i = 0; i < 64; ++i) {
    auto* block = static_cast<std::byte*>(heap.allocate(1000));
    ASSERT_NE(block, nullptr);
    std::memset(block, i, 1000);
    blocks.push_back(block);
  }
  for (int i = 0; i < 64; ++i) {
    for (int j = 0; j < 1000; ++j) {
      ASSERT_EQ(blocks[i][j], static_cast<std::byte>(i))
          << "block " << i << " was overwritten";
    }
    heap.deallocate(blocks[i]);
  }
}

TEST(SharedHeap, ExhaustionReturnsNullptr) {
  Segment segment = segment_with_heap(1 << 20);
  SharedHeap& heap = segment.heap();
  EXPECT_EQ(heap.allocate(2 << 20), nullptr) << "larger than the heap";
  std::vector<void*> blocks;
  while (void* block = heap.allocate(64 * 1024)) {
    blocks.push_back(block);
    ASSERT_LT(blocks.size(), 16u)
        << "a 1 MiB heap cannot hold 16 blocks of 64 KiB";
  }
  EXPECT_GE(blocks.size(), 8u);
  EXPECT_EQ(heap.allocate(64 * 1024), nullptr) << "still exhausted";
  for (void* block : blocks) {
    heap.deallocate(block);
  }
  void* again = heap.allocate(64 * 1024);
  EXPECT_NE(again, nullptr) << "usable again after freeing";
  heap.deallocate(again);
}

TEST(SharedHeap, WorksOnAPlainBuffer) {
  std::vector<std::uint64_t> buffer(64 * 1024 / sizeof(std::uint64_t));
  auto heap =
      SharedHeap::create(buffer.data(), buffer.size() * sizeof(std::uint64_t));
  void* block = heap->allocate(1024);
  ASSERT_NE(block, nullptr);
  EXPECT_TRUE(heap->owns(block));
  auto reopened =
      SharedHeap::open(buffer.data(), buffer.size() * sizeof(std::uint64_t));
  EXPECT_EQ(reopened->free_bytes(), heap->free_bytes())
      << "one bookkeeping, two views";
  reopened->deallocate(block);
}

TEST(SharedHeap, AnAttachedProcessSharesTheBookkeeping) {
  Segment segment = segment_with_heap(1 << 20);
  const std::size_t initially = segment.heap().free_bytes();
  // The child allocates through its own attachment and reports the block's
  // segment offset in the scratch area.
  auto* mailbox =
      segment.at<std::atomic<std::uint64_t>>(segment.layout().scratch_offset);
  mailbox->store(0);
  pid_t child = test::fork_child([fd = segment.fd()] {
    auto attached = Segment::attach(::dup(fd));
    if (!attached) {
      return 10;
    }
    Segment& mine = attached.value();
    auto* block = static_cast<std::byte*>(mine.heap().allocate(200000));
    if (block == nullptr) {
      return 11;
    }
    std::memset(block, 0x5a, 200000);
    mine.at<std::atomic<std::uint64_t>>(mine.layout().scratch_offset)
        ->store(mine.offset_of(block), std::memory_order_release);
    return 0;
  });
  ASSERT_EQ(test::wait_child(child), 0);
  const std::uint64_t offset = mailbox->load(std::memory_order_acquire);
  ASSERT_NE(offset, 0u);
  auto* block = segment.at<std::byte>(offset);
  EXPECT_TRUE(segment.heap().owns(block));
  EXPECT_EQ(block[0], std::byte{0x5a});
  EXPECT_EQ(block[199999], std::byte{0x5a});
  EXPECT_LE(segment.heap().free_bytes(), initially - 200000)
      << "the child's block is taken";
  segment.heap().deallocate(
      block);  // freed by another process than the allocator
  EXPECT_EQ(segment.heap().free_bytes(), initially);
}

// Allocates, fills, checks and frees blocks of varied sizes, holding up to
// eight at a time; returns the number of failures seen (a null block, or a
// block whose contents another allocation overwrote).
int churn(SharedHeap& heap, std::uint8_t mark, int rounds) {
  int failures = 0;
  struct Held {
    std::uint8_t* block;
    std::size_t bytes;
  };
  std::vector<Held> held;
  std::uint32_t random = mark * 2654435761u + 1;
  auto check_and_free = [&](const Held& h) {
    for (std::size_t i = 0; i < h.bytes; ++i) {
      if (h.block[i] != mark) {
        ++failures;
        break;
      }
    }
    heap.deallocate(h.block);
  };
  for (int round = 0; round < rounds; ++round) {
    random = random * 1664525u + 1013904223u;
    const std::size_t bytes = 16 + (random >> 8) % 2000;
    auto* block = static_cast<std::uint8_t*>(heap.allocate(bytes));
    if (block == nullptr) {
      ++failures;
      continue;
    }
    std::memset(block, mark, bytes);
    held.push_back({block, bytes});
    if (held.size() == 8) {
      for (const Held& h : held) {
        check_and_free(h);
      }
      held.clear();
    }
  }
  for (const Held& h : held) {
    check_and_free(h);
  }
  return failures;
}

TEST(SharedHeap, ConcurrentThreadsGetDistinctBlocks) {
  Segment segment = segment_with_heap(4 << 20);
  SharedHeap& heap = segment.heap();
  const auto rounds = static_cast<int>(test::scaled(100000));
  std::atomic<int> failures{0};
  auto worker = [&](std::uint8_t mark) {
    failures.fetch_add(churn(heap, mark, rounds));
  };
  std::thread a(worker, std::uint8_t{1});
  std::thread b(worker, std::uint8_t{2});
  a.join();
  b.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(SharedHeap, ConcurrentProcessesGetDistinctBlocks) {
  Segment segment = segment_with_heap(4 << 20);
  const std::size_t initially = segment.heap().free_bytes();
  const auto rounds = static_cast<int>(test::scaled(100000));
  pid_t child = test::fork_child([&] {
    auto attached = Segment::attach(::dup(segment.fd()));
    if (!attached) {
      return 10;
    }
    return churn(attached.value().heap(), 2, rounds) == 0 ? 0 : 11;
  });
  ASSERT_GT(child, 0);
  EXPECT_EQ(churn(segment.heap(), 1, rounds), 0);
  EXPECT_EQ(test::wait_child(child), 0) << "-2: the child crashed in the heap";
  EXPECT_EQ(segment.heap().free_bytes(), initially)
      << "the heap's bookkeeping survived";
}

}  // namespace
}  // namespace shmpi::segment
