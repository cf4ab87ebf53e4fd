// SPDX-License-Identifier: MIT
// HandleArena: handles validated by range, alignment and magic word, and
// find() without a lock while other threads create objects (under
// MPI_THREAD_MULTIPLE one thread may look up MPI_INT while another makes
// the process's first derived datatype, which maps the arena's range).
#include "mpi/handle_arena.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace shmpi::mpi {
namespace {

struct Thing {
  static constexpr std::uint32_t kMagic = 0x54686e31;  // "Thn1"
  std::uint32_t magic = kMagic;
  int value = 0;
  explicit Thing(int v) : value(v) {}
  ~Thing() { magic = 0; }
};

TEST(HandleArena, FindsLiveObjectsOnly) {
  HandleArena<Thing> arena(16);
  int local = 0;
  EXPECT_EQ(arena.find(&local), nullptr);  // before the range exists
  Thing* a = arena.create(1);
  Thing* b = arena.create(2);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(arena.find(a), a);
  EXPECT_EQ(arena.find(b), b);
  EXPECT_EQ(arena.find(&local), nullptr);
  EXPECT_EQ(arena.find(reinterpret_cast<const char*>(a) + 1), nullptr);
  EXPECT_EQ(arena.find(b + 1), nullptr);  // past the slots handed out
  arena.destroy(a);
  EXPECT_EQ(arena.find(a), nullptr);
  EXPECT_EQ(arena.create(3), a);  // the freed slot comes back
  EXPECT_EQ(arena.find(a)->value, 3);
}

// index_of() and at() are inverse for live objects; at() refuses slots
// never handed out and freed ones (the Fortran handles rely on both).
TEST(HandleArena, SlotIndexesRoundTrip) {
  HandleArena<Thing> arena(16);
  EXPECT_EQ(arena.at(0), nullptr);  // before the range exists
  Thing* a = arena.create(1);
  Thing* b = arena.create(2);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(arena.index_of(a), arena.index_of(b));
  EXPECT_EQ(arena.at(arena.index_of(a)), a);
  EXPECT_EQ(arena.at(arena.index_of(b)), b);
  EXPECT_EQ(arena.at(2), nullptr);   // not handed out yet
  EXPECT_EQ(arena.at(99), nullptr);  // past the capacity
  const std::size_t index = arena.index_of(a);
  arena.destroy(a);
  EXPECT_EQ(arena.at(index), nullptr);
  Thing* c = arena.create(3);  // takes the freed slot
  EXPECT_EQ(arena.index_of(c), index);
  EXPECT_EQ(arena.at(index)->value, 3);
}

TEST(HandleArena, FullArenaGivesNull) {
  HandleArena<Thing> arena(2);
  EXPECT_NE(arena.create(1), nullptr);
  EXPECT_NE(arena.create(2), nullptr);
  EXPECT_EQ(arena.create(3), nullptr);
}

// One thread creates objects (the first maps the range) while others look
// up addresses without a lock: ThreadSanitizer reported the range pointer
// as a data race before it became atomic.
TEST(HandleArena, FindRacesWithCreate) {
  for (int round = 0; round < 50; ++round) {
    HandleArena<Thing> arena(1024);
    std::atomic<Thing*> published{nullptr};
    std::atomic<bool> done{false};
    std::vector<std::thread> finders;
    for (int t = 0; t < 2; ++t) {
      finders.emplace_back([&] {
        int local = 0;
        std::uint64_t seen = 0;
        while (!done.load(std::memory_order_acquire)) {
          EXPECT_EQ(arena.find(&local), nullptr);
          // Acquire: pairs with the creator's release, as a program that
          // hands a handle to another thread synchronises.
          if (Thing* thing = published.load(std::memory_order_acquire)) {
            EXPECT_EQ(arena.find(thing), thing);
            ++seen;
          }
        }
        (void)seen;
      });
    }
    for (int i = 0; i < 64; ++i) {
      Thing* thing = arena.create(i);
      ASSERT_NE(thing, nullptr);
      // Release: the object is constructed before another thread uses it.
      published.store(thing, std::memory_order_release);
    }
    done.store(true, std::memory_order_release);
    for (std::thread& finder : finders) {
      finder.join();
    }
  }
}

}  // namespace
}  // namespace shmpi::mpi
