// SPDX-License-Identifier: MIT
// PollHint: how a wait starts when ranks outnumber cores, from what the
// caller knows about where the awaited rank runs (Engine::wait_until,
// docs/design.md#waiting).
#pragma once

namespace shmpi::p2p {

enum class PollHint {
  kAsUsual,
  // The awaited rank runs on another core and nobody on ours has work to
  // do: poll up to Engine::kPollLongerTicks more before the first yield,
  // while the hint holds.
  kLonger,
  // The awaited rank shares our core, so it cannot run while we poll:
  // yield at once. For conditions on the collective scratch area, which
  // done() reads itself.
  kYieldAtOnce,
  // The same for a message from that rank: one progress() pass first,
  // since done() does not poll the rings and the mate may have sent
  // before we got the core (a yield then hands the core back to it for
  // a wait of its own).
  kLookThenYield,
};

}  // namespace shmpi::p2p
