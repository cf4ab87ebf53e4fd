// SPDX-License-Identifier: MIT
// UnexpectedMessage: a message that arrived before any receive matched it.
// Eager payloads are copied out of the ring at once (so rings never stall on
// an unmatched message); rendezvous messages keep the sender's slot. Those
// small enough to complete at the sender (eager rendezvous) stay parked in
// their staging chunk, so the receive that matches them copies once; they
// are drained into `data` (spilled) only when a sender waits for chunks
// and the receiver is not taking them (Engine::relieve_pool_pressure).
#pragma once

#include <cstddef>
#include <cstdint>

#include "matching/envelope.hpp"
#include "matching/match_engine.hpp"

namespace shmpi::p2p {

struct Request;

struct UnexpectedMessage {
  matching::UnexpectedEntry entry;  // context, source, tag, arrival order
  matching::Protocol protocol = matching::Protocol::kEager;
  bool sync = false;
  bool eager_rendezvous = false;  // completed at the sender
  bool parked = false;            // eager rendezvous left in its chunk
  bool drained = false;           // data holds every byte
  std::uint32_t sender_slot = 0;
  std::uint64_t length = 0;
  std::uint64_t sync_cookie = 0;
  std::uint32_t slot_index = 0;  // kChunk: the chunk's index in our pool
  std::uint64_t consumed = 0;    // chunks drained into data
  Request* waiting = nullptr;    // a receive matched it before it was drained
  std::byte* data = nullptr;     // inline_data or heap memory
  alignas(16) std::byte inline_data[128];
};

}  // namespace shmpi::p2p
