// SPDX-License-Identifier: MIT
// The agreement arithmetic and the thread arbitration of the mask, without
// processes: several "members" are several Arbiters, rounds are loops.
#include "contextid/arbiter.hpp"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <set>
#include <thread>
#include <vector>

namespace shmpi::contextid {
namespace {

using Words = std::array<std::uint32_t, kMaskWords>;

TEST(Agree, TakesLowestWordHighestBitOfTheAnd) {
  Words a{}, b{};
  a.fill(0xffffffffu);
  b.fill(0xffffffffu);
  a[0] = 0xf0u;
  b[0] = 0x30u;
  const std::uint32_t* masks[] = {a.data(), b.data()};
  EXPECT_EQ(agree(masks, 1), std::vector<ContextId>{from_mask_index(5)});
  // A batch continues into the next words once a word is used up.
  std::vector<ContextId> batch = agree(masks, 4);
  ASSERT_EQ(batch.size(), 4u);
  EXPECT_EQ(batch[0], from_mask_index(5));
  EXPECT_EQ(batch[1], from_mask_index(4));
  EXPECT_EQ(batch[2], from_mask_index(63));
  EXPECT_EQ(batch[3], from_mask_index(62));
}

TEST(Agree, EmptyAndGivesNothing) {
  Words a{}, b{};
  a[3] = 1;
  b[4] = 1;
  const std::uint32_t* masks[] = {a.data(), b.data()};
  EXPECT_TRUE(agree(masks, 1).empty());
}

TEST(Arbiter, SingleThreadedAlwaysOffers) {
  Arbiter arbiter;
  Words out{};
  EXPECT_TRUE(arbiter.offer(1, out, false, Arbiter::Reach::kAll));
  EXPECT_EQ(out[0], 0xfffffff8u);
  const std::uint32_t* masks[] = {out.data()};
  std::vector<ContextId> ids = agree(masks, 1);
  arbiter.commit(1, ids);
  EXPECT_EQ(arbiter.free_count(), 2044u);
  arbiter.release(ids[0]);
  EXPECT_EQ(arbiter.free_count(), 2045u);
}

TEST(Arbiter, LowestPendingKeyOwnsTheMask) {
  Arbiter arbiter;
  arbiter.set_thread_safe(true);
  Words out{};
  // Key 7 asks first and gets the mask.
  EXPECT_TRUE(arbiter.offer(7, out, false, Arbiter::Reach::kAll));
  // Key 3 is lower but 7 holds the mask during its round.
  EXPECT_FALSE(arbiter.offer(3, out, false, Arbiter::Reach::kAll));
  EXPECT_EQ(out[0], 0u) << "a non-owner offers zeros";
  arbiter.retry(7);
  // Between rounds the lowest pending key (3) wins, 7 must wait.
  EXPECT_FALSE(arbiter.offer(7, out, false, Arbiter::Reach::kAll));
  EXPECT_TRUE(arbiter.offer(3, out, false, Arbiter::Reach::kAll));
  arbiter.commit(3, std::vector<ContextId>{from_mask_index(31)});
  EXPECT_TRUE(arbiter.offer(7, out, false, Arbiter::Reach::kAll));
  EXPECT_EQ(out[0] >> 31, 0u) << "the committed ID is gone";
  arbiter.abandon(7);
}

// An MPI_Comm_idup's round and a blocking creation's round in flight at
// once on one process, in either order: they never get the same IDs, and
// neither holds the other's part of the mask (each may have to finish
// while the other waits for its members).
constexpr unsigned kSplit = kMaskWords - Arbiter::kNonblockingWords;

// Offers for `key` into `out` and expects a real offer that lent nothing
// out, with `first` and `split` in the first word of each part.
void expect_part(Arbiter& arbiter, Arbiter::Key key, Words& out,
                 bool nonblocking, Arbiter::Reach reach, std::uint32_t first,
                 std::uint32_t split) {
  SCOPED_TRACE(testing::Message() << "the offer of key " << key);
  const Arbiter::Offered offered = arbiter.offer(key, out, nonblocking, reach);
  EXPECT_TRUE(offered.real);
  EXPECT_FALSE(offered.lent_out);
  EXPECT_EQ(out[0], first);
  EXPECT_EQ(out[kSplit], split);
}

TEST(Arbiter, OverlappingRoundsKeepToTheirParts) {
  Arbiter arbiter;
  Words idup{}, blocking{};
  expect_part(arbiter, 1, idup, true, Arbiter::Reach::kNonblocking, 0u,
              0xffffffffu);
  expect_part(arbiter, 2, blocking, false, Arbiter::Reach::kBlocking,
              0xfffffff8u, 0u);
  // Either may finish first.
  const std::uint32_t* b_masks[] = {blocking.data()};
  const std::uint32_t* i_masks[] = {idup.data()};
  arbiter.commit(2, agree(b_masks, 1));
  arbiter.commit(1, agree(i_masks, 1));  // asserts the ID was still free
  EXPECT_EQ(arbiter.free_count(), 2043u);
}

TEST(Arbiter, LentBitsAreLeftOutOfTheWholeMask) {
  Arbiter arbiter;
  Words first{}, second{};
  EXPECT_TRUE(arbiter.offer(1, first, true, Arbiter::Reach::kAll).real);
  const Arbiter::Offered offered =
      arbiter.offer(2, second, false, Arbiter::Reach::kAll);
  EXPECT_TRUE(offered.real);
  EXPECT_TRUE(offered.lent_out) << "an empty agreement is no proof";
  EXPECT_EQ(second, Words{}) << "everything free is lent to round 1";
  arbiter.retry(2);
  const std::uint32_t* masks[] = {first.data()};
  const std::vector<ContextId> ids = agree(masks, 4);
  arbiter.commit(1, ids);
  // Round 1's loan is back, less the IDs it took.
  const Arbiter::Offered again =
      arbiter.offer(2, second, false, Arbiter::Reach::kAll);
  EXPECT_FALSE(again.lent_out);
  EXPECT_EQ(second[0], 0xfffffff8u & ~0xf0000000u);
  arbiter.abandon(2);
}

TEST(Arbiter, NonblockingRoundsTakeTurnsLowestKeyFirst) {
  Arbiter arbiter;
  Words out{};
  EXPECT_TRUE(arbiter.offer(7, out, true, Arbiter::Reach::kNonblocking).real);
  arbiter.retry(7);
  EXPECT_FALSE(arbiter.offer(8, out, true, Arbiter::Reach::kNonblocking).real)
      << "7 is still pending and lower";
  EXPECT_EQ(out, Words{});
  arbiter.retry(8);
  EXPECT_TRUE(arbiter.offer(7, out, true, Arbiter::Reach::kNonblocking).real);
  arbiter.abandon(7);
  arbiter.abandon(8);
}

TEST(Arbiter, AnExhaustedMaskIsRealAndEmpty) {
  Arbiter arbiter;
  Words out{};
  for (unsigned i = 0; i < 2045; ++i) {
    ASSERT_TRUE(arbiter.offer(1, out, false, Arbiter::Reach::kAll).real);
    const std::uint32_t* masks[] = {out.data()};
    arbiter.commit(1, agree(masks, 1));
  }
  const Arbiter::Offered offered =
      arbiter.offer(1, out, false, Arbiter::Reach::kAll);
  EXPECT_TRUE(offered.real);
  EXPECT_FALSE(offered.lent_out) << "an empty agreement means none left";
  EXPECT_EQ(out, Words{});
  arbiter.abandon(1);
}

// Threads of two simulated processes allocate through rounds at once; no
// ID may be handed out twice and every allocation finishes.
TEST(Arbiter, ConcurrentAllocationsNeverShareAnId) {
  constexpr int kThreads = 4;
  constexpr int kPerThread = 200;
  Arbiter p, q;  // two processes, each thread is a member in both
  p.set_thread_safe(true);
  q.set_thread_safe(true);
  std::mutex ids_mutex;
  std::multiset<ContextId> taken;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const Arbiter::Key key = static_cast<Arbiter::Key>(t + 1) << 32;
      for (int i = 0; i < kPerThread; ++i) {
        for (;;) {
          Words a{}, b{};
          const bool real_p = p.offer(key, a, false, Arbiter::Reach::kAll).real;
          const bool real_q = q.offer(key, b, false, Arbiter::Reach::kAll).real;
          if (!real_p || !real_q) {
            p.retry(key);
            q.retry(key);
            std::this_thread::yield();
            continue;
          }
          const std::uint32_t* masks[] = {a.data(), b.data()};
          std::vector<ContextId> ids = agree(masks, 1);
          ASSERT_EQ(ids.size(), 1u);
          p.commit(key, ids);
          q.commit(key, ids);
          std::lock_guard<std::mutex> guard(ids_mutex);
          taken.insert(ids[0]);
          break;
        }
      }
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(taken.size(), static_cast<std::size_t>(kThreads * kPerThread));
  EXPECT_EQ(std::set<ContextId>(taken.begin(), taken.end()).size(),
            taken.size());
  EXPECT_EQ(p.free_count(), 2045u - kThreads * kPerThread);
}

}  // namespace
}  // namespace shmpi::contextid
