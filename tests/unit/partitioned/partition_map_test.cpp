// SPDX-License-Identifier: MIT
#include "partitioned/partition_map.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace shmpi::partitioned {
namespace {

// 90 bytes: 18 send partitions of 5 bytes, 5 receive partitions of 18.
TEST(PartitionMap, EighteenSendIntoFiveReceive) {
  const SendSpan expected[5] = {{0, 4}, {3, 5}, {7, 4}, {10, 5}, {14, 4}};
  for (std::uint32_t r = 0; r < 5; ++r) {
    const SendSpan span = overlapping_send_partitions(18, r, 5, 18);
    EXPECT_EQ(span.first, expected[r].first) << "receive partition " << r;
    EXPECT_EQ(span.count, expected[r].count) << "receive partition " << r;
  }
  // The example: receive partition 2 needs send partitions 7..10.
  const SendSpan two = overlapping_send_partitions(18, 2, 5, 18);
  EXPECT_EQ(two.first, 7u);
  EXPECT_EQ(two.first + two.count - 1, 10u);
}

TEST(PartitionMap, EqualPartitionsMapOneToOne) {
  for (std::uint32_t r = 0; r < 8; ++r) {
    const SendSpan span = overlapping_send_partitions(64, r, 64, 8);
    EXPECT_EQ(span.first, r);
    EXPECT_EQ(span.count, 1u);
  }
}

TEST(PartitionMap, FewerReceivePartitionsCoverWholeSendPartitions) {
  // 8 send partitions of 4 bytes, 2 receive partitions of 16.
  EXPECT_EQ(overlapping_send_partitions(16, 0, 4, 8).first, 0u);
  EXPECT_EQ(overlapping_send_partitions(16, 0, 4, 8).count, 4u);
  EXPECT_EQ(overlapping_send_partitions(16, 1, 4, 8).first, 4u);
  EXPECT_EQ(overlapping_send_partitions(16, 1, 4, 8).count, 4u);
}

TEST(PartitionMap, MoreReceivePartitionsShareOneSendPartition) {
  // 1 send partition of 32 bytes, 4 receive partitions of 8.
  for (std::uint32_t r = 0; r < 4; ++r) {
    const SendSpan span = overlapping_send_partitions(8, r, 32, 1);
    EXPECT_EQ(span.first, 0u);
    EXPECT_EQ(span.count, 1u);
  }
}

TEST(PartitionMap, BoundaryExactlyOnSendPartitionEdge) {
  // Receive partition 1 is bytes [10, 20): send partitions of 5 bytes 2, 3.
  const SendSpan span = overlapping_send_partitions(10, 1, 5, 6);
  EXPECT_EQ(span.first, 2u);
  EXPECT_EQ(span.count, 2u);
}

TEST(PartitionMap, BytesPastAShorterSendOverlapNothing) {
  // Send: 2 x 4 bytes; receive: 4 x 4 bytes. Partitions 2 and 3 get nothing.
  EXPECT_EQ(overlapping_send_partitions(4, 1, 4, 2).count, 1u);
  EXPECT_EQ(overlapping_send_partitions(4, 2, 4, 2).count, 0u);
  EXPECT_EQ(overlapping_send_partitions(4, 3, 4, 2).count, 0u);
}

TEST(PartitionMap, EmptyPartitionsOverlapNothing) {
  EXPECT_EQ(overlapping_send_partitions(0, 0, 4, 2).count, 0u);
  EXPECT_EQ(overlapping_send_partitions(4, 0, 0, 2).count, 0u);
}

TEST(PartitionMap, KeptBytesClipALongerSend) {
  // Send partitions of 8 bytes into a 20-byte buffer.
  EXPECT_EQ(send_partition_bytes_kept(8, 0, 20).begin, 0u);
  EXPECT_EQ(send_partition_bytes_kept(8, 0, 20).end, 8u);
  EXPECT_EQ(send_partition_bytes_kept(8, 2, 20).begin, 16u);
  EXPECT_EQ(send_partition_bytes_kept(8, 2, 20).end, 20u);
  EXPECT_EQ(send_partition_bytes_kept(8, 3, 20).begin, 20u);
  EXPECT_EQ(send_partition_bytes_kept(8, 3, 20).end, 20u);
}

}  // namespace
}  // namespace shmpi::partitioned
