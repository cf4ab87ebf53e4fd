// SPDX-License-Identifier: MIT
#include "matching/match_engine.hpp"

#include <algorithm>
#include <cstddef>
#include <type_traits>

namespace shmpi::matching {

namespace {

static_assert(std::is_standard_layout_v<PostedEntry> &&
                  std::is_standard_layout_v<UnexpectedEntry>,
              "offsetof on the hooks");

// The hooks are members of standard-layout entries: step back by the
// member's offset to reach the entry.
template <typename Entry>
Entry* entry_of(ListHook* hook, std::size_t hook_offset) {
  auto* base =
      reinterpret_cast<std::byte*>(hook);  // NOLINT: intrusive container
  return reinterpret_cast<Entry*>(base -
                                  hook_offset);  // NOLINT: intrusive container
}
PostedEntry* posted_of(ListHook* hook) {
  return entry_of<PostedEntry>(hook, offsetof(PostedEntry, hook));
}
UnexpectedEntry* by_source_of(ListHook* hook) {
  return entry_of<UnexpectedEntry>(hook,
                                   offsetof(UnexpectedEntry, source_hook));
}
UnexpectedEntry* by_arrival_of(ListHook* hook) {
  return entry_of<UnexpectedEntry>(hook,
                                   offsetof(UnexpectedEntry, arrival_hook));
}

bool tag_accepts(std::int32_t wanted, std::int32_t tag) {
  return wanted == kAnyTag || wanted == tag;
}

}  // namespace

struct MatchEngine::ContextQueues {
  std::vector<std::unique_ptr<MatchList>> posted_by_source;
  MatchList posted_any;
  std::vector<std::unique_ptr<MatchList>> unexpected_by_source;
  MatchList unexpected_arrival;

  static MatchList& bin(std::vector<std::unique_ptr<MatchList>>& bins,
                        std::int32_t source) {
    auto index = static_cast<std::size_t>(source);
    if (index >= bins.size()) {
      bins.resize(index + 1);
    }
    if (!bins[index]) {
      bins[index] = std::make_unique<MatchList>();
    }
    return *bins[index];
  }
  static MatchList* find_bin(
      const std::vector<std::unique_ptr<MatchList>>& bins,
      std::int32_t source) {
    auto index = static_cast<std::size_t>(source);
    return index < bins.size() ? bins[index].get() : nullptr;
  }
};

MatchEngine::MatchEngine() : by_context_(std::size_t{1} << 16) {}
MatchEngine::~MatchEngine() = default;

MatchEngine::ContextQueues& MatchEngine::queues(std::uint16_t context_id) {
  auto& slot = by_context_[context_id];
  if (!slot) {
    slot = std::make_unique<ContextQueues>();
  }
  return *slot;
}

bool MatchEngine::has_unexpected(std::uint16_t context_id,
                                 std::int32_t source) const {
  ContextQueues* q = find_queues(context_id);
  if (q == nullptr) {
    return false;
  }
  MatchList* bin = ContextQueues::find_bin(q->unexpected_by_source, source);
  return bin != nullptr && !bin->empty();
}

void MatchEngine::post(PostedEntry* entry) {
  add_to(posted_count_, 1);
  ContextQueues& q = queues(entry->context_id);
  if (entry->source == kAnySource) {
    q.posted_any.push_back(&entry->hook);
  } else {
    ContextQueues::bin(q.posted_by_source, entry->source)
        .push_back(&entry->hook);
  }
}

PostedEntry* MatchEngine::match_posted(std::uint16_t context_id,
                                       std::int32_t source, std::int32_t tag) {
  ContextQueues* q = find_queues(context_id);
  if (q == nullptr) {
    return nullptr;
  }
  PostedEntry* best = nullptr;
  if (MatchList* bin = ContextQueues::find_bin(q->posted_by_source, source)) {
    for (ListHook* h = bin->begin(); h != bin->end(); h = h->next) {
      auto* entry = posted_of(h);
      if (tag_accepts(entry->tag, tag)) {
        best = entry;
        break;
      }
    }
  }
  for (ListHook* h = q->posted_any.begin(); h != q->posted_any.end();
       h = h->next) {
    auto* entry = posted_of(h);
    if (best != nullptr && entry->order > best->order) {
      break;  // the list is in posting order: nothing later can win
    }
    if (tag_accepts(entry->tag, tag)) {
      best = entry;
      break;
    }
  }
  if (best != nullptr) {
    MatchList::unlink(&best->hook);
    add_to(posted_count_, -1);
  }
  return best;
}

bool MatchEngine::remove_posted(PostedEntry* entry) {
  if (!entry->hook.linked()) {
    return false;
  }
  MatchList::unlink(&entry->hook);
  add_to(posted_count_, -1);
  return true;
}

void MatchEngine::add_unexpected(UnexpectedEntry* entry) {
  ContextQueues& q = queues(entry->context_id);
  ContextQueues::bin(q.unexpected_by_source, entry->source)
      .push_back(&entry->source_hook);
  q.unexpected_arrival.push_back(&entry->arrival_hook);
  add_to(unexpected_count_, 1);
  const std::size_t length = unexpected_count_.load(std::memory_order_relaxed);
  // Relaxed: see unexpected_peak_. A read-modify-write only on a new peak.
  std::size_t peak = unexpected_peak_.load(std::memory_order_relaxed);
  while (length > peak && !unexpected_peak_.compare_exchange_weak(
                              peak, length, std::memory_order_relaxed)) {
  }
}

std::size_t MatchEngine::take_unexpected_peak() noexcept {
  // Relaxed: see unexpected_peak_.
  const std::size_t peak =
      unexpected_peak_.exchange(0, std::memory_order_relaxed);
  return std::max(peak, unexpected_count());
}

UnexpectedEntry* MatchEngine::match_unexpected(std::uint16_t context_id,
                                               std::int32_t source,
                                               std::int32_t tag, bool peek) {
  ContextQueues* q = find_queues(context_id);
  if (q == nullptr) {
    return nullptr;
  }
  UnexpectedEntry* found = nullptr;
  if (source == kAnySource) {
    for (ListHook* h = q->unexpected_arrival.begin();
         h != q->unexpected_arrival.end(); h = h->next) {
      auto* entry = by_arrival_of(h);
      if (tag_accepts(tag, entry->tag)) {
        found = entry;
        break;
      }
    }
  } else if (MatchList* bin =
                 ContextQueues::find_bin(q->unexpected_by_source, source)) {
    for (ListHook* h = bin->begin(); h != bin->end(); h = h->next) {
      auto* entry = by_source_of(h);
      if (tag_accepts(tag, entry->tag)) {
        found = entry;
        break;
      }
    }
  }
  if (found != nullptr && !peek) {
    remove_unexpected(found);
  }
  return found;
}

void MatchEngine::remove_unexpected(UnexpectedEntry* entry) {
  MatchList::unlink(&entry->source_hook);
  MatchList::unlink(&entry->arrival_hook);
  add_to(unexpected_count_, -1);
}

}  // namespace shmpi::matching
