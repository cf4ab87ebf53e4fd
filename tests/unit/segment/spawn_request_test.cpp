// SPDX-License-Identifier: MIT
#include "segment/spawn_request.hpp"

#include <gtest/gtest.h>

#include <cstring>

namespace shmpi::segment {
namespace {

std::vector<SpawnCommand> two_commands() {
  SpawnCommand a;
  a.maxprocs = 3;
  a.argv = {"./child", "", "x y"};
  SpawnCommand b;
  b.maxprocs = 4;
  b.allowed = {1, 2, 4};
  b.wdir = "/tmp";
  b.path = "/bin:/usr/bin";
  b.argv = {"true"};
  return {a, b};
}

TEST(SpawnRequest, CommandsRoundTrip) {
  const std::vector<SpawnCommand> commands = two_commands();
  auto decoded = decode_spawn_commands(encode_spawn_commands(commands));
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded.value(), commands);
}

TEST(SpawnRequest, EveryTruncationIsRefused) {
  const std::vector<std::byte> bytes = encode_spawn_commands(two_commands());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(decode_spawn_commands(std::span(bytes.data(), n))) << n;
  }
}

TEST(SpawnRequest, TrailingBytesAreRefused) {
  std::vector<std::byte> bytes = encode_spawn_commands(two_commands());
  bytes.push_back(std::byte{0});
  EXPECT_FALSE(decode_spawn_commands(bytes));
}

TEST(SpawnRequest, HugeCountsAreRefusedWithoutAllocating) {
  std::vector<std::byte> bytes(8, std::byte{0xff});
  EXPECT_FALSE(decode_spawn_commands(bytes));
  SpawnCommand c;
  c.maxprocs = 1;
  c.argv = {"a"};
  bytes = encode_spawn_commands(std::span(&c, 1));
  // The argc word sits 4 bytes before the one string (length 1, "a").
  const std::uint32_t huge = 0x7fffffff;
  std::memcpy(bytes.data() + bytes.size() - 9, &huge, sizeof huge);
  EXPECT_FALSE(decode_spawn_commands(bytes));
}

TEST(SpawnRequest, EmptyCommandIsRefused) {
  SpawnCommand c;
  c.maxprocs = 1;
  c.argv = {""};
  EXPECT_FALSE(decode_spawn_commands(encode_spawn_commands(std::span(&c, 1))));
}

TEST(SpawnRequest, CountWithoutSoftNeedsAllSlots) {
  SpawnCommand c;
  c.maxprocs = 3;
  EXPECT_EQ(spawn_count(c, 3), 3);
  EXPECT_EQ(spawn_count(c, 10), 3);
  EXPECT_EQ(spawn_count(c, 2), -1);
}

TEST(SpawnRequest, SoftCountTakesTheLargestThatFits) {
  SpawnCommand c;
  c.maxprocs = 8;
  c.allowed = {2, 4, 8};
  EXPECT_EQ(spawn_count(c, 9), 8);
  EXPECT_EQ(spawn_count(c, 7), 4);
  EXPECT_EQ(spawn_count(c, 2), 2);
  EXPECT_EQ(spawn_count(c, 1), -1);
}

TEST(SpawnRequest, SoftListsAndTriplets) {
  struct Case {
    const char* text;
    std::vector<std::uint32_t> allowed;
  } cases[] = {
      {"1", {1}},           {"1,4", {1, 4}},       {"1:4", {1, 2, 3, 4}},
      {"2:8:3", {2, 5, 8}}, {"4:1", {1, 2, 3, 4}}, {"8:2:-3", {2, 5, 8}},
      {"0:2", {1, 2}},      {"3,1,3", {1, 3}},
  };
  for (const Case& c : cases) {
    auto parsed = parse_soft(c.text, 8);
    ASSERT_TRUE(parsed) << c.text;
    EXPECT_EQ(parsed.value(), c.allowed) << c.text;
  }
}

TEST(SpawnRequest, MalformedSoftIsRefused) {
  for (const char* text : {"", ",", "a", "1,", "1:", "1:2:0", "1:4:-1", "4:1:1",
                           "1:2:3:4", "9", "-1", "0", "1:9"}) {
    EXPECT_FALSE(parse_soft(text, 8)) << text;
  }
}

}  // namespace
}  // namespace shmpi::segment
