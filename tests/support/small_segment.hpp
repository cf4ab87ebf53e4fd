// SPDX-License-Identifier: MIT
// Small segments for unit tests of what lives in them: tiny rings and
// pools (a few slots), and a heap of the size asked.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <utility>

#include "segment/segment.hpp"

namespace shmpi::test {

// A segment of `nranks` ranks in `capacity` slots with small rings, pools
// and rendezvous slots; fails the test and aborts if it cannot be made.
inline segment::Segment small_segment(std::uint32_t nranks,
                                      std::uint32_t capacity,
                                      std::uint64_t heap_bytes) {
  segment::SegmentConfig config;
  config.nranks = nranks;
  config.capacity = capacity;
  config.ring_cells = 16;
  config.chunk_bytes = 4096;
  config.chunks_per_rank = 4;
  config.rendezvous_slots = 4;
  config.heap_bytes = heap_bytes;
  auto created = segment::Segment::create(config, 0);
  if (!created) {
    ADD_FAILURE() << "cannot create a segment: " << created.error().what;
    std::abort();
  }
  return std::move(created).value();
}

// Two ranks, for the shared heap and its users.
inline segment::Segment segment_with_heap(std::uint64_t heap_bytes) {
  return small_segment(2, 2, heap_bytes);
}

}  // namespace shmpi::test
