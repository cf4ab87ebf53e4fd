// SPDX-License-Identifier: MIT
// The point-to-point requests one step of a collective coroutine
// (coll/task.hpp) has in flight on a collective context: the
// intercommunicator collectives (coll_inter.cpp) and the neighbourhood
// collectives (coll_neighbor.cpp) post their sends and receives here, then
// co_await all(). When ranks outnumber cores, a wait for a peer bound to
// this process's core yields after one look at the rings
// (p2p::PollHint::kLookThenYield): the peer cannot run while we poll.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <vector>

#include "base/assert.hpp"
#include "coll/core_mates.hpp"
#include "coll/task.hpp"
#include "datatype/pack.hpp"
#include "mpi/coll_common.hpp"
#include "mpi/core.hpp"
#include "mpi/p2p_common.hpp"
#include "p2p/poll_hint.hpp"
#include "p2p/request.hpp"

namespace shmpi::mpi::coll {

// A fixed number of requests, planned at construction (the storage never
// moves while the progress engine holds them). Owned by one coroutine;
// done() is polled by whichever thread drives it.
//
// Memory ordering: done() reads each request's `complete` with acquire,
// pairing with the engine's release when it completes the request, so the
// received data and status are visible once done() returns true.
class Requests {
 public:
  // Up to kInline requests live in the object itself (in the coroutine's
  // frame, which comes from the frame cache): a leader's swap or a root's
  // message allocates nothing.
  explicit Requests(std::size_t capacity) : capacity_(capacity) {
    if (capacity > kInline) {
      heap_ = std::vector<p2p::Request>(capacity);
      heap_mates_.resize(capacity);
      requests_ = heap_.data();
      mates_ = heap_mates_.data();
    }
  }
  Requests(const Requests&) = delete;
  Requests& operator=(const Requests&) = delete;
  Requests(Requests&&) = delete;
  Requests& operator=(Requests&&) = delete;
  void send(Comm& comm, int dest, int tag, const datatype::Layout& data) {
    SHMPI_ASSERT(count_ < capacity_, "more requests than planned");
    mates_[count_] = is_core_mate(comm, dest);
    start_coll_send(requests_[count_++], &comm, dest, tag, data);
  }
  void recv(Comm& comm, int source, int tag, const datatype::Layout& data) {
    SHMPI_ASSERT(count_ < capacity_, "more requests than planned");
    // Noted like a point-to-point receive, so that a mate sending to us
    // leaves the next barrier first (docs/design.md#waiting).
    mates_[count_] = note_if_mate_source(comm, source);
    start_coll_recv(requests_[count_++], &comm, source, tag, data);
  }
  bool done() {
    while (checked_ < count_) {
      // Acquire: pairs with the engine's release of `complete`.
      if (!requests_[checked_].complete.load(std::memory_order_acquire)) {
        return false;
      }
      ++checked_;
    }
    return true;
  }
  // The first error class among the completed requests (truncation), or 0.
  int error() const {
    for (std::size_t i = 0; i < count_; ++i) {
      if (requests_[i].status.error != 0) {
        return requests_[i].status.error;
      }
    }
    return 0;
  }
  // How to wait for the requests still open: at once to a yield when one
  // of them is with a peer on this process's core.
  p2p::PollHint hint() const {
    for (std::size_t i = checked_; i < count_; ++i) {
      if (mates_[i] != 0) {
        return p2p::PollHint::kLookThenYield;
      }
    }
    return p2p::PollHint::kAsUsual;
  }
  // co_await all(): waits (in the calling coroutine) for every request.
  auto all() { return ::shmpi::coll::until(AllDone{this}); }

 private:
  struct AllDone {
    Requests* requests;
    bool operator()() { return requests->done(); }
    p2p::PollHint hint() const { return requests->hint(); }
  };

  static constexpr std::size_t kInline = 2;
  std::array<p2p::Request, kInline> inline_{};
  std::array<char, kInline> inline_mates_{};
  std::vector<p2p::Request> heap_;  // sized once: never moves
  std::vector<char> heap_mates_;
  p2p::Request* requests_ = inline_.data();
  char* mates_ = inline_mates_.data();  // per request: the peer shares our core
  std::size_t capacity_;
  std::size_t count_ = 0;
  std::size_t checked_ = 0;
};

// Records the requests' first error in `run` unless it already has one.
inline void note(::shmpi::coll::Run* run, const Requests& requests) {
  if (run->error == 0) {
    run->error = requests.error();
  }
}

}  // namespace shmpi::mpi::coll
