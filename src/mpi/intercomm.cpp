// SPDX-License-Identifier: MIT
// Intercommunicators (seeds 000 and 002/004): MPI_Intercomm_create by
// leaders exchanging gpid arrays through the peer communicator, dup and
// split of intercommunicators (each group agrees on its receive context on
// its own block, the leaders swap), and MPI_Intercomm_merge (both groups'
// masks ANDed by the leaders).
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <type_traits>
#include <vector>

#include "lpid/members.hpp"
#include "mpi/coll_common.hpp"
#include "mpi/comm.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/lpid_table.hpp"

using namespace shmpi;
using namespace shmpi::mpi;
using namespace shmpi::mpi::coll;
using contextid::ContextId;

namespace {

// Leader traffic of MPI_Intercomm_create travels on the peer
// communicator's collective context; the user's tag keeps concurrent
// creations apart, shifted below zero so that it can never meet the
// library's own (non-negative) collective tags.
int leader_tag(int tag) { return INT_MIN + tag; }

// Gpids travel between leaders as bytes.
static_assert(std::is_trivially_copyable_v<lpid::Gpid>);

struct LeaderHeader {
  std::uint32_t context_id;
  std::int32_t size;
  std::int32_t error;  // set by a leader that found the groups overlapping
  std::int32_t pad;
};

}  // namespace

namespace shmpi::mpi {

Comm* build_intercomm(const Comm& local_parent, const SplitResult& local,
                      ContextId remote_context,
                      const std::vector<std::int32_t>& remote_lpids) {
  Comm* lc = make_intracomm(local_parent, local);
  if (lc == nullptr) {
    return nullptr;
  }
  // The local group's own communicator gets the derived localcomm ID (L
  // bit): no agreement, and freeing it releases nothing.
  lc->context_id = lc->recv_context_id = contextid::localcomm(local.id);
  lc->coll_context_id = lc->coll_recv_context_id =
      contextid::collective(lc->context_id);
  Comm* c = state().comms.create();
  if (c == nullptr) {
    destroy_comm(lc);
    return nullptr;
  }
  c->is_inter = true;
  c->recv_context_id = local.id;
  c->context_id = remote_context;
  c->coll_recv_context_id = contextid::collective(local.id);
  c->coll_context_id = contextid::collective(remote_context);
  c->rank = lc->rank;
  c->size = lc->size;
  c->lpids = lc->lpids;
  c->remote_lpids = remote_lpids;
  c->remote_size = static_cast<int>(remote_lpids.size());
  c->slots = slots_of(remote_lpids);
  c->local_comm = lc;
  c->handle = reinterpret_cast<MPI_Comm>(c);  // NOLINT: handles are pointers
  return c;
}

void undo_local(const SplitResult& local) {
  if (local.joined) {
    arbiter().release(local.id);
  }
}

}  // namespace shmpi::mpi

extern "C" int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader,
                                     MPI_Comm peer_comm, int remote_leader,
                                     int tag, MPI_Comm* newintercomm) noexcept {
  constexpr const char* kFn = "MPI_Intercomm_create";
  if (int rc = check_initialized(kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  Comm* lc = nullptr;
  if (int rc = check_comm(local_comm, &lc, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (lc->is_inter) {
    return fail(lc, MPI_ERR_COMM, kFn,
                "the local communicator must be an intracommunicator");
  }
  if (newintercomm == nullptr) {
    return fail(lc, MPI_ERR_ARG, kFn, "newintercomm is NULL");
  }
  if (local_leader < 0 || local_leader >= lc->size) {
    return fail(lc, MPI_ERR_RANK, kFn,
                "invalid local leader %d (local communicator size %d)",
                local_leader, lc->size);
  }
  if (int rc = check_send_tag(lc, tag, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  const bool leader = lc->rank == local_leader;
  Comm* peer = nullptr;
  if (leader) {
    if (int rc = check_comm(peer_comm, &peer, kFn); rc != MPI_SUCCESS) {
      return rc;
    }
    if (remote_leader < 0 || remote_leader >= peer->peer_count()) {
      return fail(lc, MPI_ERR_RANK, kFn,
                  "invalid remote leader %d (peer communicator size %d)",
                  remote_leader, peer->peer_count());
    }
  }
  // 1. The receive context, from the local group's masks, on its block.
  SplitResult local;
  const char* why = "";
  if (int rc = split_round(*lc, 0, lc->rank, 0, &local, &why);
      rc != MPI_SUCCESS) {
    return fail_static(lc, rc, kFn, why);
  }
  // 2. Leaders exchange sizes, contexts and gpid arrays (seed 002).
  LeaderHeader mine{local.id, lc->size, 0, 0};
  LeaderHeader theirs{};
  std::vector<lpid::Gpid> remote_gpids;
  if (leader) {
    // Local gpids first, the remote ones appended: one array for the
    // duplicate check.
    std::vector<lpid::Gpid> both = gpids_of(lc->lpids).gpids;
    coll_sendrecv(peer, remote_leader, leader_tag(tag), &mine, sizeof mine,
                  &theirs, sizeof theirs);
    remote_gpids.resize(static_cast<std::size_t>(theirs.size));
    coll_sendrecv(peer, remote_leader, leader_tag(tag), both.data(),
                  both.size() * sizeof(lpid::Gpid), remote_gpids.data(),
                  remote_gpids.size() * sizeof(lpid::Gpid));
    // The groups must be disjoint (MPI 4.0 section 7.6.2).
    both.insert(both.end(), remote_gpids.begin(), remote_gpids.end());
    if (lpid::find_duplicate(both)) {
      theirs.error = 1;
    }
  }
  // 3. The leader tells its group (a broadcast on the local communicator).
  bcast_tree(lc, &theirs, sizeof theirs, local_leader);
  remote_gpids.resize(static_cast<std::size_t>(theirs.size));
  bcast_tree(lc, remote_gpids.data(), remote_gpids.size() * sizeof(lpid::Gpid),
             local_leader);
  if (theirs.error != 0) {
    undo_local(local);
    *newintercomm = MPI_COMM_NULL;
    return fail(lc, MPI_ERR_ARG, kFn,
                "the local and remote groups overlap (a process is in both)");
  }
  std::vector<std::int32_t> remote_lpids(remote_gpids.size());
  if (!to_lpids(remote_gpids, remote_lpids)) {
    undo_local(local);
    *newintercomm = MPI_COMM_NULL;
    return fail(lc, MPI_ERR_INTERN, kFn, "a remote process is unknown");
  }
  Comm* c = build_intercomm(
      *lc, local, static_cast<ContextId>(theirs.context_id), remote_lpids);
  if (c == nullptr) {
    undo_local(local);
    return fail(lc, MPI_ERR_NO_MEM, kFn, "out of communicator handles");
  }
  c->errhandler = lc->errhandler;
  *newintercomm = c->handle;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_Intercomm_create);

namespace shmpi::mpi {

int dup_intercomm(Comm& parent, Comm** out, const char** why) {
  Comm* lc = parent.local_comm;
  SplitResult local;
  if (int rc = split_round(*lc, 0, lc->rank, 0, &local, why);
      rc != MPI_SUCCESS) {
    return rc;
  }
  std::uint32_t remote_context = 0;
  if (lc->rank == 0) {
    const std::uint32_t mine = local.id;
    coll_sendrecv(&parent, 0, kLeaderTag, &mine, sizeof mine, &remote_context,
                  sizeof remote_context);
  }
  bcast_tree(lc, &remote_context, sizeof remote_context, 0);
  Comm* c = build_intercomm(*lc, local, static_cast<ContextId>(remote_context),
                            parent.remote_lpids);
  if (c == nullptr) {
    undo_local(local);
    *why = "out of communicator handles";
    return MPI_ERR_NO_MEM;
  }
  // Same groups in the same order: the lpid lists are the parent's.
  *out = c;
  return MPI_SUCCESS;
}

int split_intercomm(Comm& parent, int color, int key, Comm** out,
                    const char** why) {
  Comm* lc = parent.local_comm;
  SplitResult local;
  if (int rc = split_round(*lc, color, key, 0, &local, why);
      rc != MPI_SUCCESS) {
    return rc;
  }
  // Leaders swap (context, size) and every member's color and key.
  const std::int32_t n = lc->size;
  std::vector<std::int32_t> mine(2 + 2 * static_cast<std::size_t>(n));
  mine[0] = static_cast<std::int32_t>(local.id);
  mine[1] = n;
  for (std::int32_t i = 0; i < n; ++i) {
    mine[2 + 2 * static_cast<std::size_t>(i)] =
        local.colors[static_cast<std::size_t>(i)];
    mine[3 + 2 * static_cast<std::size_t>(i)] =
        local.keys[static_cast<std::size_t>(i)];
  }
  std::int32_t header[2] = {0, 0};
  std::vector<std::int32_t> theirs;
  if (lc->rank == 0) {
    coll_sendrecv(&parent, 0, kLeaderTag, mine.data(), 2 * sizeof(std::int32_t),
                  header, sizeof header);
    theirs.resize(2 * static_cast<std::size_t>(header[1]));
    coll_sendrecv(&parent, 0, kLeaderTag, mine.data() + 2,
                  (mine.size() - 2) * sizeof(std::int32_t), theirs.data(),
                  theirs.size() * sizeof(std::int32_t));
  }
  bcast_tree(lc, header, sizeof header, 0);
  theirs.resize(2 * static_cast<std::size_t>(header[1]));
  bcast_tree(lc, theirs.data(), theirs.size() * sizeof(std::int32_t), 0);
  if (!local.joined) {
    *out = nullptr;
    return MPI_SUCCESS;
  }
  std::vector<int> remote_ranks;
  for (int r = 0; r < header[1]; ++r) {
    if (theirs[2 * static_cast<std::size_t>(r)] == color) {
      remote_ranks.push_back(r);
    }
  }
  std::stable_sort(remote_ranks.begin(), remote_ranks.end(), [&](int a, int b) {
    return theirs[2 * static_cast<std::size_t>(a) + 1] <
           theirs[2 * static_cast<std::size_t>(b) + 1];
  });
  if (remote_ranks.empty()) {
    undo_local(local);
    *out = nullptr;
    return MPI_SUCCESS;
  }
  std::vector<std::int32_t> remote_lpids;
  for (int r : remote_ranks) {
    remote_lpids.push_back(parent.remote_lpids[static_cast<std::size_t>(r)]);
  }
  Comm* c = build_intercomm(*lc, local, static_cast<ContextId>(header[0]),
                            remote_lpids);
  if (c == nullptr) {
    undo_local(local);
    *why = "out of communicator handles";
    return MPI_ERR_NO_MEM;
  }
  *out = c;
  return MPI_SUCCESS;
}

}  // namespace shmpi::mpi

extern "C" int PMPI_Intercomm_merge(MPI_Comm intercomm, int high,
                                    MPI_Comm* newintracomm) noexcept {
  constexpr const char* kFn = "MPI_Intercomm_merge";
  if (int rc = check_initialized(kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  Comm* c = nullptr;
  if (int rc = check_comm(intercomm, &c, kFn); rc != MPI_SUCCESS) {
    return rc;
  }
  if (!c->is_inter) {
    return fail(c, MPI_ERR_COMM, kFn, "not an intercommunicator");
  }
  if (newintracomm == nullptr) {
    return fail(c, MPI_ERR_ARG, kFn, "newintracomm is NULL");
  }
  Comm* lc = c->local_comm;
  // Decision the leaders reach and broadcast to their groups.
  struct Decision {
    std::int32_t status;  // 0 ok, 1 retry, 2 no ID, 3 retry on the whole mask
    std::uint32_t id;
    std::uint64_t generation;  // of the lowest slot of both groups
    std::int32_t local_first;
    std::int32_t no_free;
  };
  // Blocking rounds' part of the mask, then all of it
  // (contextid/arbiter.hpp).
  contextid::Arbiter::Reach reach = contextid::Arbiter::Reach::kBlocking;
  for (;;) {
    GroupOffer mine{};
    if (int rc = merge_offer_round(*lc, high, 1, reach, &mine);
        rc != MPI_SUCCESS) {
      return fail(c, rc, kFn, "no block for the local group's round");
    }
    Decision decision{};
    if (lc->rank == 0) {
      GroupOffer theirs{};
      coll_sendrecv(c, 0, kLeaderTag, &mine, sizeof mine, &theirs,
                    sizeof theirs);
      // Both leaders compute the same decision from the same two offers.
      if (mine.all_real == 0 || theirs.all_real == 0) {
        decision.status = 1;
      } else {
        const std::uint32_t* masks[2] = {mine.mask, theirs.mask};
        std::vector<ContextId> ids = contextid::agree(masks, 1);
        if (ids.empty() && (mine.lent_out | theirs.lent_out) != 0) {
          decision.status = 1;  // IDs lent to other rounds: once more
        } else if (ids.empty() && reach != contextid::Arbiter::Reach::kAll) {
          decision.status = 3;
        } else if (ids.empty()) {
          decision.status = 2;
          decision.no_free =
              static_cast<std::int32_t>(mine.no_free | theirs.no_free);
        } else {
          decision.id = ids[0];
        }
      }
      const bool local_low_slot = mine.lowest_slot < theirs.lowest_slot;
      decision.generation =
          local_low_slot ? mine.generation : theirs.generation;
      decision.local_first = (mine.high == theirs.high)
                                 ? (local_low_slot ? 1 : 0)
                                 : (mine.high == 0 ? 1 : 0);
    }
    bcast_tree(lc, &decision, sizeof decision, 0);
    if (decision.status == 1 || decision.status == 3) {
      settle_merge(*lc, 1, false, true, 0);
      if (decision.status == 3) {
        reach = contextid::Arbiter::Reach::kAll;
      }
      continue;
    }
    if (decision.status == 2) {
      settle_merge(*lc, 1, false, false, 0);
      return fail_static(
          c, MPI_ERR_OTHER, kFn,
          decision.no_free != 0
              ? "too many communicators: a member process has no "
                "free context ID left"
              : "no context ID is free on every member process");
    }
    const auto id = static_cast<ContextId>(decision.id);
    settle_merge(*lc, 1, true, false, id);
    std::vector<std::int32_t> lpids;
    std::vector<std::uint32_t> slots;
    const std::vector<std::uint32_t> local_slots = slots_of(c->lpids);
    int rank = c->rank;
    if (decision.local_first != 0) {
      lpids = c->lpids;
      lpids.insert(lpids.end(), c->remote_lpids.begin(), c->remote_lpids.end());
      slots = local_slots;
      slots.insert(slots.end(), c->slots.begin(), c->slots.end());
    } else {
      lpids = c->remote_lpids;
      lpids.insert(lpids.end(), c->lpids.begin(), c->lpids.end());
      slots = c->slots;
      slots.insert(slots.end(), local_slots.begin(), local_slots.end());
      rank += c->remote_size;
    }
    Comm* merged = make_comm_from(slots, lpids, rank, id, decision.generation);
    if (merged == nullptr) {
      return fail(c, MPI_ERR_NO_MEM, kFn, "out of communicator handles");
    }
    merged->errhandler = c->errhandler;
    *newintracomm = merged->handle;
    return MPI_SUCCESS;
  }
}
SHMPI_PMPI_ALIAS(MPI_Intercomm_merge);
