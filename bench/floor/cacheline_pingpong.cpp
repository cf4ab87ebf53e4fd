// SPDX-License-Identifier: MIT
// The physical floor under any shared-memory MPI: two processes pinned to two
// cores bounce one cache line (and the flag + ack pair of lines) through a
// MAP_SHARED anonymous mapping, and one core's memcpy bandwidth. Prints
// machine-readable lines, medians over timing batches:
//   floor cacheline_oneway ns=58.1 ...     one line, both sides write it
//   floor flag_ack_oneway ns=116.0 ...     two lines, each written by one side
//   floor barrier_two_lines ns=... ...     a two-process barrier: each side's
//   floor barrier_one_line ns=... ...      word on its own line, or both in one
//   floor bcast_after_barrier_8 ns=... ... a broadcast of 8 bytes (or 1 KiB)
//                                          timed alone after a barrier, as the
//                                          MPI benchmark times it: the reader's
//                                          time from leaving the barrier to
//                                          holding the data
//   floor memcpy bytes=65536 gbps=41.0 ... bytes copied per second / 1e9
//   floor alltoall_copies bytes=65536 us=4.1 ... a two-process alltoall's
//                                          copies (own block, and the other's
//                                          block read in place), per call
//   floor yield_handoff ns=950 ...         two processes on one core hand it
//                                          to each other with sched_yield
//   floor barrier_on_two procs=4 ns=1500  four processes, two on each core,
//                                          meet in barriers: a process whose
//                                          core mate is behind yields to it
//   floor alltoall_on_two procs=8 bytes=65536 us=180 ...  4 or 8 processes
//                                          on two cores, each step their
//                                          alltoall's copies (own block,
//                                          the others' read in place) and
//                                          such a barrier
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kLineStride = 128;  // adjacent-line prefetch pairs lines

static_assert(std::atomic<std::uint64_t>::is_always_lock_free,
              "the shared words must be address-free across processes");

struct Options {
  int core_a = 0;
  int core_b = 1;
  int batches = 21;
  long round_trips = 100000;   // per batch
  double time_limit_s = 20.0;  // for the whole program
  bool quick = false;
};

struct Stats {
  double median = 0;
  double mean = 0;
  double min = 0;
  double max = 0;
};

Stats summarize(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  Stats s;
  const std::size_t n = v.size();
  s.median = (n % 2 == 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  s.min = v.front();
  s.max = v.back();
  for (double x : v) {
    s.mean += x;
  }
  s.mean /= static_cast<double>(n);
  return s;
}

bool pin_to_core(int core) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(static_cast<std::size_t>(core), &set);
  return sched_setaffinity(0, sizeof(set), &set) == 0;
}

// Forks a child that runs body() pinned to `core`, then exits 0 (3 when it
// cannot be pinned). Returns its pid, or -1 (said on stderr). The child
// dies with the parent, so a parent ended by a timeout leaves no spinner.
template <typename Body>
pid_t fork_pinned(int core, Body&& body) {
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child < 0) {
    std::perror("floor: fork");
    return -1;
  }
  if (child == 0) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) {
      _exit(4);
    }
    if (!pin_to_core(core)) {
      _exit(3);
    }
    body();
    _exit(0);
  }
  return child;
}

// Waits for a child of fork_pinned(): false, said on stderr, unless it
// exited 0.
bool child_succeeded(pid_t child, int core) {
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "floor: child failed (cannot pin to core %d?)\n",
                 core);
    return false;
  }
  return true;
}

// A zeroed MAP_SHARED anonymous mapping that a forked child shares, or
// nullptr (said on stderr).
unsigned char* map_shared(std::size_t bytes) {
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) {
    std::perror("floor: mmap");
    return nullptr;
  }
  return static_cast<unsigned char*>(mem);
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Spins until word == value. No pause instruction: this measures the floor,
// and on recent Intel cores `pause` alone costs more than a line transfer.
inline void spin_until(const std::atomic<std::uint64_t>& word,
                       std::uint64_t value) {
  while (word.load(std::memory_order_acquire) != value) {
  }
}

// Spins until word >= value, with a pause per poll: here the reader waits
// two transfers or more (the root must first see the barrier), and a poll
// that takes the line back at every turn delays the root's store to it
// (measured: 0.28-0.34 us with the pause, 0.37-0.49 without).
inline void spin_until_at_least(const std::atomic<std::uint64_t>& word,
                                std::uint64_t value) {
  while (word.load(std::memory_order_acquire) < value) {
    __builtin_ia32_pause();
  }
}

// The responder's version: also gives up once the initiator raises `stop` to
// `phase`. stop has its own line, written once per phase, so polling it costs
// a load that hits the responder's cache.
inline bool spin_until_or_stop(const std::atomic<std::uint64_t>& word,
                               std::uint64_t value,
                               const std::atomic<std::uint64_t>& stop,
                               std::uint64_t phase) {
  while (word.load(std::memory_order_acquire) != value) {
    if (stop.load(std::memory_order_relaxed) >= phase) {
      return false;
    }
  }
  return true;
}

// One line, both sides write it. The initiator turns even into odd, the
// responder odd into even, so every store hands the line over once: one
// one-way transfer per increment.
void one_line_responder(std::atomic<std::uint64_t>& word,
                        const std::atomic<std::uint64_t>& stop) {
  for (std::uint64_t v = 1; spin_until_or_stop(word, v, stop, 1); v += 2) {
    // Release: pairs with the initiator's acquire in spin_until.
    word.store(v + 1, std::memory_order_release);
  }
}

// Two lines: flag written only by the initiator, ack only by the responder. A
// round trip moves each line once.
void flag_ack_responder(const std::atomic<std::uint64_t>& flag,
                        std::atomic<std::uint64_t>& ack,
                        const std::atomic<std::uint64_t>& stop) {
  for (std::uint64_t i = 1; spin_until_or_stop(flag, i, stop, 2); ++i) {
    // Release: pairs with the initiator's acquire of ack.
    ack.store(i, std::memory_order_release);
  }
}

// Two processes meet in a barrier: each raises its own word to the
// barrier's number, then waits until the other's word has it too. The
// words on two lines (each written by one side, as in per-member slots) or
// in one line (as in the collectives' small lane). Gives up once `stop`
// reaches `phase` (the initiator passes no stop).
inline bool meet(std::atomic<std::uint64_t>& mine,
                 const std::atomic<std::uint64_t>& theirs, std::uint64_t n,
                 const std::atomic<std::uint64_t>* stop, std::uint64_t phase) {
  // Release / acquire: each side's earlier writes reach the other.
  mine.store(n, std::memory_order_release);
  while (theirs.load(std::memory_order_acquire) < n) {
    if (stop != nullptr && stop->load(std::memory_order_relaxed) >= phase) {
      return false;
    }
  }
  return true;
}

void barrier_responder(std::atomic<std::uint64_t>& mine,
                       const std::atomic<std::uint64_t>& theirs,
                       const std::atomic<std::uint64_t>& stop,
                       std::uint64_t phase) {
  for (std::uint64_t n = 1; meet(mine, theirs, n, &stop, phase); ++n) {
  }
}

// The root's side of a broadcast timed after a barrier: writes `bytes` of
// data and raises flag to n, then meets the reader in barrier n; gives up
// once `stop` reaches `phase`.
void bcast_root(std::atomic<std::uint64_t>& flag, unsigned char* data,
                std::size_t bytes, std::atomic<std::uint64_t>& mine,
                const std::atomic<std::uint64_t>& theirs,
                const std::atomic<std::uint64_t>& stop, std::uint64_t phase) {
  for (std::uint64_t n = 1;; ++n) {
    std::memset(data, static_cast<int>(n), bytes);
    // Release: the data before the flag, for the reader's acquire.
    flag.store(n, std::memory_order_release);
    if (!meet(mine, theirs, n, &stop, phase)) {
      return;
    }
  }
}

// One phase of the parent's measurements: batch 0 warms up, then up to
// `batches` timed batches of up to `trips` steps each. Once `budget` has
// passed (looked at every kCheckEvery steps) the batch under way ends and
// still counts with the steps it did (a loaded machine makes spinning
// slow), and no batch follows.
struct Phase {
  Clock::duration budget;
  std::uint64_t batches;
  std::uint64_t trips;
};
constexpr std::uint64_t kCheckEvery = 4096;

// Runs a phase. step() does one step and returns the part of it to time,
// or zero to time all of it; end_batch() runs before a batch's clock
// stops. Returns each timed batch's nanoseconds per step divided by
// `per_step` (2: a round trip is two one-way transfers); *truncated tells
// whether the budget ran out.
template <typename Step, typename EndBatch>
std::vector<double> time_batches(const Phase& phase, double per_step,
                                 Step&& step, EndBatch&& end_batch,
                                 bool* truncated) {
  std::vector<double> ns;
  *truncated = false;
  const auto deadline = Clock::now() + phase.budget;
  for (std::uint64_t b = 0; b <= phase.batches && !*truncated; ++b) {
    const auto t0 = Clock::now();
    Clock::duration counted{};
    std::uint64_t i = 0;
    while (i < phase.trips) {
      counted += step();
      ++i;
      if (i % kCheckEvery == 0 && Clock::now() > deadline) {
        *truncated = true;
        break;
      }
    }
    end_batch();
    const Clock::duration elapsed =
        counted != Clock::duration::zero() ? counted : Clock::now() - t0;
    if (b > 0 || *truncated) {
      ns.push_back(std::chrono::duration<double>(elapsed).count() * 1e9 /
                   (per_step * static_cast<double>(i)));
    }
  }
  return ns;
}

void print_stats(const char* name, const std::vector<double>& ns,
                 long round_trips) {
  const Stats s = summarize(ns);
  std::printf(
      "floor %s ns=%.1f mean=%.1f min=%.1f max=%.1f round_trips=%ld "
      "batches=%d\n",
      name, s.median, s.mean, s.min, s.max, round_trips,
      static_cast<int>(ns.size()));
  std::fflush(stdout);
}

// Runs the two ping-pong variants between a parent on core_a and a forked
// child on core_b. Returns false if the child failed.
bool run_pingpong(const Options& opt) {
  constexpr std::size_t kMapBytes = 8192;  // the words, then broadcast data
  constexpr std::size_t kDataAt = 4096;
  constexpr std::size_t kBcastBytes[2] = {8, 1024};
  unsigned char* base = map_shared(kMapBytes);
  if (base == nullptr) {
    return false;
  }
  // Placement new: the mapping is zeroed, the atomics start at 0.
  auto* one = new (base) std::atomic<std::uint64_t>(0);
  auto* flag = new (base + kLineStride) std::atomic<std::uint64_t>(0);
  auto* ack = new (base + 2 * kLineStride) std::atomic<std::uint64_t>(0);
  auto* stop = new (base + 3 * kLineStride) std::atomic<std::uint64_t>(0);
  // Barrier words: [0] the initiator's, [1] the responder's.
  std::atomic<std::uint64_t>* apart[2] = {
      new (base + 4 * kLineStride) std::atomic<std::uint64_t>(0),
      new (base + 5 * kLineStride) std::atomic<std::uint64_t>(0)};
  std::atomic<std::uint64_t>* together[2] = {
      new (base + 6 * kLineStride) std::atomic<std::uint64_t>(0),
      new (base + 6 * kLineStride + sizeof(std::uint64_t))
          std::atomic<std::uint64_t>(0)};
  // Per broadcast size: the root's flag, then the root's and the reader's
  // barrier words, each on its own line.
  std::atomic<std::uint64_t>* bcast_words[2][3];
  for (std::size_t k = 0; k < 2; ++k) {
    for (std::size_t w = 0; w < 3; ++w) {
      bcast_words[k][w] = new (base + (7 + 3 * k + w) * kLineStride)
          std::atomic<std::uint64_t>(0);
    }
  }
  unsigned char* bcast_data = base + kDataAt;
  static_assert(13 * kLineStride <= kDataAt && kDataAt + 1024 <= kMapBytes);

  const auto batches = static_cast<std::uint64_t>(opt.batches);
  const auto trips = static_cast<std::uint64_t>(opt.round_trips);
  // Each phase may use half of the time limit; a batch cut short by it still
  // counts with the round trips it did (a loaded machine makes spinning slow).
  const auto phase_budget = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(opt.time_limit_s / 2));

  const pid_t child = fork_pinned(opt.core_b, [&] {
    one_line_responder(*one, *stop);
    flag_ack_responder(*flag, *ack, *stop);
    barrier_responder(*apart[1], *apart[0], *stop, 3);
    barrier_responder(*together[1], *together[0], *stop, 4);
    for (std::size_t k = 0; k < 2; ++k) {
      bcast_root(*bcast_words[k][0], bcast_data, kBcastBytes[k],
                 *bcast_words[k][1], *bcast_words[k][2], *stop, 5 + k);
    }
  });
  if (child < 0) {
    return false;
  }
  if (!pin_to_core(opt.core_a)) {
    std::fprintf(stderr, "floor: cannot pin to core %d\n", opt.core_a);
  }

  // The parent's side of each phase. The stop word tells the child's
  // loop that the phase is over (it waits for a step that never comes).
  const Phase phase{phase_budget, batches, trips};
  const Phase half_phase{phase_budget / 2, batches, trips};
  bool truncated = false;
  std::uint64_t v = 0;
  const std::vector<double> one_ns = time_batches(
      phase, 2,
      [&] {
        spin_until(*one, v);
        // Release: pairs with the responder's acquire.
        one->store(v + 1, std::memory_order_release);
        v += 2;
        return Clock::duration::zero();
      },
      [&] { spin_until(*one, v); },  // the last hand-back of the batch
      &truncated);
  stop->store(1,
              std::memory_order_relaxed);  // the responder is waiting for v + 1
  bool truncated_any = truncated;

  std::uint64_t next = 1;
  const std::vector<double> pair_ns = time_batches(
      phase, 2,
      [&] {
        // Release: pairs with the responder's acquire of flag.
        flag->store(next, std::memory_order_release);
        spin_until(*ack, next);
        ++next;
        return Clock::duration::zero();
      },
      [] {}, &truncated);
  stop->store(2, std::memory_order_relaxed);
  truncated_any |= truncated;

  // Barriers, words apart then together; the time of one barrier.
  std::vector<double> barrier_ns[2];
  for (int layout = 0; layout < 2; ++layout) {
    std::atomic<std::uint64_t>** words = layout == 0 ? apart : together;
    std::uint64_t n = 1;
    barrier_ns[layout] = time_batches(
        half_phase, 1,
        [&] {
          meet(*words[0], *words[1], n, nullptr, 0);
          ++n;
          return Clock::duration::zero();
        },
        [] {}, &truncated);
    truncated_any |= truncated;
    stop->store(static_cast<std::uint64_t>(3 + layout),
                std::memory_order_relaxed);
  }

  // Broadcasts timed after a barrier: the child is the root, this process
  // the reader, whose time from leaving barrier n - 1 to holding broadcast
  // n's data is what is timed, two clock reads included (as MPI_Wtime in
  // the MPI benchmark).
  std::vector<double> bcast_ns[2];
  std::vector<unsigned char> copy(1024);
  for (std::size_t k = 0; k < 2; ++k) {
    const std::atomic<std::uint64_t>& bcast_flag = *bcast_words[k][0];
    std::uint64_t n = 1;
    bcast_ns[k] = time_batches(
        half_phase, 1,
        [&] {
          const auto t0 = Clock::now();
          spin_until_at_least(bcast_flag, n);
          std::memcpy(copy.data(), bcast_data, kBcastBytes[k]);
          asm volatile("" : : "r"(copy.data()) : "memory");
          const Clock::duration in_bcast = Clock::now() - t0;
          meet(*bcast_words[k][2], *bcast_words[k][1], n, nullptr, 0);
          ++n;
          return in_bcast;
        },
        [] {}, &truncated);
    truncated_any |= truncated;
    // The root waits in barrier n (or writes broadcast n): it gives up.
    stop->store(5 + k, std::memory_order_relaxed);
  }
  if (truncated_any) {
    std::printf("# floor: time limit reached, fewer batches than asked\n");
  }

  const bool child_ok = child_succeeded(child, opt.core_b);
  munmap(base, kMapBytes);
  if (!child_ok) {
    return false;
  }
  print_stats("cacheline_oneway", one_ns, opt.round_trips);
  print_stats("flag_ack_oneway", pair_ns, opt.round_trips);
  print_stats("barrier_two_lines", barrier_ns[0], opt.round_trips);
  print_stats("barrier_one_line", barrier_ns[1], opt.round_trips);
  print_stats("bcast_after_barrier_8", bcast_ns[0], opt.round_trips);
  print_stats("bcast_after_barrier_1024", bcast_ns[1], opt.round_trips);
  return true;
}

void* alloc_touched(std::size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    std::perror("floor: mmap");
    std::exit(1);
  }
  std::memset(p, 0x5a, bytes);
  return p;
}

// memcpy bandwidth on core_a; each batch copies at least 256 MiB (or one
// buffer) so that small sizes are timed over many copies.
void run_memcpy(const Options& opt) {
  const std::size_t sizes[] = {64u << 10, 1u << 20, 4u << 20, 256u << 20};
  const std::size_t per_batch_bytes = opt.quick ? (64u << 20) : (256u << 20);
  const int batches = opt.quick ? 5 : 11;
  pin_to_core(opt.core_a);
  for (std::size_t bytes : sizes) {
    void* src = alloc_touched(bytes);
    void* dst = alloc_touched(bytes);
    const std::size_t reps = std::max<std::size_t>(1, per_batch_bytes / bytes);
    std::vector<double> gbps;
    for (int b = -1; b < batches; ++b) {  // b == -1 is warm-up
      const auto t0 = Clock::now();
      for (std::size_t r = 0; r < reps; ++r) {
        std::memcpy(dst, src, bytes);
        // Keeps the copies: dst escapes and memory is clobbered.
        asm volatile("" : : "r"(dst) : "memory");
      }
      const double s = seconds_since(t0);
      if (b >= 0) {
        gbps.push_back(static_cast<double>(bytes * reps) / s / 1e9);
      }
    }
    const Stats st = summarize(gbps);
    std::printf(
        "floor memcpy bytes=%zu gbps=%.2f mean=%.2f min=%.2f max=%.2f "
        "reps=%zu batches=%d\n",
        bytes, st.median, st.mean, st.min, st.max, reps, batches);
    std::fflush(stdout);
    munmap(src, bytes);
    munmap(dst, bytes);
  }
}

// A two-process alltoall's copies: each process copies its own block and
// the other's block for it (read in place from the other's send buffer, as
// a single-copy transport does), then the two meet in a barrier. This is
// the least memory traffic any two-rank MPI_Alltoall of these blocks can
// cause. Returns false if the child failed.
bool run_alltoall(const Options& opt) {
  const std::size_t blocks[] = {64u << 10, 1u << 20};
  const int batches = opt.quick ? 5 : 11;
  for (std::size_t block : blocks) {
    // Two send and two receive buffers of two blocks each, after a page of
    // barrier words: [0] the parent's, [1] the child's, [2] stop.
    const std::size_t bytes = 4096 + 8 * block;
    unsigned char* base = map_shared(bytes);
    if (base == nullptr) {
      return false;
    }
    std::atomic<std::uint64_t>* words[3];
    for (std::size_t w = 0; w < 3; ++w) {
      words[w] = new (base + w * kLineStride) std::atomic<std::uint64_t>(0);
    }
    unsigned char* data = base + 4096;
    std::memset(data, 0x5a, 8 * block);
    auto exchange = [&](int me) {
      const std::size_t other = 1 - static_cast<std::size_t>(me);
      const std::size_t mine = static_cast<std::size_t>(me);
      unsigned char* send_mine = data + mine * 2 * block;
      unsigned char* send_other = data + other * 2 * block;
      unsigned char* recv = data + (4 + mine * 2) * block;
      std::memcpy(recv + mine * block, send_mine + mine * block, block);
      std::memcpy(recv + other * block, send_other + mine * block, block);
    };
    const pid_t child = fork_pinned(opt.core_b, [&] {
      for (std::uint64_t n = 1;; ++n) {
        exchange(1);
        if (!meet(*words[1], *words[0], n, words[2], 1)) {
          return;
        }
      }
    });
    if (child < 0) {
      return false;
    }
    pin_to_core(opt.core_a);
    // About 64 MiB copied per batch and process.
    const std::uint64_t reps = std::max<std::size_t>(1, (32u << 20) / block);
    std::vector<double> us;
    std::uint64_t n = 1;
    for (int b = -1; b < batches; ++b) {  // b == -1 is warm-up
      const auto t0 = Clock::now();
      for (std::uint64_t r = 0; r < reps; ++r, ++n) {
        exchange(0);
        meet(*words[0], *words[1], n, nullptr, 0);
      }
      if (b >= 0) {
        us.push_back(seconds_since(t0) * 1e6 / static_cast<double>(reps));
      }
    }
    words[2]->store(1, std::memory_order_relaxed);  // the child gives up
    const bool child_ok = child_succeeded(child, opt.core_b);
    munmap(base, bytes);
    if (!child_ok) {
      return false;
    }
    const Stats st = summarize(us);
    std::printf(
        "floor alltoall_copies bytes=%zu us=%.2f mean=%.2f min=%.2f "
        "max=%.2f reps=%llu batches=%d\n",
        block, st.median, st.mean, st.min, st.max,
        static_cast<unsigned long long>(reps), batches);
    std::fflush(stdout);
  }
  return true;
}

// Two processes on one core (core_a) hand it to each other with
// sched_yield: the least a collective round costs per core when ranks
// outnumber cores and each rank of a core must run once per round.
bool run_yield_handoff(const Options& opt) {
  unsigned char* mem = map_shared(4096);
  if (mem == nullptr) {
    return false;
  }
  auto* turn = new (mem) std::atomic<std::uint64_t>(0);
  const int batches = opt.quick ? 5 : 11;
  const std::uint64_t per_batch = opt.quick ? 5000 : 20000;  // handoffs
  const std::uint64_t total = (static_cast<std::uint64_t>(batches) + 1) *
                              per_batch;  // batch 0 is warm-up
  // Each side waits for its parity, then passes the turn on: one handoff
  // per increment.
  auto play = [&](std::uint64_t parity, std::vector<double>* ns) {
    auto t0 = Clock::now();
    for (std::uint64_t n = parity; n < total; n += 2) {
      // Acquire / release: a plain handoff, as between two ranks.
      while (turn->load(std::memory_order_acquire) != n) {
        sched_yield();
      }
      turn->store(n + 1, std::memory_order_release);
      if (ns != nullptr && (n + 2) % per_batch == 0) {
        if (n + 2 > per_batch) {  // past the warm-up batch
          ns->push_back(seconds_since(t0) * 1e9 /
                        static_cast<double>(per_batch));
        }
        t0 = Clock::now();
      }
    }
  };
  const pid_t child = fork_pinned(opt.core_a, [&] { play(1, nullptr); });
  if (child < 0) {
    return false;
  }
  pin_to_core(opt.core_a);
  std::vector<double> ns;
  play(0, &ns);
  const bool child_ok = child_succeeded(child, opt.core_a);
  munmap(mem, 4096);
  if (!child_ok || ns.empty()) {
    return false;
  }
  print_stats("yield_handoff", ns, static_cast<long>(per_batch));
  return true;
}

// `procs` processes, the even ones pinned to core_a and the odd ones to
// core_b (as shmpirun binds that many ranks on two cores), each running
// step after step of: its share of an alltoall of `block`-byte blocks (its
// own block, and every other process's block for it read in place from
// that process's send buffer, as a single-copy transport does; nothing
// when block is 0), then a barrier. In the barrier each process raises
// its own word (a line each) to the step's number and polls the others';
// while a mate on its core is behind it yields, since the mate cannot run
// while it polls. Every process must run once per step, so each core hands
// itself over at least once per step (yield_handoff): that part bounds
// any library from below. The rest is a plain model, not a bound: with
// block 0 a barrier of that many ranks on two cores, with blocks an
// alltoall's least memory traffic and such a barrier (a library that
// polls more cleverly may beat it by a little). Prints the median per
// step.
bool run_on_two_cores(const Options& opt, int procs, std::size_t block) {
  const auto n = static_cast<std::size_t>(procs);
  const std::size_t words_bytes = 4096;
  const std::size_t buffer = n * block;  // one process's send (or receive)
  const std::size_t bytes = words_bytes + 2 * n * buffer;
  unsigned char* base = map_shared(bytes);
  if (base == nullptr) {
    return false;
  }
  std::vector<std::atomic<std::uint64_t>*> words(n);
  for (std::size_t p = 0; p < n; ++p) {
    words[p] = new (base + p * kLineStride) std::atomic<std::uint64_t>(0);
  }
  unsigned char* sends = base + words_bytes;
  unsigned char* recvs = sends + n * buffer;
  std::memset(sends, 0x5a, n * buffer);
  const int batches = opt.quick ? 5 : 11;
  std::uint64_t per_batch = opt.quick ? 5000 : 20000;  // steps
  if (block != 0) {  // about 32 MiB copied per batch and process
    per_batch = std::max<std::uint64_t>(1, (32u << 20) / buffer);
  }
  const std::uint64_t total =
      (static_cast<std::uint64_t>(batches) + 1) * per_batch;  // + warm-up
  auto play = [&](std::size_t me, std::vector<double>* us) {
    std::vector<std::size_t> mates;
    for (std::size_t p = me % 2; p < n; p += 2) {
      if (p != me) {
        mates.push_back(p);
      }
    }
    auto mate_behind = [&](std::uint64_t step) {
      for (const std::size_t m : mates) {
        if (words[m]->load(std::memory_order_acquire) < step) {
          return true;
        }
      }
      return false;
    };
    auto t0 = Clock::now();
    for (std::uint64_t step = 1; step <= total; ++step) {
      for (std::size_t j = 0; j < n && block != 0; ++j) {
        std::memcpy(recvs + me * buffer + j * block,
                    sends + j * buffer + me * block, block);
      }
      // Release / acquire: a barrier orders what each side did before it.
      words[me]->store(step, std::memory_order_release);
      for (std::size_t p = 0; p < n; ++p) {
        while (words[p]->load(std::memory_order_acquire) < step) {
          if (mate_behind(step)) {
            sched_yield();
          }
        }
      }
      if (us != nullptr && step % per_batch == 0) {
        if (step > per_batch) {  // past the warm-up batch
          us->push_back(seconds_since(t0) * 1e6 /
                        static_cast<double>(per_batch));
        }
        t0 = Clock::now();
      }
    }
  };
  auto core_of = [&](std::size_t p) {
    return p % 2 == 0 ? opt.core_a : opt.core_b;
  };
  std::vector<pid_t> children;
  for (std::size_t p = 1; p < n; ++p) {
    const pid_t child = fork_pinned(core_of(p), [&] { play(p, nullptr); });
    if (child < 0) {
      for (const pid_t c : children) {
        kill(c, SIGKILL);  // they would wait for us forever
        waitpid(c, nullptr, 0);
      }
      munmap(base, bytes);
      return false;
    }
    children.push_back(child);
  }
  pin_to_core(opt.core_a);
  std::vector<double> us;
  play(0, &us);
  bool ok = true;
  for (std::size_t p = 1; p < n; ++p) {
    ok = child_succeeded(children[p - 1], core_of(p)) && ok;
  }
  munmap(base, bytes);
  if (!ok || us.empty()) {
    return false;
  }
  const Stats st = summarize(us);
  if (block == 0) {
    std::printf(
        "floor barrier_on_two procs=%d ns=%.1f mean=%.1f min=%.1f max=%.1f "
        "steps=%llu batches=%d\n",
        procs, st.median * 1e3, st.mean * 1e3, st.min * 1e3, st.max * 1e3,
        static_cast<unsigned long long>(per_batch), batches);
  } else {
    std::printf(
        "floor alltoall_on_two procs=%d bytes=%zu us=%.2f mean=%.2f "
        "min=%.2f max=%.2f steps=%llu batches=%d\n",
        procs, block, st.median, st.mean, st.min, st.max,
        static_cast<unsigned long long>(per_batch), batches);
  }
  std::fflush(stdout);
  return true;
}

bool parse(Options& opt, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      opt.quick = true;
      opt.batches = 7;
      opt.round_trips = 30000;
      opt.time_limit_s = 6.0;
    } else if (a == "--cores" && i + 1 < argc) {
      if (std::sscanf(argv[++i], "%d,%d", &opt.core_a, &opt.core_b) != 2) {
        return false;
      }
    } else if (a == "--time-limit" && i + 1 < argc) {
      opt.time_limit_s = std::atof(argv[++i]);
    } else if (a == "--batches" && i + 1 < argc) {
      opt.batches = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--round-trips" && i + 1 < argc) {
      opt.round_trips = std::max(1L, std::atol(argv[++i]));
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  if (!parse(opt, argc, argv)) {
    std::fprintf(stderr,
                 "usage: %s [--quick] [--cores A,B] [--batches N] "
                 "[--round-trips N] [--time-limit S]\n",
                 argv[0]);
    return 2;
  }
  std::printf("# floor cores=%d,%d\n", opt.core_a, opt.core_b);
  if (!run_pingpong(opt)) {
    return 1;
  }
  run_memcpy(opt);
  const bool copies = run_alltoall(opt);
  bool ok = run_yield_handoff(opt) && copies;
  ok = run_on_two_cores(opt, 4, 0) && ok;
  for (const int procs : {4, 8}) {
    for (const std::size_t block :
         {std::size_t{64} << 10, std::size_t{1} << 20}) {
      ok = run_on_two_cores(opt, procs, block) && ok;
    }
  }
  return ok ? 0 : 1;
}
