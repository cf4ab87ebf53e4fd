// SPDX-License-Identifier: MIT
// Which send partitions a receive partition is made of. Both sides cut the
// same packed byte stream into equal partitions of their own size; a receive
// partition has arrived exactly when every send partition overlapping its
// bytes has (docs/design.md#partitioned-communication).
#pragma once

#include <algorithm>
#include <cstdint>

namespace shmpi::partitioned {

// Send partitions [first, first + count).
struct SendSpan {
  std::uint32_t first = 0;
  std::uint32_t count = 0;
};

// The send partitions that overlap bytes [r * recv_partition_bytes,
// (r + 1) * recv_partition_bytes) of the stream, among `send_partitions`
// partitions of `send_partition_bytes`. Bytes past the end of the send data
// (a shorter send) belong to no send partition: such a receive partition
// overlaps nothing and has arrived at once.
constexpr SendSpan overlapping_send_partitions(
    std::uint64_t recv_partition_bytes, std::uint32_t r,
    std::uint64_t send_partition_bytes, std::uint32_t send_partitions) {
  const std::uint64_t send_total = send_partition_bytes * send_partitions;
  const std::uint64_t begin = recv_partition_bytes * r;
  const std::uint64_t end = std::min(begin + recv_partition_bytes, send_total);
  if (send_partition_bytes == 0 || begin >= end) {
    return {};
  }
  const auto first = static_cast<std::uint32_t>(begin / send_partition_bytes);
  const auto last =
      static_cast<std::uint32_t>((end - 1) / send_partition_bytes);
  return {first, last - first + 1};
}

// Packed bytes [begin, end) of send partition s that land in a receive
// buffer of `receive_bytes` (all of them unless the send is longer).
struct ByteRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};
constexpr ByteRange send_partition_bytes_kept(
    std::uint64_t send_partition_bytes, std::uint32_t s,
    std::uint64_t receive_bytes) {
  const std::uint64_t begin = send_partition_bytes * s;
  const std::uint64_t end = begin + send_partition_bytes;
  return {std::min(begin, receive_bytes), std::min(end, receive_bytes)};
}

}  // namespace shmpi::partitioned
