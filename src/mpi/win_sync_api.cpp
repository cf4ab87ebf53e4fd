// SPDX-License-Identifier: MIT
// One-sided synchronisation (MPI 4.0 §12.5): MPI_Win_fence, the
// post/start/complete/wait group (with MPI_Win_test), MPI_Win_lock and
// _unlock (and their _all forms), the MPI_Win_flush family and
// MPI_Win_sync.
//
// Every RMA operation completes inside its call (mpi/window.hpp), so these
// calls only order the processes and keep Window::epochs, which
// check_access() reads: a fence is a barrier on the window's private
// communicator, post/start and complete/wait are empty messages on its
// collective context, and a passive-target lock is a word in the window's
// shared block (rma::MemberLine::lock), taken with a CAS.
#include <mpi.h>
#include <sched.h>
#include <time.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include "mpi/coll_common.hpp"
#include "mpi/core.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/group.hpp"
#include "mpi/window.hpp"
#include "p2p/engine.hpp"

using namespace shmpi::mpi;

namespace {

// Tags on the window communicator's collective context. The communicator
// is private to the window, so only library traffic is there: the simple
// collectives' tags 1..5 (coll_common.hpp), the intercommunicator and
// neighbourhood ones (101..105, 110, 111) and negative leader tags; these
// two are above them all.
constexpr int kPostTag = 120;      // MPI_Win_post -> MPI_Win_start
constexpr int kCompleteTag = 121;  // MPI_Win_complete -> MPI_Win_wait/_test

constexpr int kFenceAsserts =
    MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED;
constexpr int kPostAsserts =
    MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT;

// The payload of the empty messages (a valid address for the Layout).
char empty_payload = 0;

void send_empty(Window* w, int dest, int tag) {
  coll::coll_send(w->comm, dest, tag, &empty_payload, 0);
}
void recv_empty(Window* w, int source, int tag) {
  char sink = 0;
  coll::coll_recv(w->comm, source, tag, &sink, 0);
}

// A fence epoch in which an RMA call was made (Epochs::fence_used): it
// forbids opening another kind of epoch until the next fence closes it.
bool fence_epoch_in_use(const Epochs& e) { return e.fence && e.fence_used; }

// The window ranks of `handle`'s members, in group order (MPI_ERR_GROUP:
// not a group, or a member that is not in the window).
int window_ranks(Window* w, MPI_Group handle, std::vector<int>* out,
                 const char* function) {
  const Group* group = find_group(handle);
  if (group == nullptr) {
    return fail_win(
        w, MPI_ERR_GROUP, function,
        handle == MPI_GROUP_NULL ? "MPI_GROUP_NULL" : "invalid group");
  }
  const std::vector<std::int32_t>& members = w->comm->lpids;
  out->clear();
  out->reserve(group->lpids.size());
  for (std::size_t i = 0; i < group->lpids.size(); ++i) {
    int found = -1;
    for (std::size_t r = 0; r < members.size() && found < 0; ++r) {
      if (members[r] == group->lpids[i]) {
        found = static_cast<int>(r);
      }
    }
    if (found < 0) {
      return fail_win(w, MPI_ERR_GROUP, function,
                      "rank %zu of the group is not a member of the window", i);
    }
    out->push_back(found);
  }
  return MPI_SUCCESS;
}

// MPI_ERR_RANK unless `rank` is a rank of the window or MPI_PROC_NULL.
int check_target(Window* w, int rank, const char* function) {
  if (rank != MPI_PROC_NULL &&
      static_cast<unsigned>(rank) >= static_cast<unsigned>(w->size)) {
    return fail_win(w, MPI_ERR_RANK, function,
                    "rank %d is not a rank of the window (size %d)", rank,
                    w->size);
  }
  return MPI_SUCCESS;
}

// Waiting for a lock word: the holder runs on its own, but ranks outnumber
// the cores, so after a short spin give the core away, and after many
// rounds sleep briefly, in case the holder was descheduled. A release
// wakes no sleeper, so the sleep is always bounded.
void back_off(unsigned round) {
  (void)state().engine->progress();  // our own sends and receives move on
  if (round < 1000) {
    sched_yield();
    return;
  }
  const timespec pause{0, 50'000};  // 50 us
  nanosleep(&pause, nullptr);
}

void acquire(std::atomic<std::uint32_t>& word, int lock_type) {
  for (unsigned round = 0;; ++round) {
    // Relaxed: only a guess at the word; the CAS below decides.
    std::uint32_t seen = word.load(std::memory_order_relaxed);
    if (lock_type == MPI_LOCK_EXCLUSIVE) {
      // Acquire on success: pairs with the release in release() of the
      // previous holder(s), so their RMA writes to the target are seen.
      if (seen == 0 && word.compare_exchange_weak(seen, shmpi::rma::kExclusive,
                                                  std::memory_order_acquire,
                                                  std::memory_order_relaxed)) {
        return;
      }
    } else {
      // Shared holders are counted in the low bits; they never reach
      // kExclusive (at most one hold per process and window).
      if ((seen & shmpi::rma::kExclusive) == 0 &&
          word.compare_exchange_weak(seen, seen + 1, std::memory_order_acquire,
                                     std::memory_order_relaxed)) {
        return;
      }
    }
    back_off(round);
  }
}

void release(std::atomic<std::uint32_t>& word, int lock_type) {
  if (lock_type == MPI_LOCK_EXCLUSIVE) {
    // Release: pairs with the next holder's acquiring CAS and publishes
    // what this epoch wrote. A plain store is enough: while kExclusive is
    // set nobody else changes the word.
    word.store(0, std::memory_order_release);
  } else {
    // Release, for the same partner; an RMW because other shared holders
    // change the count concurrently.
    word.fetch_sub(1, std::memory_order_release);
  }
}

std::atomic<std::uint32_t>& lock_word(Window* w, int rank) {
  return w->lines[static_cast<std::size_t>(rank)].lock;
}

// The epochs a passive-target access epoch may not overlap (MPI 4.0
// §12.5: an access epoch is either active or passive): why one is open,
// or nullptr.
const char* active_access_open(const Epochs& e) {
  if (e.access_started) {
    return "an MPI_Win_start access epoch is open";
  }
  if (fence_epoch_in_use(e)) {
    return "a fence epoch with RMA calls is open (end it with "
           "MPI_Win_fence(MPI_MODE_NOSUCCEED))";
  }
  return nullptr;
}

int flush(MPI_Win win, int rank, bool all, const char* function) {
  Window* w = nullptr;
  if (int rc = check_win(win, &w, function); rc != MPI_SUCCESS) {
    return rc;
  }
  const Epochs& e = w->epochs;
  if (!all) {
    if (int rc = check_target(w, rank, function); rc != MPI_SUCCESS) {
      return rc;
    }
    if (rank == MPI_PROC_NULL) {
      return MPI_SUCCESS;
    }
  }
  EpochsGuard guard(*w);
  const bool covered =
      e.lock_all || (all ? e.locked_targets != 0
                         : e.locks[static_cast<std::size_t>(rank)] != 0);
  guard.unlock();
  if (!covered) {
    return all ? fail_win(w, MPI_ERR_RMA_SYNC, function,
                          "no passive-target epoch is open")
               : fail_win(w, MPI_ERR_RMA_SYNC, function,
                          "rank %d is not locked (MPI_Win_lock first)", rank);
  }
  // Every operation is complete already; the fence orders this process's
  // earlier accesses before its later ones, loads included (a store to the
  // target followed by a flag store another process polls, for one).
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Win_fence(int assert, MPI_Win win) noexcept {
  constexpr const char* kFunction = "MPI_Win_fence";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if ((assert & ~kFenceAsserts) != 0) {
    return fail_win(w, MPI_ERR_ASSERT, kFunction,
                    "assert %#x has bits other than MPI_MODE_NOSTORE, "
                    "_NOPUT, _NOPRECEDE and _NOSUCCEED",
                    static_cast<unsigned>(assert));
  }
  Epochs& e = w->epochs;
  if (e.access_started || e.exposure_posted || e.locked_targets != 0 ||
      e.lock_all) {
    return fail_win(w, MPI_ERR_RMA_SYNC, kFunction,
                    "an epoch of another kind is open (%s)",
                    e.access_started    ? "MPI_Win_start"
                    : e.exposure_posted ? "MPI_Win_post"
                                        : "MPI_Win_lock");
  }
  // The barrier orders every member's RMA calls and loads and stores before
  // the fence before every member's after it (its messages carry
  // release/acquire pairs).
  if (int rc = PMPI_Barrier(w->comm->handle); rc != MPI_SUCCESS) {
    return rc;  // raised on the window already (Comm::window)
  }
  e.fence = (assert& MPI_MODE_NOSUCCEED) == 0;
  e.fence_used = false;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_fence);

extern "C" int PMPI_Win_start(MPI_Group group, int assert,
                              MPI_Win win) noexcept {
  constexpr const char* kFunction = "MPI_Win_start";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  std::vector<int> targets;
  if (int rc = window_ranks(w, group, &targets, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if ((assert & ~MPI_MODE_NOCHECK) != 0) {
    return fail_win(w, MPI_ERR_ASSERT, kFunction,
                    "assert %#x has bits other than MPI_MODE_NOCHECK",
                    static_cast<unsigned>(assert));
  }
  Epochs& e = w->epochs;
  if (e.access_started) {
    return fail_win(w, MPI_ERR_RMA_SYNC, kFunction,
                    "an MPI_Win_start access epoch is already open");
  }
  if (e.locked_targets != 0 || e.lock_all) {
    return fail_win(w, MPI_ERR_RMA_SYNC, kFunction,
                    "a passive-target epoch is open");
  }
  if (fence_epoch_in_use(e)) {
    return fail_win(w, MPI_ERR_RMA_SYNC, kFunction,
                    "a fence epoch with RMA calls is open");
  }
  // Each target's MPI_Win_post message: its exposure epoch is open, so
  // it has finished its own accesses to its window (the message's
  // release/acquire orders them before ours). MPI_MODE_NOCHECK promises
  // the posts are done and sent none.
  if ((assert& MPI_MODE_NOCHECK) == 0) {
    for (int target : targets) {
      recv_empty(w, target, kPostTag);
    }
  }
  e.fence = false;
  e.access_started = true;
  e.access_group = std::move(targets);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_start);

extern "C" int PMPI_Win_complete(MPI_Win win) noexcept {
  constexpr const char* kFunction = "MPI_Win_complete";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  Epochs& e = w->epochs;
  if (!e.access_started) {
    return fail_win(w, MPI_ERR_RMA_SYNC, kFunction,
                    "no MPI_Win_start access epoch is open");
  }
  // Our operations are complete at the targets already; the message tells
  // each target so, and orders them before its MPI_Win_wait returns.
  for (int target : e.access_group) {
    send_empty(w, target, kCompleteTag);
  }
  e.access_started = false;
  e.access_group.clear();
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_complete);

extern "C" int PMPI_Win_post(MPI_Group group, int assert,
                             MPI_Win win) noexcept {
  constexpr const char* kFunction = "MPI_Win_post";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  std::vector<int> origins;
  if (int rc = window_ranks(w, group, &origins, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if ((assert & ~kPostAsserts) != 0) {
    return fail_win(w, MPI_ERR_ASSERT, kFunction,
                    "assert %#x has bits other than MPI_MODE_NOCHECK, "
                    "_NOSTORE and _NOPUT",
                    static_cast<unsigned>(assert));
  }
  Epochs& e = w->epochs;
  if (e.exposure_posted) {
    return fail_win(w, MPI_ERR_RMA_SYNC, kFunction,
                    "an MPI_Win_post exposure epoch is already open");
  }
  if (fence_epoch_in_use(e)) {
    return fail_win(w, MPI_ERR_RMA_SYNC, kFunction,
                    "a fence epoch with RMA calls is open");
  }
  if ((assert& MPI_MODE_NOCHECK) == 0) {
    for (int origin : origins) {
      send_empty(w, origin, kPostTag);
    }
  }
  e.fence = false;
  e.exposure_posted = true;
  e.exposure_completed.assign(origins.size(), 0);
  e.exposure_pending = static_cast<int>(origins.size());
  e.exposure_group = std::move(origins);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_post);

namespace {

void end_exposure(Epochs& e) {
  e.exposure_posted = false;
  e.exposure_group.clear();
  e.exposure_completed.clear();
  e.exposure_pending = 0;
}

}  // namespace

extern "C" int PMPI_Win_wait(MPI_Win win) noexcept {
  constexpr const char* kFunction = "MPI_Win_wait";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  Epochs& e = w->epochs;
  if (!e.exposure_posted) {
    return fail_win(w, MPI_ERR_RMA_SYNC, kFunction,
                    "no MPI_Win_post exposure epoch is open");
  }
  // The origins' MPI_Win_complete messages (those MPI_Win_test has not
  // taken yet): their operations are complete in our memory.
  for (std::size_t i = 0; i < e.exposure_group.size(); ++i) {
    if (e.exposure_completed[i] == 0) {
      recv_empty(w, e.exposure_group[i], kCompleteTag);
    }
  }
  end_exposure(e);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_wait);

extern "C" int PMPI_Win_test(MPI_Win win, int* flag) noexcept {
  constexpr const char* kFunction = "MPI_Win_test";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (flag == nullptr) {
    return fail_win(w, MPI_ERR_ARG, kFunction, "flag is NULL");
  }
  Epochs& e = w->epochs;
  if (!e.exposure_posted) {
    return fail_win(w, MPI_ERR_RMA_SYNC, kFunction,
                    "no MPI_Win_post exposure epoch is open");
  }
  // Take every complete message that has arrived (iprobe runs progress
  // first); a found message is queued, so the receive returns at once.
  // The per-origin marks keep what a failing test took.
  shmpi::p2p::Engine& engine = *state().engine;
  for (std::size_t i = 0; i < e.exposure_group.size(); ++i) {
    if (e.exposure_completed[i] != 0) {
      continue;
    }
    shmpi::p2p::Status status;
    if (engine.iprobe(w->comm->coll_recv_context_id, e.exposure_group[i],
                      kCompleteTag, &status)) {
      recv_empty(w, e.exposure_group[i], kCompleteTag);
      e.exposure_completed[i] = 1;
      --e.exposure_pending;
    }
  }
  if (e.exposure_pending > 0) {
    *flag = 0;
    return MPI_SUCCESS;
  }
  end_exposure(e);
  *flag = 1;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_test);

extern "C" int PMPI_Win_lock(int lock_type, int rank, int assert,
                             MPI_Win win) noexcept {
  constexpr const char* kFunction = "MPI_Win_lock";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE) {
    return fail_win(w, MPI_ERR_LOCKTYPE, kFunction,
                    "lock type %d is neither MPI_LOCK_SHARED nor "
                    "MPI_LOCK_EXCLUSIVE",
                    lock_type);
  }
  if (int rc = check_target(w, rank, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if ((assert & ~MPI_MODE_NOCHECK) != 0) {
    return fail_win(w, MPI_ERR_ASSERT, kFunction,
                    "assert %#x has bits other than MPI_MODE_NOCHECK",
                    static_cast<unsigned>(assert));
  }
  // Like MPICH: an epoch on no process, which MPI_Win_unlock(MPI_PROC_NULL)
  // ends as trivially.
  if (rank == MPI_PROC_NULL) {
    return MPI_SUCCESS;
  }
  Epochs& e = w->epochs;
  const auto target = static_cast<std::size_t>(rank);
  {
    // Errors are raised without the lock: a handler may call MPI.
    EpochsGuard guard(*w);
    if (e.lock_all || e.locks[target] != 0) {
      const bool all = e.lock_all;
      guard.unlock();
      return fail_win(w, MPI_ERR_RMA_SYNC, kFunction,
                      "rank %d is locked already (%s)", rank,
                      all ? "MPI_Win_lock_all" : "MPI_Win_lock");
    }
    if (const char* open = active_access_open(e)) {
      guard.unlock();
      return fail_win(w, MPI_ERR_RMA_SYNC, kFunction, "%s", open);
    }
  }
  const bool nocheck = (assert& MPI_MODE_NOCHECK) != 0;
  if (!nocheck) {
    acquire(lock_word(w, rank), lock_type);  // not under the epochs' lock
  }
  EpochsGuard guard(*w);
  e.fence = false;
  e.locks[target] = lock_type;
  e.lock_nocheck[target] = nocheck ? 1 : 0;
  ++e.locked_targets;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_lock);

extern "C" int PMPI_Win_unlock(int rank, MPI_Win win) noexcept {
  constexpr const char* kFunction = "MPI_Win_unlock";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (int rc = check_target(w, rank, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if (rank == MPI_PROC_NULL) {
    return MPI_SUCCESS;
  }
  Epochs& e = w->epochs;
  const auto target = static_cast<std::size_t>(rank);
  EpochsGuard guard(*w);
  const int lock_type = e.locks[target];
  const bool nocheck = e.lock_nocheck[target] != 0;
  if (lock_type == 0) {
    guard.unlock();
    return fail_win(w, MPI_ERR_RMA_SYNC, kFunction,
                    "rank %d is not locked (MPI_Win_lock first)", rank);
  }
  e.locks[target] = 0;
  e.lock_nocheck[target] = 0;
  --e.locked_targets;
  guard.unlock();
  if (!nocheck) {
    release(lock_word(w, rank), lock_type);
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_unlock);

extern "C" int PMPI_Win_lock_all(int assert, MPI_Win win) noexcept {
  constexpr const char* kFunction = "MPI_Win_lock_all";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  if ((assert & ~MPI_MODE_NOCHECK) != 0) {
    return fail_win(w, MPI_ERR_ASSERT, kFunction,
                    "assert %#x has bits other than MPI_MODE_NOCHECK",
                    static_cast<unsigned>(assert));
  }
  Epochs& e = w->epochs;
  {
    EpochsGuard guard(*w);
    if (e.lock_all || e.locked_targets != 0) {
      const bool all = e.lock_all;
      guard.unlock();
      return fail_win(w, MPI_ERR_RMA_SYNC, kFunction,
                      "a passive-target epoch is open already (%s)",
                      all ? "MPI_Win_lock_all" : "MPI_Win_lock");
    }
    if (const char* open = active_access_open(e)) {
      guard.unlock();
      return fail_win(w, MPI_ERR_RMA_SYNC, kFunction, "%s", open);
    }
  }
  const bool nocheck = (assert& MPI_MODE_NOCHECK) != 0;
  if (!nocheck) {
    // In rank order, shared: shared holders never wait for each other, and
    // a waiting exclusive request holds nothing, so no cycle forms here.
    for (int rank = 0; rank < w->size; ++rank) {
      acquire(lock_word(w, rank), MPI_LOCK_SHARED);
    }
  }
  EpochsGuard guard(*w);
  e.fence = false;
  e.lock_all = true;
  e.lock_all_nocheck = nocheck;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_lock_all);

extern "C" int PMPI_Win_unlock_all(MPI_Win win) noexcept {
  constexpr const char* kFunction = "MPI_Win_unlock_all";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  Epochs& e = w->epochs;
  EpochsGuard guard(*w);
  if (!e.lock_all) {
    guard.unlock();
    return fail_win(w, MPI_ERR_RMA_SYNC, kFunction,
                    "no MPI_Win_lock_all epoch is open");
  }
  const bool nocheck = e.lock_all_nocheck;
  e.lock_all = false;
  e.lock_all_nocheck = false;
  guard.unlock();
  if (!nocheck) {
    for (int rank = 0; rank < w->size; ++rank) {
      release(lock_word(w, rank), MPI_LOCK_SHARED);
    }
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_unlock_all);

extern "C" int PMPI_Win_flush(int rank, MPI_Win win) noexcept {
  return flush(win, rank, false, "MPI_Win_flush");
}
SHMPI_PMPI_ALIAS(MPI_Win_flush);

extern "C" int PMPI_Win_flush_local(int rank, MPI_Win win) noexcept {
  return flush(win, rank, false, "MPI_Win_flush_local");
}
SHMPI_PMPI_ALIAS(MPI_Win_flush_local);

extern "C" int PMPI_Win_flush_all(MPI_Win win) noexcept {
  return flush(win, MPI_PROC_NULL, true, "MPI_Win_flush_all");
}
SHMPI_PMPI_ALIAS(MPI_Win_flush_all);

extern "C" int PMPI_Win_flush_local_all(MPI_Win win) noexcept {
  return flush(win, MPI_PROC_NULL, true, "MPI_Win_flush_local_all");
}
SHMPI_PMPI_ALIAS(MPI_Win_flush_local_all);

extern "C" int PMPI_Win_sync(MPI_Win win) noexcept {
  constexpr const char* kFunction = "MPI_Win_sync";
  Window* w = nullptr;
  if (int rc = check_win(win, &w, kFunction); rc != MPI_SUCCESS) {
    return rc;
  }
  // Synchronises the private and public copy, which are one here
  // (MPI_WIN_UNIFIED); what remains is ordering this process's loads and
  // stores to the window memory around the call, the store->load pair
  // included, as the shared-memory idioms built on MPI_Win_sync expect.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Win_sync);
