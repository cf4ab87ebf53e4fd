// SPDX-License-Identifier: MIT
// Intrusive doubly linked lists for the matching queues: entries live in the
// requests and unexpected-message records themselves, so queuing allocates
// nothing. Process-local; not thread-safe (the engine lock covers them).
#pragma once

#include <cstdint>

namespace shmpi::matching {

struct ListHook {
  ListHook* prev = nullptr;
  ListHook* next = nullptr;
  bool linked() const { return next != nullptr; }
};

class MatchList {
 public:
  MatchList() { head_.prev = head_.next = &head_; }
  MatchList(const MatchList&) = delete;
  MatchList& operator=(const MatchList&) = delete;

  bool empty() const { return head_.next == &head_; }
  ListHook* begin() { return head_.next; }
  ListHook* end() { return &head_; }
  void push_back(ListHook* hook) {
    hook->prev = head_.prev;
    hook->next = &head_;
    head_.prev->next = hook;
    head_.prev = hook;
  }
  static void unlink(ListHook* hook) {
    hook->prev->next = hook->next;
    hook->next->prev = hook->prev;
    hook->prev = hook->next = nullptr;
  }

 private:
  ListHook head_;
};

}  // namespace shmpi::matching
