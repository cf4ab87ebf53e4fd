// SPDX-License-Identifier: MIT
// Engine internals shared by its source files: per-peer state and the
// optional progress lock.
#pragma once

#include <atomic>
#include <mutex>

#include "p2p/engine.hpp"
#include "shm_queues/spsc_ring.hpp"

namespace shmpi::p2p {

struct Engine::Peer {
  std::uint32_t slot = 0;
  shm_queues::RingProducer producer;  // this rank -> peer
  shm_queues::RingConsumer consumer;  // peer -> this rank
  Request* queue_head = nullptr;      // sends waiting for ring room, in order
  Request* queue_tail = nullptr;
  bool active = false;
  bool in_queued_list = false;
  // Where to look first in the peer's chunk pool: after the chunk we took
  // last (shm_queues::take_chunk). A hint only; relaxed, since threads
  // sending to the peer at once may race on it harmlessly.
  std::atomic<std::uint32_t> chunk_cursor{0};
  std::mutex send_mutex;  // MPI_THREAD_MULTIPLE only: guards producer and queue
};

// A partitioned RTS that arrived before its MPI_Precv_init.
struct Engine::PartRts {
  matching::UnexpectedEntry entry;  // context, source, tag, arrival order
  std::uint64_t channel_offset = 0;
  std::uint32_t sender_slot = 0;
};

// Takes the mutex only when the program asked for MPI_THREAD_MULTIPLE.
// True on the thread running the background tasks (Engine::run_tasks),
// which holds the progress lock: a task may start sends and receives (the
// intercommunicator collectives do) without locking it again.
// initial-exec: one byte of static TLS, no __tls_get_addr on the lock path.
[[gnu::tls_model("initial-exec")]] inline thread_local bool running_tasks =
    false;

class Engine::ProgressLock {
 public:
  ProgressLock(std::mutex& mutex, bool enabled)
      : mutex_(enabled && !running_tasks ? &mutex : nullptr) {
    if (mutex_ != nullptr) {
      mutex_->lock();
    }
  }
  ~ProgressLock() {
    if (mutex_ != nullptr) {
      mutex_->unlock();
    }
  }
  ProgressLock(const ProgressLock&) = delete;
  ProgressLock& operator=(const ProgressLock&) = delete;

 private:
  std::mutex* mutex_;
};

}  // namespace shmpi::p2p
