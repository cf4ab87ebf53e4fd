// SPDX-License-Identifier: MIT
// ChunkPool: take_chunk()'s keep_free rule, return_chunks(), and several
// taker threads against one owner.
#include "shm_queues/chunk_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "support/test_env.hpp"

namespace shmpi::shm_queues {
namespace {

// Value-initialised: all chunks taken, nobody waiting.
struct Pool {
  explicit Pool(std::uint64_t free_mask) { shared.free_mask.store(free_mask); }
  ChunkPoolShared shared{};
};

TEST(ChunkPool, AllChunksMask) {
  EXPECT_EQ(all_chunks_mask(1), 0x1u);
  EXPECT_EQ(all_chunks_mask(4), 0xfu);
  EXPECT_EQ(all_chunks_mask(63), ~std::uint64_t{0} >> 1);
  EXPECT_EQ(all_chunks_mask(64), ~std::uint64_t{0});
}

TEST(ChunkPool, TakeChunkTakesTheLowestFree) {
  Pool pool(0b1011'0100);
  EXPECT_EQ(take_chunk(pool.shared, 0), 2u);
  EXPECT_EQ(take_chunk(pool.shared, 0), 4u);
  EXPECT_EQ(take_chunk(pool.shared, 0), 5u);
  EXPECT_EQ(take_chunk(pool.shared, 0), 7u);
  EXPECT_EQ(take_chunk(pool.shared, 0), std::nullopt);
  EXPECT_EQ(pool.shared.free_mask.load(), 0u);
}

TEST(ChunkPool, TakeChunkOnAnEmptyPoolFails) {
  Pool pool(0);
  EXPECT_EQ(take_chunk(pool.shared, 0), std::nullopt);
  EXPECT_EQ(take_chunk(pool.shared, -1), std::nullopt);
}

// A chunk is taken only if more than keep_free chunks are free.
TEST(ChunkPool, TakeChunkRespectsKeepFree) {
  for (std::uint32_t free_count = 0; free_count <= 64; ++free_count) {
    for (int keep_free : {-1, 0, 1, 2, 31, 32, 63, 64}) {
      Pool pool(all_chunks_mask(free_count));
      std::optional<std::uint32_t> chunk = take_chunk(pool.shared, keep_free);
      const bool expected =
          static_cast<int>(free_count) > keep_free && free_count > 0;
      EXPECT_EQ(chunk.has_value(), expected)
          << free_count << " free, keep_free " << keep_free;
      const auto left = std::popcount(pool.shared.free_mask.load());
      EXPECT_EQ(left, static_cast<int>(free_count) - (expected ? 1 : 0));
    }
  }
}

TEST(ChunkPool, TakeChunkStopsAtKeepFree) {
  Pool pool(all_chunks_mask(10));
  int taken = 0;
  while (take_chunk(pool.shared, 3)) {
    ++taken;
  }
  EXPECT_EQ(taken, 7);
  EXPECT_EQ(std::popcount(pool.shared.free_mask.load()), 3);
  EXPECT_TRUE(take_chunk(pool.shared, 0))
      << "a matched transfer may use the reserve";
}

TEST(ChunkPool, ReturnChunksFreesThem) {
  Pool pool(all_chunks_mask(64));
  std::uint64_t taken = 0;
  for (int i = 0; i < 64; ++i) {
    auto chunk = take_chunk(pool.shared, 0);
    ASSERT_TRUE(chunk);
    taken |= std::uint64_t{1} << *chunk;
  }
  EXPECT_EQ(taken, ~std::uint64_t{0});
  return_chunks(pool.shared,
                (std::uint64_t{1} << 40) | (std::uint64_t{1} << 3));
  EXPECT_EQ(take_chunk(pool.shared, 0), 3u);
  EXPECT_EQ(take_chunk(pool.shared, 0), 40u);
  EXPECT_EQ(take_chunk(pool.shared, 0), std::nullopt);
  return_chunks(pool.shared, ~std::uint64_t{0});
  EXPECT_EQ(pool.shared.free_mask.load(), ~std::uint64_t{0});
}

// A sender that passes the chunk after its last one gets the pool round
// robin: the first free chunk at or after `from`, wrapping past the end
// (and past the unused high bits of a pool of fewer than 64 chunks).
TEST(ChunkPool, TakesFromTheCursorRoundRobin) {
  Pool pool(all_chunks_mask(8));
  EXPECT_EQ(take_chunk(pool.shared, 0, 5), 5u);
  EXPECT_EQ(take_chunk(pool.shared, 0, 6), 6u);
  EXPECT_EQ(take_chunk(pool.shared, 0, 6), 7u);  // 6 is taken
  EXPECT_EQ(take_chunk(pool.shared, 0, 8), 0u);  // past the end: wraps
  return_chunks(pool.shared, std::uint64_t{1} << 5);
  EXPECT_EQ(take_chunk(pool.shared, 0, 1), 1u);
  EXPECT_EQ(take_chunk(pool.shared, 0, 63), 2u);  // 63 and 0 are not free
  EXPECT_EQ(take_chunk(pool.shared, 0, 4), 4u);   // 3 and 5 stay free
  EXPECT_EQ(take_chunk(pool.shared, 2, 4), std::nullopt);  // keep_free 2
  EXPECT_EQ(take_chunk(pool.shared, 1, 4), 5u);
  EXPECT_EQ(take_chunk(pool.shared, 0, 6), 3u);  // wraps round to 3
  EXPECT_EQ(take_chunk(pool.shared, 0, 6), std::nullopt);
}

// free_before reports the mask the taking CAS replaced, the taken chunk
// included: what a sender looks at before asking for the next chunk's
// lines (Engine::own_next_chunk). Left alone when nothing is taken.
TEST(ChunkPool, TakeChunkReportsTheFreeMaskItReplaced) {
  Pool pool(0b1011'0100);
  std::uint64_t before = 0;
  EXPECT_EQ(take_chunk(pool.shared, 0, 0, &before), 2u);
  EXPECT_EQ(before, 0b1011'0100u);
  EXPECT_EQ(take_chunk(pool.shared, 0, 5, &before), 5u);
  EXPECT_EQ(before, 0b1011'0000u);
  EXPECT_EQ(pool.shared.free_mask.load(), 0b1001'0000u);
  before = 42;
  EXPECT_EQ(take_chunk(pool.shared, 2, 0, &before), std::nullopt);
  EXPECT_EQ(before, 42u);
}

// Several senders take chunks, fill them and hand them to the owner, who
// checks their contents and returns them in batches. No chunk is ever held
// by two takers, and every chunk comes back.
TEST(ChunkPool, ConcurrentTakersNeverShareAChunk) {
  constexpr std::uint32_t kChunks = 8;  // few chunks: much contention
  constexpr std::size_t kChunkWords = 32;
  constexpr int kTakers = 3;
  const std::uint64_t takes_per_taker = test::scaled(50000);

  Pool pool(all_chunks_mask(kChunks));
  std::vector<std::uint64_t> chunk_data(kChunks * kChunkWords);
  std::atomic<int> holder[kChunks];
  for (auto& h : holder) {
    h.store(-1);
  }
  std::mutex handoff_lock;
  std::vector<std::uint32_t>
      handoff;  // filled chunks on their way to the owner
  std::atomic<int> double_takes{0};
  std::atomic<int> takers_done{0};

  auto taker = [&](int id) {
    for (std::uint64_t n = 0; n < takes_per_taker;) {
      std::optional<std::uint32_t> chunk = take_chunk(pool.shared, 0);
      if (!chunk) {
        std::this_thread::yield();
        continue;
      }
      int expected = -1;
      if (!holder[*chunk].compare_exchange_strong(expected, id)) {
        double_takes.fetch_add(1);
      }
      // Plain writes: ordered after the owner's reads of the previous
      // contents by take_chunk's acquire (TSan checks this).
      const std::uint64_t stamp = (static_cast<std::uint64_t>(id) << 32) | n;
      for (std::size_t w = 0; w < kChunkWords; ++w) {
        chunk_data[*chunk * kChunkWords + w] = stamp + w;
      }
      {
        std::lock_guard<std::mutex> guard(handoff_lock);
        handoff.push_back(*chunk);
      }
      ++n;
    }
    takers_done.fetch_add(1);
  };

  std::vector<std::thread> threads;
  for (int id = 0; id < kTakers; ++id) {
    threads.emplace_back(taker, id);
  }
  // The owner: check and return whatever has arrived, as one batch.
  int corrupt = 0;
  std::uint64_t returned = 0;
  std::vector<std::uint32_t> batch;
  while (true) {
    const bool done = takers_done.load() == kTakers;
    {
      std::lock_guard<std::mutex> guard(handoff_lock);
      batch.swap(handoff);
    }
    if (batch.empty() && done) {
      break;
    }
    std::uint64_t mask = 0;
    for (std::uint32_t chunk : batch) {
      const std::uint64_t stamp = chunk_data[chunk * kChunkWords];
      for (std::size_t w = 0; w < kChunkWords; ++w) {
        corrupt += chunk_data[chunk * kChunkWords + w] == stamp + w ? 0 : 1;
      }
      holder[chunk].store(-1);
      mask |= std::uint64_t{1} << chunk;
    }
    returned += batch.size();
    batch.clear();
    if (mask != 0) {
      return_chunks(pool.shared, mask);
    } else {
      std::this_thread::yield();
    }
  }
  for (auto& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(double_takes.load(), 0);
  EXPECT_EQ(corrupt, 0);
  EXPECT_EQ(returned, takes_per_taker * kTakers);
  EXPECT_EQ(pool.shared.free_mask.load(), all_chunks_mask(kChunks))
      << "every chunk came back";
}

}  // namespace
}  // namespace shmpi::shm_queues
