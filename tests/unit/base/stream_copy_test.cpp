// SPDX-License-Identifier: MIT
// copy_around_cache gives memcpy's bytes whatever the sizes and the
// alignment of either side, and writes nothing outside the destination.
#include "base/stream_copy.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace shmpi::base {
namespace {

TEST(CopyAroundCache, MatchesMemcpyAtEverySizeAndAlignment) {
  constexpr std::size_t kGuard = 64;
  std::vector<unsigned char> source(4096 + 64);
  for (std::size_t i = 0; i < source.size(); ++i) {
    source[i] = static_cast<unsigned char>(i * 7 + 3);
  }
  const std::size_t sizes[] = {0,  1,  15,  16,  17,   63,
                               64, 65, 127, 128, 1000, 4096};
  for (const std::size_t bytes : sizes) {
    for (std::size_t from_offset = 0; from_offset < 20; from_offset += 3) {
      for (std::size_t to_offset = 0; to_offset < 20; to_offset += 5) {
        std::vector<unsigned char> target(bytes + 2 * kGuard + 32, 0xee);
        copy_around_cache(target.data() + kGuard + to_offset,
                          source.data() + from_offset, bytes);
        for (std::size_t i = 0; i < target.size(); ++i) {
          const bool inside =
              i >= kGuard + to_offset && i < kGuard + to_offset + bytes;
          const unsigned char expected =
              inside ? source[from_offset + i - kGuard - to_offset] : 0xee;
          ASSERT_EQ(target[i], expected)
              << "bytes " << bytes << " from +" << from_offset << " to +"
              << to_offset << " at " << i;
        }
      }
    }
  }
}

TEST(CopyAroundCache, LargeCopy) {
  std::vector<std::uint64_t> source(1 << 18);  // 2 MiB
  for (std::size_t i = 0; i < source.size(); ++i) {
    source[i] = i * 0x9e3779b97f4a7c15ULL;
  }
  std::vector<std::uint64_t> target(source.size(), 0);
  copy_around_cache(target.data(), source.data(),
                    source.size() * sizeof(std::uint64_t));
  EXPECT_EQ(target, source);
}

}  // namespace
}  // namespace shmpi::base
