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
  // yield after one look.
  kYieldAtOnce,
};

}  // namespace shmpi::p2p
