// SPDX-License-Identifier: MIT
// Reductions whose unit does not fit a round: a user function's datatype of
// more than kBulk packed bytes per element. Rounds split data only at whole
// units, since a user function is handed whole elements, so such an element
// cannot travel through a bulk buffer. Instead each member stages its packed
// contribution in the shared heap a batch at a time, one round per batch
// says where, and every member folds what it needs of the batch straight
// from the others' copies.
#pragma once

#include <cstddef>

#include "coll/intra.hpp"
#include "coll/task.hpp"

namespace shmpi::coll {

// True when a reduction of `type` with `op` goes through reduce_staged():
// a user operation whose element is larger than a bulk buffer. Predefined
// operations split an element into its predefined parts (intra.cpp:
// unit_of), which always fit.
bool stages_units(const TypeArg& type, const OpArg& op);

// What one member of reduce_staged() folds: units [lo, hi) of the
// contributions of members first..last, into its receive buffer from
// packed offset 0. Nothing when last < first or hi == lo.
struct StagedShare {
  int first = 0;
  int last = -1;
  std::size_t lo = 0;
  std::size_t hi = 0;
};

// Every member contributes `count` units (elements of `type`, count > 0,
// the same on every member) from `send` and folds its `share` into `recv`,
// as fold() does: from the right (x(i) op acc), so in rank order for a
// non-commutative operation and bit-identical on every member that folds
// the same share. The units go in batches of as many whole units as fit a
// bulk buffer, at least one, through two staging buffers per member that
// take turns, so the shared heap holds two batches per member whatever
// `count` is: one round per batch (the batch's place, which also says
// its sender has folded the batch before), then a release round (nobody
// frees its buffers while another member may read them). A member packs
// each batch of `send` before it writes that part of `recv` (a share lands
// at or below its place in `send`), so `send` may overlap `recv` (in
// place). Ends the job if the shared heap has no
// room for the staging buffers, as the rounds' own buffers do.
Task reduce_staged(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
                   std::size_t count, StagedShare share);

}  // namespace shmpi::coll
