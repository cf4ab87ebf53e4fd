// SPDX-License-Identifier: MIT
// A small two-rank segment for unit tests of what lives in it (the shared
// heap and its users): tiny rings and pools, and a heap of the size asked.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <utility>

#include "segment/segment.hpp"

namespace shmpi::test {

inline segment::Segment segment_with_heap(std::uint64_t heap_bytes) {
  segment::SegmentConfig config;
  config.nranks = 2;
  config.capacity = 2;
  config.ring_cells = 8;
  config.chunk_bytes = 4096;
  config.chunks_per_rank = 1;
  config.rendezvous_slots = 1;
  config.heap_bytes = heap_bytes;
  auto created = segment::Segment::create(config, 0);
  if (!created) {
    ADD_FAILURE() << created.error().what;
    std::abort();
  }
  return std::move(created).value();
}

}  // namespace shmpi::test
