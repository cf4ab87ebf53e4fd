// SPDX-License-Identifier: MIT
// The epoch protocol of a channel record, with both sides in one process:
// ready flags hold iteration numbers, staging alternates by parity, the
// sender may run one iteration ahead without disturbing the receiver.
#include "partitioned/channel.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <thread>
#include <vector>

namespace shmpi::partitioned {
namespace {

struct Record {
  explicit Record(std::uint32_t partitions, std::uint64_t partition_bytes)
      : memory(new (std::align_val_t{128}) std::byte[channel_bytes(
            partitions, partitions * partition_bytes)]),
        channel(Channel::create(memory.get(), partitions, partition_bytes, 0, 1,
                                0)) {}
  struct Free {
    void operator()(std::byte* p) const {
      ::operator delete[](p, std::align_val_t{128});
    }
  };
  std::unique_ptr<std::byte[], Free> memory;
  Channel channel;
};

void stage(const Channel& channel, std::uint32_t s, std::uint64_t iteration,
           std::byte value) {
  const std::uint64_t bytes = channel.header().partition_bytes;
  std::memset(channel.partition_data(s, iteration), static_cast<int>(value),
              bytes);
  channel.mark_ready(s, iteration);
}

TEST(Channel, CreateFillsTheHeader) {
  Record r(18, 5);
  const ChannelHeader& h = r.channel.header();
  EXPECT_EQ(h.magic, ChannelHeader::kMagic);
  EXPECT_EQ(h.send_partitions, 18u);
  EXPECT_EQ(h.total_bytes, 90u);
  EXPECT_EQ(h.staging_offset % kFalseSharingRange, 0u);
  EXPECT_EQ(h.references.load(), 2u);
  EXPECT_EQ(h.msg_part.load(), -1);
  for (std::uint32_t s = 0; s < 18; ++s) {
    EXPECT_FALSE(r.channel.has_arrived(s, 1));
  }
}

TEST(Channel, StagingAlternatesByParity) {
  Record r(2, 64);
  EXPECT_EQ(r.channel.staging(1), r.channel.staging(3));
  EXPECT_EQ(r.channel.staging(2), r.channel.staging(4));
  EXPECT_NE(r.channel.staging(1), r.channel.staging(2));
  EXPECT_GE(
      static_cast<std::size_t>(r.channel.staging(1) - r.channel.staging(2)),
      128u);
}

TEST(Channel, ReadyBeforeCtsIsVisibleButSenderWaitsForCts) {
  Record r(4, 8);
  stage(r.channel, 2, 1, std::byte{7});  // pready before any CTS
  EXPECT_TRUE(r.channel.has_arrived(2, 1));
  EXPECT_FALSE(r.channel.has_arrived(1, 1));
  EXPECT_FALSE(r.channel.cleared(1));  // sender completion needs CTS(1)
  r.channel.publish_cts(1);
  EXPECT_TRUE(r.channel.cleared(1));
  EXPECT_FALSE(r.channel.cleared(2));
}

TEST(Channel, SenderOneAheadKeepsTheReceiversIteration) {
  Record r(2, 16);
  // Iteration 1: both partitions staged, receiver cleared 1.
  stage(r.channel, 0, 1, std::byte{1});
  stage(r.channel, 1, 1, std::byte{1});
  r.channel.publish_cts(1);
  // The sender completed 1 and readies partition 0 of iteration 2 while
  // the receiver has not read iteration 1 yet.
  stage(r.channel, 0, 2, std::byte{2});
  EXPECT_TRUE(r.channel.has_arrived(0, 1));                    // flag is 2 >= 1
  EXPECT_EQ(r.channel.partition_data(0, 1)[0], std::byte{1});  // untouched
  EXPECT_EQ(r.channel.partition_data(0, 2)[0], std::byte{2});
  EXPECT_TRUE(r.channel.has_arrived(0, 2));
  EXPECT_FALSE(r.channel.has_arrived(1, 2));
  // Sender must not finish iteration 2 before the receiver's Start(2).
  EXPECT_FALSE(r.channel.cleared(2));
}

// Partitions up to kInlinePartitionBytes live beside their flag, larger
// ones in staging; both alternate by parity.
TEST(Channel, SmallPartitionsTravelInTheirFlagLine) {
  Record small(4, kInlinePartitionBytes);
  Record large(4, kInlinePartitionBytes + 1);
  EXPECT_TRUE(small.channel.inline_partitions());
  EXPECT_FALSE(large.channel.inline_partitions());
  for (std::uint32_t s = 0; s < 4; ++s) {
    const auto* flag =
        reinterpret_cast<const std::byte*>(&small.channel.ready(s));
    for (std::uint64_t k : {1, 2}) {
      const std::byte* data = small.channel.partition_data(s, k);
      EXPECT_GE(data, flag + sizeof(std::uint64_t));
      EXPECT_LE(data + kInlinePartitionBytes, flag + kReadyFlagStride);
    }
    EXPECT_EQ(small.channel.partition_data(s, 2) + kInlinePartitionBytes,
              small.channel.partition_data(s, 1));  // even parity first
    EXPECT_EQ(large.channel.partition_data(s, 1),
              large.channel.staging(1) + s * (kInlinePartitionBytes + 1));
  }
}

void many_iterations_across_threads(std::uint64_t kBytes) {
  constexpr std::uint32_t kParts = 8;
  constexpr std::uint64_t kIterations = 2000;
  Record r(kParts, kBytes);
  const Channel channel = r.channel;
  std::thread sender([channel] {
    for (std::uint64_t k = 1; k <= kIterations; ++k) {
      for (std::uint32_t s = kParts; s-- > 0;) {  // reverse order
        stage(channel, s, k, static_cast<std::byte>((k * 31 + s) & 0xff));
      }
      while (!channel.cleared(k)) {
        std::this_thread::yield();
      }
    }
  });
  bool ok = true;
  for (std::uint64_t k = 1; k <= kIterations && ok; ++k) {
    channel.publish_cts(k);  // receiver's MPI_Start of iteration k
    for (std::uint32_t s = 0; s < kParts; ++s) {
      while (!channel.has_arrived(s, k)) {
        std::this_thread::yield();
      }
      const std::byte* data = channel.partition_data(s, k);
      const auto expected = static_cast<std::byte>((k * 31 + s) & 0xff);
      for (std::uint64_t b = 0; b < kBytes; ++b) {
        if (data[b] != expected) {
          ok = false;
        }
      }
    }
  }
  sender.join();
  EXPECT_TRUE(ok);
}

TEST(Channel, ManyIterationsAcrossThreads) {
  many_iterations_across_threads(32);  // staged
  many_iterations_across_threads(8);   // in the flag lines
}

TEST(Channel, NoDirectBufferUntilTheReceiverOffersOne) {
  Record r(4, 64);
  EXPECT_EQ(r.channel.direct_offset(), ChannelHeader::kNoDirect);
  r.channel.offer_direct(4096, 200);
  r.channel.publish_cts(1);  // publishes the offer
  ASSERT_TRUE(r.channel.cleared(1));
  EXPECT_EQ(r.channel.direct_offset(), 4096u);
  EXPECT_EQ(r.channel.direct_bytes(), 200u);
}

TEST(Channel, DirectMarksStartClearAndSitInTheFlagLine) {
  Record r(3, kInlinePartitionBytes + 8);
  for (std::uint32_t s = 0; s < 3; ++s) {
    const auto* flag = reinterpret_cast<const std::byte*>(&r.channel.ready(s));
    for (std::uint64_t k : {1, 2}) {
      EXPECT_FALSE(r.channel.went_direct(s, k));
      const auto* mark =
          reinterpret_cast<const std::byte*>(&r.channel.direct_mark(s, k));
      EXPECT_GE(mark, flag + sizeof(std::uint64_t));
      EXPECT_LE(mark + sizeof(std::uint64_t), flag + kReadyFlagStride);
    }
    EXPECT_NE(&r.channel.direct_mark(s, 1), &r.channel.direct_mark(s, 2));
    EXPECT_EQ(&r.channel.direct_mark(s, 1), &r.channel.direct_mark(s, 3));
  }
}

// The sender one iteration ahead: k went direct, k + 1 is staged and its
// flag already says k + 1 while the receiver still asks about k. A single
// "went direct" bit would have been cleared by k + 1 and sent the receiver
// to stale staging.
TEST(Channel, DirectMarkSurvivesTheNextIterationStaged) {
  Record r(2, 64);
  r.channel.publish_cts(1);
  r.channel.mark_direct(0, 1);  // iteration 1 of partition 0: direct
  r.channel.mark_ready(0, 1);
  stage(r.channel, 1, 1, std::byte{1});  // partition 1: staged
  stage(r.channel, 0, 2, std::byte{2});  // iteration 2, before CTS(2)
  EXPECT_TRUE(r.channel.has_arrived(0, 1));
  EXPECT_TRUE(r.channel.went_direct(0, 1));
  EXPECT_FALSE(r.channel.went_direct(0, 2));
  EXPECT_FALSE(r.channel.went_direct(1, 1));
  // Iteration 3 (same parity as 1) staged: the old mark no longer counts.
  r.channel.publish_cts(2);
  stage(r.channel, 0, 3, std::byte{3});
  EXPECT_FALSE(r.channel.went_direct(0, 3));
  // Iteration 4 direct again, iteration 2's answer unchanged meanwhile.
  r.channel.publish_cts(3);
  r.channel.mark_direct(0, 4);
  EXPECT_TRUE(r.channel.went_direct(0, 4));
  EXPECT_FALSE(r.channel.went_direct(0, 2));
}

// A sender alternating between direct and staged iterations across
// threads; the receiver finds each iteration's bytes where the marks say.
TEST(Channel, DirectAndStagedIterationsAcrossThreads) {
  constexpr std::uint32_t kParts = 4;
  constexpr std::uint64_t kBytes = 48;
  constexpr std::uint64_t kIterations = 2000;
  Record r(kParts, kBytes);
  std::vector<std::byte> buffer(kParts * kBytes);
  const Channel channel = r.channel;
  std::byte* direct = buffer.data();
  std::thread sender([channel, direct] {
    for (std::uint64_t k = 1; k <= kIterations; ++k) {
      for (std::uint32_t s = 0; s < kParts; ++s) {
        const auto value = static_cast<std::byte>((k * 7 + s) & 0xff);
        if (channel.cleared(k) && (k + s) % 3 != 0) {
          std::memset(direct + s * kBytes, static_cast<int>(value), kBytes);
          channel.mark_direct(s, k);
          channel.mark_ready(s, k);
        } else {
          stage(channel, s, k, value);
        }
      }
      while (!channel.cleared(k)) {
        std::this_thread::yield();
      }
    }
  });
  bool ok = true;
  for (std::uint64_t k = 1; k <= kIterations && ok; ++k) {
    channel.publish_cts(k);
    for (std::uint32_t s = 0; s < kParts; ++s) {
      while (!channel.has_arrived(s, k)) {
        std::this_thread::yield();
      }
      const std::byte* data = channel.went_direct(s, k)
                                  ? direct + s * kBytes
                                  : channel.partition_data(s, k);
      const auto expected = static_cast<std::byte>((k * 7 + s) & 0xff);
      for (std::uint64_t b = 0; b < kBytes; ++b) {
        ok = ok && data[b] == expected;
      }
    }
  }
  sender.join();
  EXPECT_TRUE(ok);
}

TEST(Channel, LastReferenceFrees) {
  Record r(1, 8);
  EXPECT_FALSE(r.channel.drop_reference());
  EXPECT_TRUE(r.channel.drop_reference());
}

}  // namespace
}  // namespace shmpi::partitioned
