// SPDX-License-Identifier: MIT
// SpscRing round trip between two processes pinned to different cores: an
// eager message (envelope + payload) goes out on one ring and comes back on
// another, as between two ranks. Reports the round trip and one-way time.
#include <benchmark/benchmark.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <vector>

#include "matching/envelope.hpp"
#include "shm_queues/spsc_ring.hpp"
#include "topo/topo.hpp"

namespace shmpi::shm_queues {
namespace {

constexpr std::uint32_t kRingCells = 64;
constexpr std::size_t kRingBytes = align_up(
    segment::kRingHeaderBytes + kRingCells * segment::kCellBytes, kPageSize);
constexpr std::int32_t kStopTag = -1;

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Sends one eager message: envelope and payload in the head cell, the rest
// of the payload in continuation cells. Spins while the ring is full.
void send(RingProducer& ring, const std::byte* payload, std::size_t bytes,
          std::int32_t tag) {
  const std::uint32_t cells = matching::eager_cells(bytes);
  while (!ring.has_room(cells)) {
    cpu_relax();
  }
  matching::Envelope envelope{};
  envelope.protocol = matching::Protocol::kEager;
  envelope.source = 0;
  envelope.tag = tag;
  envelope.set_length(bytes);
  Cell& head = ring.cell(0);
  matching::write_envelope(head, envelope);
  std::size_t chunk = std::min(bytes, matching::kHeadPayloadBytes);
  std::memcpy(matching::head_payload(head), payload, chunk);
  std::size_t done = chunk;
  for (std::uint32_t k = 1; k < cells; ++k) {
    Cell& cell = ring.cell(k);
    cell.seq.store(kContinuation, std::memory_order_relaxed);
    chunk = std::min(bytes - done, matching::kContinuationPayloadBytes);
    std::memcpy(cell.body, payload + done, chunk);
    done += chunk;
  }
  (void)ring.publish(cells);  // both sides poll: nobody parks
}

// Receives one eager message into `payload`; returns its tag.
std::int32_t receive(RingConsumer& ring, std::byte* payload,
                     std::size_t* bytes) {
  const Cell* head;
  while ((head = ring.peek()) == nullptr) {
    cpu_relax();
  }
  const matching::Envelope envelope = matching::read_envelope(*head);
  const std::size_t length = envelope.length();
  std::size_t chunk = std::min(length, matching::kHeadPayloadBytes);
  std::memcpy(payload, matching::head_payload(*head), chunk);
  std::size_t done = chunk;
  const std::uint32_t cells = matching::eager_cells(length);
  for (std::uint32_t k = 1; k < cells; ++k) {
    chunk = std::min(length - done, matching::kContinuationPayloadBytes);
    std::memcpy(payload + done, ring.cell(k).body, chunk);
    done += chunk;
  }
  (void)ring.release(cells);  // the echo partner never waits for room
  *bytes = length;
  return envelope.tag;
}

void BM_SpscRing_PingPong(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  // Ranks 0 and 1 of two under the core policy: two different cores (not
  // two hardware threads of one core), as shmpirun places them.
  if (topo::core_count() < 2) {
    state.SkipWithError("needs two cores");
    return;
  }
  void* memory = ::mmap(nullptr, 2 * kRingBytes, PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) {
    state.SkipWithError("mmap failed");
    return;
  }
  auto* ping_ring = static_cast<std::byte*>(memory);  // parent -> child
  std::byte* pong_ring = ping_ring + kRingBytes;      // child -> parent

  cpu_set_t saved;
  ::sched_getaffinity(0, sizeof saved, &saved);
  const pid_t parent = ::getpid();
  const pid_t child = ::fork();
  if (child == 0) {
    // The echo partner: returns every message until the stop tag.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) {
      ::_exit(1);
    }
    topo::bind_current_process(1, 2, topo::BindPolicy::kCore);
    RingConsumer in(ping_ring, kRingCells);
    RingProducer out(pong_ring, kRingCells);
    std::vector<std::byte> buffer(64 * 1024);
    while (true) {
      std::size_t length = 0;
      const std::int32_t tag = receive(in, buffer.data(), &length);
      if (tag == kStopTag) {
        ::_exit(0);
      }
      send(out, buffer.data(), length, tag);
    }
  }
  if (child < 0) {
    ::munmap(memory, 2 * kRingBytes);
    state.SkipWithError("fork failed");
    return;
  }
  topo::bind_current_process(0, 2, topo::BindPolicy::kCore);
  RingProducer out(ping_ring, kRingCells);
  RingConsumer in(pong_ring, kRingCells);
  std::vector<std::byte> message(bytes, std::byte{0x5a});
  std::vector<std::byte> reply(64 * 1024);
  std::size_t reply_bytes = 0;
  for (int i = 0; i < 1000; ++i) {  // warm up: caches, TLB, both cores awake
    send(out, message.data(), bytes, 1);
    receive(in, reply.data(), &reply_bytes);
  }

  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    send(out, message.data(), bytes, 1);
    receive(in, reply.data(), &reply_bytes);
    benchmark::DoNotOptimize(reply.data());
  }
  const auto elapsed = std::chrono::steady_clock::now() - start;

  send(out, message.data(), 0, kStopTag);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::sched_setaffinity(0, sizeof saved, &saved);
  ::munmap(memory, 2 * kRingBytes);

  const auto iterations = static_cast<double>(state.iterations());
  const double rtt_ns =
      static_cast<double>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed)
              .count()) /
      iterations;
  state.counters["rtt_ns"] = rtt_ns;
  state.counters["one_way_ns"] = rtt_ns / 2;
  state.counters["cells"] = matching::eager_cells(bytes);
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() *
                          static_cast<std::int64_t>(2 * bytes));
}
BENCHMARK(BM_SpscRing_PingPong)
    ->ArgName("bytes")
    ->Arg(8)
    ->Arg(40)
    ->Arg(256)
    ->Arg(1024)
    ->UseRealTime();

}  // namespace
}  // namespace shmpi::shm_queues
