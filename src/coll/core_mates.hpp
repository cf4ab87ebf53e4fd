// SPDX-License-Identifier: MIT
// How a collective waits when ranks outnumber cores, knowing which members
// share this process's core (docs/design.md#waiting). A member that polls
// keeps its core from the mates it shares it with, and a sched_yield hands
// the core to any of them, so:
// - a member that waits for a mate yields at once: the mate cannot run
//   while we poll;
// - a reader that waits for a root bound to another core polls longer
//   before its first yield, unless a mate of ours is behind with rounds
//   of its own to finish; so does a member of a round everyone waits for
//   once all its mates have arrived;
// - in communicators with rooted rounds, the mates leave a round in which
//   everyone waits for everyone in rank order: the lowest first, since
//   a reader that leaves before the root that shares its core (typically
//   rank 0 of a core) has to hand the core over inside its next call.
#pragma once

#include "mpi/comm.hpp"
#include "p2p/engine.hpp"

namespace shmpi::coll {

using mpi::Comm;

// How to wait for member `awaited` to publish the current round:
// kYieldAtOnce when it is bound to this process's core; kLonger when it is
// bound to another and every mate has published at least the round before
// the current one (it waits as we do, or has at most one round's
// copy-out left); else kAsUsual, as when some member or this process is
// not bound to one core.
p2p::PollHint poll_hint_for_root(Comm& comm, int awaited);

// A reader of a rooted round calls this before it waits: the communicator
// has rooted rounds (leave_all_arrived()).
void note_rooted_round(Comm& comm);

// How to wait for every member to publish the current round: kYieldAtOnce
// while a mate has not; once every mate has, kLonger (only members on
// other cores are missing, and nobody on ours can do anything for the
// round). The polling-longer hints become kAsUsual when ranks outside the
// communicator share our core.
p2p::PollHint poll_hint_for_all(Comm& comm);

// How to wait for member `awaited` to publish the current round where the
// round may be anything (the coroutine collectives' waits): kYieldAtOnce
// when it is bound to this process's core; kLonger when every mate has
// published the current round (so only other cores can finish it) and no
// rank outside the communicator shares the core; else kAsUsual.
p2p::PollHint poll_hint_for_member(Comm& comm, int awaited);

// A point-to-point receive of this process waits for a message from
// segment slot `slot`, bound to our core: the next round in which everyone
// waits for everyone lets that sender leave first (leave_all_arrived).
// Call only when shares_my_core(slot). Point-to-point receives and
// collective steps' receives (mpi/coll_requests.hpp) call it.
void note_mate_sender(std::uint32_t slot);

// After a round in which every member waited for every other, this process
// lets one mate leave first by yielding once if that mate has not
// published a later round yet:
// - when this communicator had a rooted round since the last such round
//   and this process is not the lowest member on its core: the lowest
//   (typically the root);
// - else, when this process last waited for a message from a mate that is
//   a member (note_mate_sender): that mate, so that it sends before we
//   wait for it again.
void leave_all_arrived(Comm& comm);

// Whether the process in segment slot `slot` is bound to this process's
// core (bound_to_my_core), asked only while ranks outnumber cores: a peer
// that cannot run while we poll. Inline: point-to-point receives ask it.
bool bound_to_my_core(std::uint32_t slot);
inline bool shares_my_core(std::uint32_t slot) {
  return mpi::state().engine->config().oversubscribed && bound_to_my_core(slot);
}

// The members of `comm` bound to the same core as this process, in rank
// order, found once per communicator when ranks outnumber cores; false
// when they do not, or some member (or this process) is not bound to one
// core.
bool find_core_mates(Comm& comm);

}  // namespace shmpi::coll
