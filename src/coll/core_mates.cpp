// SPDX-License-Identifier: MIT
#include "coll/core_mates.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <vector>

#include "coll/rounds.hpp"

namespace shmpi::coll {

bool find_core_mates(Comm& comm) {
  mpi::detail::CommShared& shared = *comm.shared;
  if (shared.cores_found != 0) [[likely]] {
    return shared.cores_found > 0;
  }
  const segment::Segment& segment = mpi::state().engine->segment();
  auto core_of_slot = [&](std::uint32_t slot) {
    // Plain field: written by the launcher before the rank started, read
    // after MPI_Init synchronised with every rank.
    return segment.rank_info(slot).core;
  };
  auto core_of = [&](int m) {
    return core_of_slot(comm.slots[static_cast<std::size_t>(m)]);
  };
  bool bound = mpi::state().engine->config().oversubscribed;
  const std::int32_t mine = core_of(comm.rank);
  bound = bound && mine >= 0;
  shared.core_mates.clear();
  for (int m = 0; m < comm.size && bound; ++m) {
    const std::int32_t core = core_of(m);
    bound = core >= 0;
    if (m != comm.rank && core == mine) {
      shared.core_mates.push_back(m);
    }
  }
  // Ranks of the job outside this communicator on our core (other
  // communicators' work, other worlds): polling longer would keep them
  // waiting, so only the yield-at-once hints apply.
  shared.core_outsiders = false;
  std::vector<std::uint32_t> members;
  if (bound) {
    members = comm.slots;
    std::sort(members.begin(), members.end());
  }
  const std::uint32_t capacity = segment.layout().config.capacity;
  for (std::uint32_t slot = 0; slot < capacity && bound; ++slot) {
    // Relaxed: a snapshot for a heuristic.
    const auto state = static_cast<segment::RankState>(
        segment.rank_info(slot).state.load(std::memory_order_relaxed));
    if ((state == segment::RankState::kStarting ||
         state == segment::RankState::kRunning) &&
        core_of_slot(slot) == mine &&
        !std::binary_search(members.begin(), members.end(), slot)) {
      shared.core_outsiders = true;
    }
  }
  shared.cores_found = bound ? 1 : -1;
  return bound;
}

bool bound_to_my_core(std::uint32_t slot) {
  const p2p::Engine& engine = *mpi::state().engine;
  // Plain fields: written by the launcher before the ranks started.
  const segment::Segment& segment = engine.segment();
  const std::int32_t mine = segment.rank_info(engine.my_slot()).core;
  return mine >= 0 && segment.rank_info(slot).core == mine;
}

p2p::PollHint poll_hint_for_root(Comm& comm, int awaited) {
  if (!find_core_mates(comm)) {
    return p2p::PollHint::kAsUsual;
  }
  const mpi::detail::CommShared& shared = *comm.shared;
  const std::vector<int>& mates = shared.core_mates;
  if (std::find(mates.begin(), mates.end(), awaited) != mates.end()) {
    return p2p::PollHint::kYieldAtOnce;
  }
  if (shared.core_outsiders) {
    return p2p::PollHint::kAsUsual;
  }
  const std::uint64_t previous = shared.round - 1;
  for (const int m : mates) {
    // A mate further behind has rounds to finish that only our core can
    // run: give it the core instead.
    if (!reached(comm, m, previous)) {
      return p2p::PollHint::kAsUsual;
    }
  }
  return p2p::PollHint::kLonger;
}

void note_rooted_round(Comm& comm) {
  if (find_core_mates(comm) && !comm.shared->core_mates.empty() &&
      comm.shared->core_mates.front() < comm.rank) {
    comm.shared->rooted_since_all = true;
  }
}

p2p::PollHint poll_hint_for_all(Comm& comm) {
  if (!find_core_mates(comm)) {
    return p2p::PollHint::kAsUsual;
  }
  for (const int m : comm.shared->core_mates) {
    if (!arrived(comm, m)) {
      return p2p::PollHint::kYieldAtOnce;
    }
  }
  // Everyone here has arrived, so nobody on our core can help this round
  // along: a yield would only trade the core back and forth.
  return comm.shared->core_outsiders ? p2p::PollHint::kAsUsual
                                     : p2p::PollHint::kLonger;
}

p2p::PollHint poll_hint_for_member(Comm& comm, int awaited) {
  if (!find_core_mates(comm)) {
    return p2p::PollHint::kAsUsual;
  }
  const std::vector<int>& mates = comm.shared->core_mates;
  if (std::find(mates.begin(), mates.end(), awaited) != mates.end()) {
    return p2p::PollHint::kYieldAtOnce;
  }
  // On another core: longer only when the round needs nobody here, as in
  // an all-arrive round; a mate still to publish is not whom we wait for.
  return poll_hint_for_all(comm) == p2p::PollHint::kLonger
             ? p2p::PollHint::kLonger
             : p2p::PollHint::kAsUsual;
}

// The coroutines' waits (rounds.hpp).
p2p::PollHint AllArrived::hint() { return poll_hint_for_all(*comm); }
p2p::PollHint Writable::hint() { return poll_hint_for_all(*comm); }
p2p::PollHint Arrival::hint() { return poll_hint_for_member(*comm, m); }

namespace {

constexpr std::uint32_t kNoSender = ~std::uint32_t{0};

// The slot of the mate whose message this process waited for last, until
// the next all-arrived round. Relaxed: a hint for this process's own
// scheduling; with MPI_THREAD_MULTIPLE any thread's value will do.
std::atomic<std::uint32_t> mate_sender{kNoSender};

// The rank in `comm` of the mate in segment slot `slot`, or -1.
int mate_rank(const Comm& comm, std::uint32_t slot) {
  for (const int m : comm.shared->core_mates) {
    if (comm.slots[static_cast<std::size_t>(m)] == slot) {
      return m;
    }
  }
  return -1;
}

}  // namespace

void note_mate_sender(std::uint32_t slot) {
  mate_sender.store(slot, std::memory_order_relaxed);
}

void leave_all_arrived(Comm& comm) {
  mpi::detail::CommShared& shared = *comm.shared;
  int first = -1;
  if (shared.rooted_since_all) {
    // Set only with core mates below us (note_rooted_round).
    shared.rooted_since_all = false;
    first = shared.core_mates.front();
  } else if (const std::uint32_t sender =
                 mate_sender.load(std::memory_order_relaxed);
             sender != kNoSender) [[unlikely]] {
    mate_sender.store(kNoSender, std::memory_order_relaxed);
    if (find_core_mates(comm)) {
      first = mate_rank(comm, sender);
    }
  }
  if (first >= 0 && !reached(comm, first, shared.round + 1)) {
    ::sched_yield();
  }
}

}  // namespace shmpi::coll
