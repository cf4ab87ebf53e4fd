// SPDX-License-Identifier: MIT
// MatchEngine: MPI's matching order with wildcards, the unexpected queue,
// cancel, contexts, and a randomized comparison with a reference model.
#include "matching/match_engine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <list>
#include <random>
#include <thread>
#include <unordered_map>
#include <vector>

namespace shmpi::matching {
namespace {

// Owns the entries (stable addresses) and stamps them in order, as p2p does.
class Engine {
 public:
  PostedEntry* post(std::uint16_t context, std::int32_t source,
                    std::int32_t tag) {
    PostedEntry& entry = posted_.emplace_back();
    entry.order = engine.next_order();
    entry.context_id = context;
    entry.source = source;
    entry.tag = tag;
    engine.post(&entry);
    return &entry;
  }
  UnexpectedEntry* arrive(std::uint16_t context, std::int32_t source,
                          std::int32_t tag) {
    UnexpectedEntry& entry = unexpected_.emplace_back();
    entry.order = engine.next_order();
    entry.context_id = context;
    entry.source = source;
    entry.tag = tag;
    engine.add_unexpected(&entry);
    return &entry;
  }
  PostedEntry* match(std::uint16_t context, std::int32_t source,
                     std::int32_t tag) {
    return engine.match_posted(context, source, tag);
  }
  UnexpectedEntry* take(std::uint16_t context, std::int32_t source,
                        std::int32_t tag) {
    return engine.match_unexpected(context, source, tag, false);
  }
  UnexpectedEntry* peek(std::uint16_t context, std::int32_t source,
                        std::int32_t tag) {
    return engine.match_unexpected(context, source, tag, true);
  }

  MatchEngine engine;

 private:
  std::deque<PostedEntry> posted_;
  std::deque<UnexpectedEntry> unexpected_;
};

TEST(MatchEngine, WildcardValuesAreTheAbiOnes) {
  EXPECT_EQ(kAnySource, -1);
  EXPECT_EQ(kAnyTag, -2);
}

TEST(MatchEngine, NothingMatchesInAnEmptyEngine) {
  Engine e;
  EXPECT_EQ(e.match(0, 0, 0), nullptr);
  EXPECT_EQ(e.take(0, 0, 0), nullptr);
  EXPECT_EQ(e.take(0, kAnySource, kAnyTag), nullptr);
  EXPECT_EQ(e.peek(65535, kAnySource, kAnyTag), nullptr);
}

TEST(MatchEngine, SpecificReceivePostedFirstWinsOverAnySource) {
  Engine e;
  PostedEntry* specific = e.post(0, 2, 5);
  PostedEntry* any = e.post(0, kAnySource, 5);
  EXPECT_EQ(e.match(0, 2, 5), specific);
  EXPECT_EQ(e.match(0, 2, 5), any);
  EXPECT_EQ(e.match(0, 2, 5), nullptr);
}

TEST(MatchEngine, AnySourceReceivePostedFirstWinsOverSpecific) {
  Engine e;
  PostedEntry* any = e.post(0, kAnySource, 5);
  PostedEntry* specific = e.post(0, 2, 5);
  EXPECT_EQ(e.match(0, 2, 5), any);
  EXPECT_EQ(e.match(0, 2, 5), specific);
  EXPECT_EQ(e.match(0, 2, 5), nullptr);
}

TEST(MatchEngine, EarlierAnySourceWithAnotherTagDoesNotBlock) {
  Engine e;
  PostedEntry* any_other_tag = e.post(0, kAnySource, 7);
  PostedEntry* specific = e.post(0, 2, 5);
  PostedEntry* any_same_tag = e.post(0, kAnySource, 5);
  EXPECT_EQ(e.match(0, 2, 5), specific);
  EXPECT_EQ(e.match(0, 3, 5), any_same_tag);
  EXPECT_EQ(e.match(0, 3, 7), any_other_tag);
}

TEST(MatchEngine, InterleavedWildcardsFollowPostingOrder) {
  Engine e;
  PostedEntry* r1 = e.post(0, 1, 5);
  PostedEntry* r2 = e.post(0, kAnySource, kAnyTag);
  PostedEntry* r3 = e.post(0, 1, kAnyTag);
  PostedEntry* r4 = e.post(0, kAnySource, 5);
  // From source 1, tag 5: all four accept; posting order decides.
  EXPECT_EQ(e.match(0, 1, 5), r1);
  EXPECT_EQ(e.match(0, 1, 5), r2);
  EXPECT_EQ(e.match(0, 1, 5), r3);
  EXPECT_EQ(e.match(0, 1, 5), r4);
}

TEST(MatchEngine, AnyTagAcceptsEveryTag) {
  Engine e;
  PostedEntry* any_tag = e.post(0, 4, kAnyTag);
  EXPECT_EQ(e.match(0, 3, 9), nullptr) << "another source";
  EXPECT_EQ(e.match(0, 4, 32767), any_tag);
  PostedEntry* both = e.post(0, kAnySource, kAnyTag);
  EXPECT_EQ(e.match(0, 1000, 0), both);
}

TEST(MatchEngine, SpecificReceivesSkipOtherTagsInTheirBin) {
  Engine e;
  PostedEntry* tag5 = e.post(0, 1, 5);
  PostedEntry* tag6 = e.post(0, 1, 6);
  PostedEntry* any = e.post(0, 1, kAnyTag);
  EXPECT_EQ(e.match(0, 1, 6), tag6);
  EXPECT_EQ(e.match(0, 1, 7), any);
  EXPECT_EQ(e.match(0, 1, 7), nullptr);
  EXPECT_EQ(e.match(0, 1, 5), tag5);
}

TEST(MatchEngine, PostedReceivesFromOneSourceMatchInPostingOrder) {
  Engine e;
  std::vector<PostedEntry*> receives;
  for (int i = 0; i < 10; ++i) {
    receives.push_back(e.post(0, 3, 1));
  }
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(e.match(0, 3, 1), receives[i]) << i;
  }
}

TEST(MatchEngine, UnexpectedAnySourceTakesArrivalOrderAcrossSources) {
  Engine e;
  UnexpectedEntry* a = e.arrive(0, 0, 1);
  UnexpectedEntry* b = e.arrive(0, 1, 1);
  UnexpectedEntry* c = e.arrive(0, 0, 1);
  UnexpectedEntry* d = e.arrive(0, 2, 3);
  EXPECT_EQ(e.take(0, kAnySource, kAnyTag), a);
  EXPECT_EQ(e.take(0, kAnySource, 1), b);
  EXPECT_EQ(e.take(0, kAnySource, 3), d) << "tag 3 skips c";
  EXPECT_EQ(e.take(0, kAnySource, kAnyTag), c);
  EXPECT_EQ(e.take(0, kAnySource, kAnyTag), nullptr);
}

TEST(MatchEngine, UnexpectedMessagesFromOneSourceAreFifo) {
  Engine e;
  UnexpectedEntry* first = e.arrive(0, 5, 1);
  UnexpectedEntry* other = e.arrive(0, 6, 1);
  UnexpectedEntry* second = e.arrive(0, 5, 2);
  UnexpectedEntry* third = e.arrive(0, 5, 1);
  EXPECT_EQ(e.take(0, 5, kAnyTag), first);
  EXPECT_EQ(e.take(0, 5, 1), third) << "tag 1 skips the tag-2 message";
  EXPECT_EQ(e.take(0, 5, kAnyTag), second);
  EXPECT_EQ(e.take(0, 5, kAnyTag), nullptr);
  EXPECT_EQ(e.take(0, 7, kAnyTag), nullptr) << "a source that never sent";
  EXPECT_EQ(e.take(0, 6, 1), other);
}

TEST(MatchEngine, TakingBySourceAlsoLeavesTheArrivalList) {
  Engine e;
  UnexpectedEntry* a = e.arrive(0, 0, 1);
  UnexpectedEntry* b = e.arrive(0, 1, 1);
  EXPECT_EQ(e.take(0, 0, 1), a);
  EXPECT_EQ(e.take(0, kAnySource, kAnyTag), b);
  EXPECT_EQ(e.take(0, 0, kAnyTag), nullptr);
  EXPECT_EQ(e.take(0, kAnySource, kAnyTag), nullptr);
}

TEST(MatchEngine, PeekDoesNotRemove) {
  Engine e;
  UnexpectedEntry* a = e.arrive(0, 3, 4);
  EXPECT_EQ(e.peek(0, 3, 4), a);
  EXPECT_EQ(e.peek(0, kAnySource, kAnyTag), a);
  EXPECT_EQ(e.peek(0, 3, 5), nullptr);
  EXPECT_EQ(e.take(0, kAnySource, 4), a);
  EXPECT_EQ(e.peek(0, 3, 4), nullptr);
}

TEST(MatchEngine, RemoveUnexpectedTakesItOutOfBothLists) {
  Engine e;
  UnexpectedEntry* a = e.arrive(0, 3, 4);
  UnexpectedEntry* b = e.arrive(0, 3, 4);
  e.engine.remove_unexpected(a);
  EXPECT_EQ(e.peek(0, 3, 4), b);
  EXPECT_EQ(e.peek(0, kAnySource, kAnyTag), b);
}

TEST(MatchEngine, RemovePostedCancelsAReceive) {
  Engine e;
  PostedEntry* first = e.post(0, 1, 1);
  PostedEntry* any = e.post(0, kAnySource, 1);
  PostedEntry* last = e.post(0, 1, 1);
  EXPECT_TRUE(e.engine.remove_posted(first));
  EXPECT_FALSE(e.engine.remove_posted(first)) << "already cancelled";
  EXPECT_TRUE(e.engine.remove_posted(any));
  EXPECT_EQ(e.match(0, 1, 1), last);
  EXPECT_FALSE(e.engine.remove_posted(last)) << "matched: nothing to cancel";
  EXPECT_EQ(e.match(0, 1, 1), nullptr);
  PostedEntry never_posted;
  EXPECT_FALSE(e.engine.remove_posted(&never_posted));
}

TEST(MatchEngine, ContextsAreIndependent) {
  Engine e;
  PostedEntry* in0 = e.post(0, 1, 1);
  PostedEntry* in_last = e.post(65535, 1, 1);
  UnexpectedEntry* u7 = e.arrive(7, 1, 1);
  EXPECT_EQ(e.match(1, 1, 1), nullptr);
  EXPECT_EQ(e.take(0, kAnySource, kAnyTag), nullptr) << "context 7's message";
  EXPECT_EQ(e.match(65535, 1, 1), in_last);
  EXPECT_EQ(e.match(0, 1, 1), in0);
  EXPECT_EQ(e.take(7, 1, 1), u7);
}

TEST(MatchEngine, ManyContextsEachKeepTheirOwnQueues) {
  Engine e;
  std::vector<PostedEntry*> posted;
  std::vector<UnexpectedEntry*> arrived;
  for (std::uint32_t context = 0; context < 65536; context += 97) {
    const auto id = static_cast<std::uint16_t>(context);
    const auto source = static_cast<std::int32_t>(context % 13);
    posted.push_back(e.post(id, context % 2 == 0 ? source : kAnySource, 1));
    arrived.push_back(e.arrive(id, source, 2));
  }
  std::size_t i = 0;
  for (std::uint32_t context = 0; context < 65536; context += 97, ++i) {
    const auto id = static_cast<std::uint16_t>(context);
    const auto source = static_cast<std::int32_t>(context % 13);
    EXPECT_EQ(e.match(id, source, 2), nullptr);
    EXPECT_EQ(e.match(id, source, 1), posted[i]) << context;
    EXPECT_EQ(e.take(id, kAnySource, 2), arrived[i]) << context;
  }
}

TEST(MatchEngine, OrderNumbersIncrease) {
  MatchEngine engine;
  const std::uint64_t first = engine.next_order();
  EXPECT_LT(first, engine.next_order());
}

// Reference: the MPI rules stated directly on two ordered lists.
struct ModelEntry {
  int id;
  std::uint16_t context;
  std::int32_t source;
  std::int32_t tag;
};

bool accepts(std::int32_t wanted_source, std::int32_t wanted_tag,
             const ModelEntry& message) {
  return (wanted_source == kAnySource || wanted_source == message.source) &&
         (wanted_tag == kAnyTag || wanted_tag == message.tag);
}

TEST(MatchEngine, RandomTrafficMatchesAReferenceModel) {
  std::mt19937 random(2024);
  MatchEngine engine;
  std::deque<PostedEntry> posted_store;
  std::deque<UnexpectedEntry> unexpected_store;
  std::list<ModelEntry> model_posted;        // posting order
  std::list<ModelEntry> model_unexpected;    // arrival order
  std::unordered_map<const void*, int> ids;  // entry -> index in its store
  auto id_of = [&](const void* entry) {
    return entry == nullptr ? -1 : ids.at(entry);
  };

  for (int step = 0; step < 20000; ++step) {
    const auto context = static_cast<std::uint16_t>(random() % 3);
    const auto source = static_cast<std::int32_t>(random() % 4);
    const auto tag = static_cast<std::int32_t>(random() % 3);
    switch (random() % 3) {
      case 0: {  // a message arrives
        const ModelEntry message{0, context, source, tag};
        auto it = model_posted.begin();
        while (it != model_posted.end() &&
               !(it->context == context &&
                 accepts(it->source, it->tag, message))) {
          ++it;
        }
        PostedEntry* matched = engine.match_posted(context, source, tag);
        if (it == model_posted.end()) {
          ASSERT_EQ(matched, nullptr) << "step " << step;
          UnexpectedEntry& entry = unexpected_store.emplace_back();
          entry.order = engine.next_order();
          entry.context_id = context;
          entry.source = source;
          entry.tag = tag;
          engine.add_unexpected(&entry);
          ids[&entry] = static_cast<int>(unexpected_store.size() - 1);
          model_unexpected.push_back(
              {static_cast<int>(unexpected_store.size() - 1), context, source,
               tag});
        } else {
          ASSERT_EQ(id_of(matched), it->id) << "step " << step;
          model_posted.erase(it);
        }
        break;
      }
      case 1: {  // a receive is posted
        const std::int32_t want_source =
            random() % 4 == 0 ? kAnySource : source;
        const std::int32_t want_tag = random() % 4 == 0 ? kAnyTag : tag;
        auto it = model_unexpected.begin();
        while (
            it != model_unexpected.end() &&
            !(it->context == context && accepts(want_source, want_tag, *it))) {
          ++it;
        }
        const bool peek_first = random() % 2 == 0;
        if (peek_first) {
          UnexpectedEntry* peeked =
              engine.match_unexpected(context, want_source, want_tag, true);
          ASSERT_EQ(id_of(peeked), it == model_unexpected.end() ? -1 : it->id);
        }
        UnexpectedEntry* found =
            engine.match_unexpected(context, want_source, want_tag, false);
        if (it == model_unexpected.end()) {
          ASSERT_EQ(found, nullptr) << "step " << step;
          PostedEntry& entry = posted_store.emplace_back();
          entry.order = engine.next_order();
          entry.context_id = context;
          entry.source = want_source;
          entry.tag = want_tag;
          engine.post(&entry);
          ids[&entry] = static_cast<int>(posted_store.size() - 1);
          model_posted.push_back({static_cast<int>(posted_store.size() - 1),
                                  context, want_source, want_tag});
        } else {
          ASSERT_EQ(id_of(found), it->id) << "step " << step;
          model_unexpected.erase(it);
        }
        break;
      }
      default: {  // cancel a random posted receive
        if (model_posted.empty()) {
          break;
        }
        auto it = model_posted.begin();
        std::advance(it, static_cast<long>(random() % model_posted.size()));
        ASSERT_TRUE(engine.remove_posted(
            &posted_store[static_cast<std::size_t>(it->id)]));
        model_posted.erase(it);
        break;
      }
    }
  }
}

TEST(MatchEngine, CountsQueueLengths) {
  Engine e;
  EXPECT_EQ(e.engine.posted_count(), 0U);
  EXPECT_EQ(e.engine.unexpected_count(), 0U);
  e.arrive(1, 0, 5);
  e.arrive(1, 0, 6);
  e.post(1, 2, 7);
  EXPECT_EQ(e.engine.unexpected_count(), 2U);
  EXPECT_EQ(e.engine.posted_count(), 1U);
  EXPECT_NE(e.peek(1, 0, 5), nullptr);
  EXPECT_EQ(e.engine.unexpected_count(), 2U);  // a peek leaves it queued
  EXPECT_NE(e.take(1, kAnySource, kAnyTag), nullptr);
  EXPECT_EQ(e.engine.unexpected_count(), 1U);
  EXPECT_NE(e.match(1, 2, 7), nullptr);
  EXPECT_EQ(e.engine.posted_count(), 0U);
  PostedEntry* cancelled = e.post(1, 3, 1);
  EXPECT_TRUE(e.engine.remove_posted(cancelled));
  EXPECT_EQ(e.engine.posted_count(), 0U);
}

TEST(MatchEngine, UnexpectedPeakRestartsWhenTaken) {
  Engine e;
  e.arrive(1, 0, 0);
  e.arrive(1, 0, 1);
  e.arrive(1, 0, 2);
  ASSERT_NE(e.take(1, 0, 0), nullptr);
  ASSERT_NE(e.take(1, 0, 1), nullptr);
  EXPECT_EQ(e.engine.take_unexpected_peak(), 3U);
  // Watching again: the peak is the length now until the queue grows.
  EXPECT_EQ(e.engine.take_unexpected_peak(), 1U);
  e.arrive(1, 0, 3);
  ASSERT_NE(e.take(1, 0, 2), nullptr);
  EXPECT_EQ(e.engine.take_unexpected_peak(), 2U);
  ASSERT_NE(e.take(1, 0, 3), nullptr);
  EXPECT_EQ(e.engine.take_unexpected_peak(), 0U);
}

// MPI_T takes the peak from another thread while the owner queues and
// receives: a peak is never lost, and the lengths read are ones the queue
// had (under ThreadSanitizer too).
TEST(MatchEngine, UnexpectedPeakTakenFromAnotherThread) {
  constexpr int kRounds = 2000;
  constexpr std::size_t kDepth = 5;
  Engine e;
  std::atomic<bool> done{false};
  std::size_t largest = 0;
  std::thread watcher([&] {
    while (!done.load(std::memory_order_acquire)) {
      largest = std::max(largest, e.engine.take_unexpected_peak());
      EXPECT_LE(e.engine.unexpected_count(), kDepth);
    }
  });
  for (int round = 0; round < kRounds; ++round) {
    for (std::size_t i = 0; i < kDepth; ++i) {
      e.arrive(1, 0, static_cast<std::int32_t>(i));
    }
    for (std::size_t i = 0; i < kDepth; ++i) {
      ASSERT_NE(e.take(1, 0, kAnyTag), nullptr);
    }
  }
  done.store(true, std::memory_order_release);
  watcher.join();
  largest = std::max(largest, e.engine.take_unexpected_peak());
  EXPECT_EQ(largest, kDepth);
}

}  // namespace
}  // namespace shmpi::matching
