// SPDX-License-Identifier: MIT
#include "base/prefetch.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using shmpi::base::has_prefetchw;
using shmpi::base::prefetch_for_write;

// The kernel's name for CPUID 0x80000001 ECX bit 8 on the "flags" line of
// /proc/cpuinfo: 1 if listed, 0 if not, -1 when there is no flags line.
int kernel_says_prefetchw() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) != 0) {
      continue;
    }
    std::istringstream words(line.substr(line.find(':') + 1));
    std::string word;
    while (words >> word) {
      if (word == "3dnowprefetch") {
        return 1;
      }
    }
    return 0;
  }
  return -1;
}

TEST(Prefetch, HasPrefetchwAgreesWithTheKernel) {
#if defined(__x86_64__)
  const int kernel = kernel_says_prefetchw();
  if (kernel < 0) {
    GTEST_SKIP() << "no flags line in /proc/cpuinfo";
  }
  EXPECT_EQ(has_prefetchw(), kernel == 1);
#else
  EXPECT_TRUE(has_prefetchw());  // the builtin is always safe to issue
#endif
}

TEST(Prefetch, DecidedOnce) { EXPECT_EQ(has_prefetchw(), has_prefetchw()); }

TEST(Prefetch, PrefetchForWriteLeavesContentsAlone) {
  if (!has_prefetchw()) {
    GTEST_SKIP() << "the CPU lacks PREFETCHW; callers never issue it";
  }
  alignas(64) std::array<std::uint64_t, 64> words{};
  for (std::size_t i = 0; i < words.size(); ++i) {
    words[i] = i * 0x9e3779b97f4a7c15ULL;
  }
  for (std::size_t i = 0; i < words.size(); i += 8) {
    prefetch_for_write(&words[i]);
    prefetch_for_write(reinterpret_cast<const char*>(&words[i]) + 63);
  }
  for (std::size_t i = 0; i < words.size(); ++i) {
    EXPECT_EQ(words[i], i * 0x9e3779b97f4a7c15ULL) << "word " << i;
  }
}

}  // namespace
