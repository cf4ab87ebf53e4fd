// SPDX-License-Identifier: MIT
// MatchEngine: post a receive and match the message that arrives for it,
// behind `depth` posted receives of the same source that do not match.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "matching/match_engine.hpp"

namespace shmpi::matching {
namespace {

void BM_MatchEngine_PostMatch(benchmark::State& state) {
  const auto depth = static_cast<std::size_t>(state.range(0));
  MatchEngine engine;
  constexpr std::uint16_t kContext = 4;
  constexpr std::int32_t kSource = 1;
  // Receives for other tags that every match walks past.
  std::vector<PostedEntry> waiting(depth);
  for (std::size_t i = 0; i < depth; ++i) {
    waiting[i].order = engine.next_order();
    waiting[i].context_id = kContext;
    waiting[i].source = kSource;
    waiting[i].tag = static_cast<std::int32_t>(1000 + i);
    engine.post(&waiting[i]);
  }
  // And an ANY_SOURCE receive posted after them, which the match compares.
  PostedEntry any_source;
  any_source.order = engine.next_order();
  any_source.context_id = kContext;
  any_source.source = kAnySource;
  any_source.tag = 999999;
  engine.post(&any_source);

  PostedEntry receive;
  for (auto _ : state) {
    receive.order = engine.next_order();
    receive.context_id = kContext;
    receive.source = kSource;
    receive.tag = 7;
    engine.post(&receive);
    PostedEntry* matched = engine.match_posted(kContext, kSource, 7);
    benchmark::DoNotOptimize(matched);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MatchEngine_PostMatch)
    ->ArgName("depth")
    ->Arg(0)
    ->Arg(16)
    ->Arg(256);

// An unexpected message from one of several sources, then the receive that
// takes it with MPI_ANY_SOURCE.
void BM_MatchEngine_UnexpectedAnySource(benchmark::State& state) {
  MatchEngine engine;
  constexpr std::uint16_t kContext = 4;
  UnexpectedEntry message;
  std::int32_t source = 0;
  for (auto _ : state) {
    message.order = engine.next_order();
    message.context_id = kContext;
    message.source = source;
    message.tag = 7;
    source = (source + 1) % 8;
    engine.add_unexpected(&message);
    UnexpectedEntry* found =
        engine.match_unexpected(kContext, kAnySource, kAnyTag, false);
    benchmark::DoNotOptimize(found);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MatchEngine_UnexpectedAnySource);

}  // namespace
}  // namespace shmpi::matching
