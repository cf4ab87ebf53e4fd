// SPDX-License-Identifier: MIT
// Request: one point-to-point operation of this process. Lives in process
// memory (never in the segment); the MPI layer hands it out as MPI_Request.
//
// Threads: `complete` is written by whichever thread's progress finished the
// operation (release) and read by waiters (acquire); every other field is
// owned by the engine under its lock, or by the user thread before the
// request is started.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "datatype/pack.hpp"
#include "matching/envelope.hpp"
#include "matching/match_engine.hpp"

namespace shmpi::p2p {

struct UnexpectedMessage;

enum class RequestKind : std::uint8_t {
  kSend,
  kRecv,
  kPartSend,  // MPI_Psend_init (src/partitioned)
  kPartRecv,  // MPI_Precv_init
  // A nonblocking or persistent collective: the MPI layer's collective
  // driver completes it, never the engine.
  kCollective,
  // MPI_Grequest_start: the program completes it (mpi/grequest.hpp).
  kGeneralized,
};
enum class SendMode : std::uint8_t {
  kStandard,
  kSynchronous,
  kReady,
  kBuffered
};

enum class SendState : std::uint8_t {
  kIdle,
  kRendezvous,  // slot taken, chunks being filled; envelope not yet pushed
  kRendezvousPushed,  // envelope in the ring; waiting for done
};

struct Status {
  std::int32_t source = 0;
  std::int32_t tag = 0;
  std::int32_t error = 0;  // MPI error class of the operation, 0 on success
  bool cancelled = false;
  std::uint64_t bytes = 0;
};

struct Request {
  static constexpr std::uint32_t kMagic = 0x52657131;  // "Req1"
  std::uint32_t magic = kMagic;
  RequestKind kind = RequestKind::kSend;
  SendMode mode = SendMode::kStandard;
  bool persistent = false;
  bool active = false;  // persistent: started and not yet completed by a wait
  bool user_freed = false;  // MPI_Request_free while still in flight
  bool internal = false;    // created by the library (buffered-send copy)
  std::atomic<bool> complete{false};

  // What the operation is about.
  datatype::Layout layout;  // send data, or receive buffer capacity
  // Owns layout.map (a derived datatype's flattened form) while the
  // request lives, so MPI_Type_free during the operation is safe.
  std::shared_ptr<const datatype::TypeMap> map_owner;
  std::int32_t peer = 0;  // comm rank, MPI_ANY_SOURCE or MPI_PROC_NULL
  std::int32_t tag = 0;
  std::int32_t my_rank = 0;  // sender's rank in the communicator
  std::uint16_t context_id = 0;
  std::uint32_t peer_slot = 0;  // segment slot of the peer (sends)
  void* comm = nullptr;         // the MPI-layer communicator (error handler)
  void* user_object =
      nullptr;  // MPI layer's bookkeeping (datatype refs, bsend block)

  Status status;

  // Compound requests (MPI_Isendrecv): the parts point at the request the
  // user holds; it completes when its last part does, with the status of
  // the part marked status_to_parent. `scratch` keeps send data alive for
  // MPI_Isendrecv_replace until the request is released.
  Request* parent = nullptr;
  std::atomic<std::uint32_t> pending_parts{0};
  bool status_to_parent = false;
  std::unique_ptr<std::byte[]> scratch;

  // Receive side.
  matching::PostedEntry posted;
  UnexpectedMessage* waiting_on =
      nullptr;  // matched an unexpected message still draining
  // Rendezvous receive (draining chunks from the sender's slot).
  std::uint32_t rndv_sender = 0;
  std::uint32_t rndv_slot = 0;
  std::uint64_t rndv_consumed = 0;
  std::uint64_t rndv_total_bytes = 0;

  // Send side.
  SendState send_state = SendState::kIdle;
  Request* next_queued = nullptr;  // per-peer FIFO of queued sends
  std::uint32_t slot_index = 0;
  std::uint64_t chunks_published = 0;
  std::uint64_t chunks_total = 0;
  bool eager_rendezvous = false;  // completes once every chunk is published
  // Up to eager_max bytes from a buffer in the shared heap: no chunks; the
  // receiver copies straight from the buffer, at once even before a receive
  // matches (so the send completes without a match, as an eager one does).
  bool heap_offer = false;
  // The caller waits for this send before it returns (MPI_Send, MPI_Rsend,
  // MPI_Bsend's own send): a heap buffer below kSplitMin then goes through
  // a chunk, which completes once packed, rather than by the offer, which
  // ties the return to the receiver's copy (Engine::try_push_chunk).
  bool caller_waits = false;
  bool sync_ack =
      false;  // internal: carries a synchronous-send acknowledgement
  std::uint64_t ack_cookie = 0;

  // Partitioned communication (src/partitioned).
  // Internal: carries a kPartRts or kPartWithdraw control message.
  bool part_control = false;
  matching::Protocol part_protocol = matching::Protocol::kPartRts;
  // Receive: the RTS that matched (written under the progress lock, then
  // published by part_matched's release; readers acquire part_matched).
  std::uint64_t part_channel = 0;  // segment offset of the channel record
  std::uint32_t part_sender_slot = 0;
  std::atomic<bool> part_matched{false};
  // State owned by the module that runs this kind of request, released by
  // its deleter: the partitioned module's side (kPartSend, kPartRecv; it
  // releases the channel) or a persistent collective's arguments
  // (kCollective; the datatypes and operation they hold). Null otherwise.
  std::shared_ptr<void> owned;

  Status* status_out() { return &status; }
};

}  // namespace shmpi::p2p
