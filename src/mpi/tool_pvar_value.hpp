// SPDX-License-Identifier: MIT
// The value one performance-variable handle shows (MPI 4.0 section 15.3.7),
// computed from samples of the variable's source: a counter's running
// total, a level's current value, or a high-water mark's peaks. Pure
// arithmetic, no locking: the caller (tool_pvar_handle_api.cpp) serialises
// the calls with tool::state_mutex() and supplies the samples.
#pragma once

#include <algorithm>
#include <cstdint>

namespace shmpi::mpi::tool {

enum class PvarKind {
  // A level, size or state: reads the source's current value while
  // started; a stopped handle keeps the value it had when stopped (the
  // value at allocation if never started).
  kLevel,
  // A counter: counts what the source counted while the handle was
  // started; starts at 0.
  kCounter,
  // A high-water mark: the largest level seen while started, starting
  // from the level at allocation, start or reset. The source reports peaks
  // between samples through observe_peak().
  kHighWatermark,
};

class PvarHandleValue {
 public:
  // A continuous handle is started from the start and never stops.
  PvarHandleValue(PvarKind kind, bool continuous, std::uint64_t sample)
      : kind_(kind),
        started_(continuous),
        value_(kind == PvarKind::kCounter ? 0 : sample),
        base_(sample) {}

  bool started() const { return started_; }

  void start(std::uint64_t sample) {
    if (started_) {
      return;
    }
    started_ = true;
    if (kind_ == PvarKind::kCounter) {
      base_ = sample;
    } else if (kind_ == PvarKind::kHighWatermark) {
      value_ = std::max(value_, sample);
    }
  }

  void stop(std::uint64_t sample) {
    if (!started_) {
      return;
    }
    value_ = read(sample);
    started_ = false;
  }

  // High-water marks: `peak` is the largest level since the previous
  // observation; it counts only while the handle is started.
  void observe_peak(std::uint64_t peak) {
    if (started_ && kind_ == PvarKind::kHighWatermark) {
      value_ = std::max(value_, peak);
    }
  }

  std::uint64_t read(std::uint64_t sample) const {
    if (!started_) {
      return value_;
    }
    switch (kind_) {
      case PvarKind::kLevel:
        return sample;
      case PvarKind::kCounter:
        return value_ + (sample - base_);  // modulo 2^64, as the source
      case PvarKind::kHighWatermark:
        return std::max(value_, sample);
    }
    return value_;
  }

  // Back to the starting value: 0 for a counter, the current level else.
  void reset(std::uint64_t sample) {
    write(kind_ == PvarKind::kCounter ? 0 : sample, sample);
  }

  // The handle shows `value` now; a started counter counts on from it.
  void write(std::uint64_t value, std::uint64_t sample) {
    value_ = value;
    base_ = sample;
  }

 private:
  PvarKind kind_;
  bool started_;
  // Counter: the count up to the last start (while stopped: the value).
  // Level: the value when stopped. High-water mark: the mark so far.
  std::uint64_t value_;
  std::uint64_t base_;  // counter: the source's count at the last start
};

}  // namespace shmpi::mpi::tool
