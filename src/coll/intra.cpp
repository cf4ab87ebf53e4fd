// SPDX-License-Identifier: MIT
// Each algorithm moves data in rounds: a member writes at most one bulk
// buffer (or an inline slot for small data) per round, so memory does not
// grow with the message, and large messages are pipelined chunk by chunk
// over the two buffers of alternating parity.
#include "coll/intra.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include "base/cache_line.hpp"
#include "base/stream_copy.hpp"
#include "coll/core_mates.hpp"
#include "coll/numa.hpp"
#include "coll/rounds.hpp"
#include "coll/staged.hpp"
#include "p2p/engine.hpp"

namespace shmpi::coll {

namespace {

// Bytes one member writes per round when it has `total` bytes to move.
std::size_t round_bytes(const Comm& c, std::size_t total) {
  const std::size_t in_slot = inline_bytes(c);
  return total <= in_slot ? in_slot : kBulk;
}

// Bytes per bcast round. Every round is a synchronisation, which members
// sharing cores pay most for, so they move whole bulk buffers. With a core
// each, a message of up to one bulk buffer goes in one streamed round (see
// streams()); one of up to two goes in halves (rounded to lines), so the
// root copies the second half in while the others copy the first out
// (measured at two ranks, 64 KiB: 15 us in two rounds, 17.5 in one without
// streaming). The choice depends only on the communicator, so every member
// makes the same one.
std::size_t bcast_round_bytes(const Comm& c, std::size_t total) {
  if (total <= kBulk || !core_per_member(c)) {
    return round_bytes(c, total);
  }
  return total > 2 * kBulk ? kBulk : line_aligned_half(total);
}

// A bcast that fits one bulk round is streamed (rounds.hpp:
// publish_progress) when the readers have cores of their own: the root
// says after each piece how far it got and the readers copy behind it,
// instead of starting when the whole round is in. Pieces double after the
// first two, since every progress word the readers poll costs the root a
// line taken back. Measured at two ranks (medians of 5 alternations): 32
// KiB 9.1 -> 8.4 us, 64 KiB 12.1 -> 10.8 us. Longer messages are already
// pipelined over rounds; streaming every round of them was no faster (1
// MiB, 5-10% slower), so they keep whole rounds. Readers sharing the
// root's core could not run while it writes.
constexpr std::size_t kStreamPiece = 8 * 1024;
bool streams(const Comm& c, std::size_t total) {
  return total > kStreamPiece && total <= kBulk && core_per_member(c);
}

// Broadcasts of at least kDirectMin bytes begin with a descriptor round in
// which the root says where its buffer is if it lives in the shared heap
// (MPI_Alloc_mem, or a malloc'd block of 64 KiB or more: src/shared_malloc).
// The readers then copy straight out of it, one copy where rounds take two
// (the root's in, the readers' out), and a last round tells the root they
// are done with its buffer. A root whose buffer is elsewhere says so, and
// the rounds follow as before: one more synchronisation on a message that
// takes at least a few microseconds to move. Alltoall(v) with blocks of
// that size does the same when every member's send blocks are all in the
// heap (each member then copies its blocks straight from the others'), and
// so do allreduce, gather(v), scatter(v), allgather(v) and reduce_scatter
// (docs/design.md, "Collectives").
constexpr std::size_t kDirectMin = 32 * 1024;
// Whether a call moving `bytes` (a broadcast's message, an allreduce's or
// a reduce-scatter's vector, the largest block of a gather, scatter,
// allgather or alltoall) begins with the descriptor round. The blocking
// one-round paths (the *_now functions) have none, so they leave such
// calls to the coroutines.
constexpr bool descriptor_round(std::size_t bytes) {
  return bytes >= kDirectMin;
}

// Bytes per piece when a round's area holds `pieces` pieces of blocks of
// up to `most` bytes (alltoall: one per other member; scatter: one per
// member). Blocks that fit one round sit side by side: a round's data then
// takes as few lines as it can, beside the round word when it fits there,
// and the lines a writer owns ahead (own_next_bulk(), from the buffer's
// start) are the ones it writes.
std::size_t piece_bytes(const Comm& c, std::size_t most, std::size_t pieces) {
  const std::size_t room = round_bytes(c, most * pieces) / pieces;
  return std::max<std::size_t>(1, std::min(most, room));
}
// Alltoall's round: a member's area holds one piece per other member, in
// rank order with its own skipped; where member `of`'s piece is in member
// `in`'s area.
std::size_t piece_index(std::size_t of, std::size_t in) {
  return of < in ? of : of - 1;
}

// Whether this member's copies in a call that writes `bytes` here go
// around the cache (base::copy_around_cache): when the members bound to
// its core write at least its L2 cache between them in one call, what
// they write does not stay there anyway, and skipping the reads for
// ownership saves a third of the memory traffic. Measured on alltoall
// (docs/bench.md): at that size and above 0.79-0.92 of the time; at half
// of it up to 1.33 times. Unknown cache (shmpirun --bind-to none, or no
// launcher): never.
bool writes_around_cache(Comm& c, std::size_t bytes) {
  const std::size_t l2 = mpi::state().engine->segment().header().l2_cache_bytes;
  const std::size_t sharing =
      find_core_mates(c) ? c.shared->core_mates.size() + 1 : 1;
  return l2 != 0 && bytes * sharing >= l2;
}

// Word `i` of a member's descriptor (alltoallv's direct path).
std::uint64_t read_word(const std::byte* area, std::size_t i) {
  std::uint64_t word;
  std::memcpy(&word, area + 8 * i, sizeof word);
  return word;
}

// Allreduce: up to this many bytes read per member and round (data size
// times members), every member folds everything itself in one round;
// above, each folds one part and a second round shares the parts, which
// halves the reading at two members but costs a round, and a round is what
// oversubscribed ranks pay most for.
constexpr std::size_t kFoldAllBytes = 32 * 1024;
bool folds_all(std::size_t bytes, std::size_t members, std::size_t units) {
  return bytes * members <= kFoldAllBytes || units < members;
}

// Reductions split data only at whole units: one predefined element for
// a predefined operation, one element of the datatype for a user function
// (which is handed whole elements of the user's datatype).
struct Unit {
  TypeArg type;
  std::size_t count;  // units in the whole buffer
};
Unit unit_of(const TypeArg& type, const OpArg& op, std::size_t count) {
  if (op.user != nullptr || type.element == nullptr) {
    return Unit{type, count};
  }
  TypeArg basic;
  basic.handle = type.handle;
  basic.element = type.element;
  basic.element_count = 1;
  basic.packed = static_cast<std::size_t>(type.element->extent);
  basic.extent = type.element->extent;
  return Unit{basic, count * type.element_count};
}

// Units per round per member for `units` units of `size` bytes, and at most
// `share` of a round's buffer (1/n for per-destination pieces). No more
// than `units`: per-destination pieces then sit side by side, as
// piece_bytes() says.
std::size_t units_per_round(const Comm& c, std::size_t units, std::size_t size,
                            std::size_t share = 1) {
  const std::size_t capacity = round_bytes(c, units * size * share) / share;
  return std::max<std::size_t>(1, std::min(units, capacity / size));
}

// acc = x0 op x1 op ... op x(last) over members first..last, for `n` units
// at byte offset `at` of each member's round data: folded from the right
// (x(i) op acc), the same sequence on every member.
// Folds of up to this many bytes per member ask for the other members'
// lines all at once before folding, so that their transfers from the
// other cores overlap instead of following the fold's reads one by one:
// 2-rank allreduce of 1 KiB 0.92 -> 0.77-0.82 us, 2 KiB -7%, 4 KiB -4%
// (medians of 10-20 runs); at 16 KiB the burst made it 17% slower.
constexpr std::size_t kFoldPrefetchBytes = 4096;
// And at most this many lines in all, however many members.
constexpr std::size_t kFoldPrefetchLines = 128;

void prefetch_members(Comm& c, int first, int last, std::size_t at,
                      std::size_t bytes) {
  std::size_t lines = 0;
  for (int m = last; m >= first && lines < kFoldPrefetchLines; --m) {
    if (m == c.rank) {
      continue;  // ours is in our cache
    }
    const std::byte* data = data_of(c, m) + at;
    for (std::size_t k = 0; k < bytes && lines < kFoldPrefetchLines;
         k += kCacheLineSize, ++lines) {
      __builtin_prefetch(data + k, 0, 3);
    }
  }
}

void fold(Comm& c, const OpArg& op, const TypeArg& unit, int first, int last,
          std::size_t at, std::size_t n, std::byte* acc) {
  const std::size_t bytes = n * unit.packed;
  if (bytes <= kFoldPrefetchBytes && core_per_member(c)) {
    prefetch_members(c, first, last, at, bytes);
  }
  std::memcpy(acc, data_of(c, last) + at, bytes);
  for (int m = last - 1; m >= first; --m) {
    mpi::apply_op(op, unit, data_of(c, m) + at, acc, n);
  }
}

// Room for a fold's result when it cannot go straight into the receive
// buffer: in the coroutine frame for inline-sized rounds (no allocation on
// the small-message path), on the heap for bulk rounds.
class Accumulator {
 public:
  explicit Accumulator(std::size_t bytes) {
    if (bytes > sizeof local_) {
      heap_ = std::make_unique<std::byte[]>(bytes);
    }
  }
  std::byte* get() { return heap_ ? heap_.get() : local_; }

 private:
  alignas(std::max_align_t) std::byte local_[kInline];
  std::unique_ptr<std::byte[]> heap_;
};

// Bytes an Accumulator needs for folds of `bytes` into `recv`: none when
// recv is contiguous (folded in place there).
std::size_t accumulator_bytes(const Layout& recv, std::size_t bytes) {
  return recv.map == nullptr ? 0 : bytes;
}

// fold() of `n` units into packed positions [recv_at, ...) of `recv`.
void fold_into(Comm& c, const OpArg& op, const TypeArg& unit, int first,
               int last, std::size_t at, std::size_t n, const Layout& recv,
               std::size_t recv_at, Accumulator& acc) {
  if (recv.map == nullptr) {
    fold(c, op, unit, first, last, at, n, recv.base + recv_at);
    return;
  }
  fold(c, op, unit, first, last, at, n, acc.get());
  datatype::unpack(recv, recv_at, acc.get(), n * unit.packed);
}

// Packed bytes of the largest of `blocks` (0 for none).
std::uint64_t largest_block(const Blocks& blocks) {
  std::uint64_t most = 0;
  for (const Layout& b : blocks) {
    most = std::max<std::uint64_t>(most, b.bytes);
  }
  return most;
}

// Packs `bytes` of `send` from packed offset `at` for the next round and
// publishes the round. Call after writable().
void publish_share(Comm& c, const Layout& send, std::size_t at,
                   std::size_t bytes) {
  datatype::pack(send, at, write_area(c, bytes), bytes);
  publish(c);
}

// Every member says a number; all learn the largest (v-collectives agree
// this way on how many rounds they need).
Task agree_max(Comm& c, std::uint64_t mine, std::uint64_t* out) {
  co_await writable(c);
  std::memcpy(write_area(c, sizeof mine), &mine, sizeof mine);
  publish(c);
  co_await all_arrived(c);
  std::uint64_t best = 0;
  for (int m = 0; m < c.size; ++m) {
    std::uint64_t v = 0;
    std::memcpy(&v, data_of(c, m), sizeof v);
    best = std::max(best, v);
  }
  *out = best;
}

// gatherv's and scatterv's descriptor round: the root publishes where
// every member's block of its buffer is (word 1 + m) and, in word 0,
// whether every other member's is contiguous and in the heap (or empty);
// the others publish nothing of use. Returns word 0 as this member knows
// it once the root has published: the direct path's condition, the same
// on every member.
Task root_descriptor(Comm& c, const Blocks& blocks, int root,
                     std::uint64_t* direct) {
  const auto members = static_cast<std::size_t>(c.size);
  const std::size_t bytes = c.rank == root ? 8 * (members + 1) : 8;
  co_await writable_for(c, bytes);
  std::byte* area = write_area(c, bytes);
  std::uint64_t eligible = 0;
  if (c.rank == root) {
    eligible = 1;
    for (std::size_t m = 0; m < members; ++m) {
      const Layout& block = blocks[m];
      const std::uint64_t at =
          heap_offset_of(block.base, block.bytes, block.map == nullptr);
      std::memcpy(area + 8 * (1 + m), &at, sizeof at);
      if (static_cast<int>(m) != root && block.bytes != 0 && at == kNotInHeap) {
        eligible = 0;
      }
    }
  }
  std::memcpy(area, &eligible, sizeof eligible);
  if (c.rank == root) {
    publish(c, true);
  } else {
    publish(c);
    co_await arrival(c, root);
    eligible = read_word(data_of(c, root), 0);
  }
  *direct = eligible;
}

// The descriptor round of a rooted direct path whose root has one word to
// say (where its buffer is, or kNotInHeap): every member publishes its own
// word, the root first of all for the others. *root_says is the root's.
Task root_word(Comm& c, std::uint64_t own, int root, std::uint64_t* root_says) {
  co_await writable_for(c, sizeof own);
  std::memcpy(write_area(c, sizeof own), &own, sizeof own);
  *root_says = own;
  if (c.rank == root) {
    publish(c, true);
  } else {
    publish(c);
    co_await arrival(c, root);
    *root_says = read_word(data_of(c, root), 0);
  }
}

// The last round of a rooted direct path: the others tell the root they
// are done with its buffer, and the root waits for that.
Task release_root(Comm& c, int root) {
  arrive(c);
  if (c.rank == root) {
    co_await all_arrived(c);
  }
}

// gatherv's and scatterv's direct path: when root_descriptor() says every
// block of the root's buffer is in the heap, each other member writes its
// block `own` into its place there (into_root: gatherv) or copies it out
// (scatterv), and release_root() follows. *done stays false when the
// rounds must follow: after the descriptor round only, or without one
// (`most`, the largest block, too small for it, or a single member). The root's
// own block (own_copy, if any) is copied once its descriptor is out, so the
// others need not wait for that copy.
//
// A rooted collective's copy of the root's own block, from packed offset
// from_at of `from` to the start of `to`; nothing when `from` is null
// (not the root, or in place). Roots run it after the others have what
// they wait for.
struct OwnCopy {
  const Layout* from = nullptr;
  std::size_t from_at = 0;
  const Layout* to = nullptr;
  std::size_t bytes = 0;
  void run() const {
    if (from != nullptr) {
      datatype::copy(*from, from_at, *to, 0, bytes);
    }
  }
};
Task blocks_direct(Comm& c, const Blocks& blocks, const Layout& own, int root,
                   bool into_root, std::uint64_t most, OwnCopy own_copy,
                   bool* done) {
  if (!descriptor_round(most) || c.size == 1) {
    own_copy.run();  // no descriptor round: the rounds follow
    co_return;
  }
  std::uint64_t direct = 0;
  co_await root_descriptor(c, blocks, root, &direct);
  own_copy.run();
  if (direct == 0) {
    co_return;
  }
  if (c.rank != root && own.bytes != 0) {
    std::byte* place = heap_at(read_word(data_of(c, root), 1 + c.rank));
    if (into_root) {
      datatype::pack(own, 0, place, own.bytes);
    } else {
      datatype::unpack(own, 0, place, own.bytes);
    }
  }
  co_await release_root(c, root);
  *done = true;
}

}  // namespace

Task barrier(Comm& c) {
  arrive(c);
  co_await all_arrived(c);
}

Task bcast(Comm& c, Layout data, int root) {
  const std::size_t total = data.bytes;
  if (total == 0 || c.size == 1) {
    co_return;
  }
  if (descriptor_round(total)) {
    // The descriptor round: where every member's buffer is, if in the heap.
    const std::uint64_t own =
        heap_offset_of(data.base, total, data.map == nullptr);
    std::uint64_t offset = kNotInHeap;  // the root's
    co_await root_word(c, own, root, &offset);
    if (offset != kNotInHeap) {
      // Two members with a core each and both buffers in the heap: the
      // root copies the second half into the reader's buffer while the
      // reader copies the first out of the root's. Both know: the reader
      // its own word, the root the reader's. From the descriptor round's
      // 32 KiB on (measured, 2-rank bcast timed after a barrier: 32 KiB
      // 1.73 -> 1.14 us, 64 KiB 2.80 -> 1.96, 128 KiB 4.94 -> 3.17; with the
      // root rewriting its buffer before each call and the reader reading
      // its own after, 64 KiB 14.3-16.5 -> 12.6-13.1 us per iteration).
      const int other = 1 - c.rank;
      bool split = c.size == 2 && core_per_member(c) && own != kNotInHeap;
      if (split && c.rank == root) {
        co_await arrival(c, other);
        const std::uint64_t into = read_word(data_of(c, other), 0);
        split = into != kNotInHeap;
        if (split) {
          const std::size_t half = line_aligned_half(total);
          std::memcpy(heap_at(into) + half, data.base + half, total - half);
        }
      }
      if (c.rank != root) {
        datatype::unpack(data, 0, heap_at(offset),
                         split ? line_aligned_half(total) : total);
      }
      // Done with the root's buffer (and, split, with the reader's): each
      // side may return once the other is.
      arrive(c);
      if (c.rank == root || split) {
        co_await all_arrived(c);
      }
      co_return;
    }
  }
  const std::size_t chunk = bcast_round_bytes(c, total);
  for (std::size_t at = 0; at < total; at += chunk) {
    const std::size_t n = std::min(chunk, total - at);
    const bool streamed = streams(c, total);
    if (c.rank == root) {
      // The root only writes: inline rounds may run ahead of slow readers.
      co_await writable_for(c, n);
      std::byte* area = write_area(c, n);
      for (std::size_t done = 0; done < n;) {
        // Streamed: 8 KiB, 8 KiB, then as much as is written so far.
        const std::size_t piece = streamed ? std::max(kStreamPiece, done) : n;
        const std::size_t m = std::min(piece, n - done);
        datatype::pack(data, at + done, area + done, m);
        done += m;
        if (streamed && done < n) {
          publish_progress(c, done);
        }
      }
      publish(c, true);
    } else if (streamed) {
      publish(c);
      // Copies out what the root has written so far, until it publishes.
      std::size_t copied = 0;
      co_await until([&c, &data, &copied, root, at] {
        if (arrived(c, root)) {
          return true;
        }
        const std::size_t ready = progress_of(c, root);
        if (ready > copied) {
          datatype::unpack(data, at + copied, data_of(c, root) + copied,
                           ready - copied);
          copied = ready;
        }
        return false;
      });
      datatype::unpack(data, at + copied, data_of(c, root) + copied,
                       n - copied);
    } else {
      publish(c);
      co_await arrival(c, root);
      datatype::unpack(data, at, data_of(c, root), n);
    }
  }
}

Task reduce(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
            std::size_t count, int root) {
  const Unit unit = unit_of(type, op, count);
  const std::size_t size = unit.type.packed;
  if (unit.count == 0) {
    co_return;
  }
  if (stages_units(unit.type, op)) {
    co_await reduce_staged(c, send, recv, unit.type, op, unit.count,
                           c.rank == root
                               ? StagedShare{0, c.size - 1, 0, unit.count}
                               : StagedShare{});
    co_return;
  }
  const std::size_t per_round = units_per_round(c, unit.count, size);
  Accumulator acc(c.rank == root ? accumulator_bytes(recv, per_round * size)
                                 : 0);
  for (std::size_t first = 0; first < unit.count; first += per_round) {
    const std::size_t n = std::min(per_round, unit.count - first);
    // Non-roots only write: inline rounds may run ahead of a slow root.
    co_await writable_for(c, n * size);
    datatype::pack(send, first * size, write_area(c, n * size), n * size);
    publish(c);
    if (c.rank == root) {
      co_await all_arrived(c);
      fold_into(c, op, unit.type, 0, c.size - 1, 0, n, recv, first * size, acc);
    }
  }
}

Task allreduce(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
               std::size_t count) {
  const Unit unit = unit_of(type, op, count);
  const std::size_t size = unit.type.packed;
  if (unit.count == 0) {
    co_return;
  }
  if (stages_units(unit.type, op)) {
    co_await reduce_staged(c, send, recv, unit.type, op, unit.count,
                           StagedShare{0, c.size - 1, 0, unit.count});
    co_return;
  }
  const auto members = static_cast<std::size_t>(c.size);
  if (descriptor_round(unit.count * size) && c.size > 1) {
    // The descriptor round: whether this member's send and receive buffers
    // are both contiguous, distinct and in the shared heap, and where.
    co_await writable(c);
    const std::size_t bytes = unit.count * size;
    const std::uint64_t from =
        heap_offset_of(send.base, bytes, send.map == nullptr);
    const std::uint64_t into =
        heap_offset_of(recv.base, bytes, recv.map == nullptr);
    std::uint64_t eligible =
        send.base != recv.base && from != kNotInHeap && into != kNotInHeap;
    const std::uint64_t words[3] = {eligible, from, into};
    std::memcpy(write_area(c, sizeof words), words, sizeof words);
    publish(c);
    co_await all_arrived(c);
    for (int m = 0; m < c.size && eligible != 0; ++m) {
      eligible = read_word(data_of(c, m), 0);
    }
    if (eligible != 0) {
      // Member me folds part me straight from everyone's send buffer into
      // its receive buffer, in fold()'s order; then everyone copies every
      // other part straight from its owner's receive buffer.
      const auto me = static_cast<std::size_t>(c.rank);
      const std::size_t lo = unit.count * me / members;
      const std::size_t hi = unit.count * (me + 1) / members;
      // The descriptors are gone once the next round is published.
      boost::container::small_vector<const std::byte*, 8> inputs(members);
      boost::container::small_vector<const std::byte*, 8> results(members);
      for (std::size_t m = 0; m < members; ++m) {
        const std::byte* area = data_of(c, static_cast<int>(m));
        inputs[m] = heap_at(read_word(area, 1));
        results[m] = heap_at(read_word(area, 2));
      }
      std::byte* acc = recv.base + lo * size;
      std::memcpy(acc, inputs[members - 1] + lo * size, (hi - lo) * size);
      for (std::size_t m = members - 1; m-- > 0;) {
        mpi::apply_op(op, unit.type, inputs[m] + lo * size, acc, hi - lo);
      }
      arrive(c);
      co_await all_arrived(c);
      for (std::size_t m = 0; m < members; ++m) {
        const std::size_t mlo = unit.count * m / members;
        const std::size_t mhi = unit.count * (m + 1) / members;
        if (m != me && mhi > mlo) {
          std::memcpy(recv.base + mlo * size, results[m] + mlo * size,
                      (mhi - mlo) * size);
        }
      }
      // Nobody's receive buffer may change before everyone has copied.
      arrive(c);
      co_await all_arrived(c);
      co_return;
    }
  }
  const std::size_t per_round = units_per_round(c, unit.count, size);
  Accumulator acc(accumulator_bytes(recv, per_round * size));
  for (std::size_t first = 0; first < unit.count; first += per_round) {
    const std::size_t n = std::min(per_round, unit.count - first);
    co_await writable(c);
    publish_share(c, send, first * size, n * size);
    co_await all_arrived(c);
    if (folds_all(n * size, members, n)) {
      // Small: every member folds everything itself, in one round.
      fold_into(c, op, unit.type, 0, c.size - 1, 0, n, recv, first * size, acc);
      continue;
    }
    // Large: member m folds part m into its next round's area, then
    // everyone copies every part.
    const auto me = static_cast<std::size_t>(c.rank);
    const std::size_t lo = n * me / members;
    const std::size_t hi = n * (me + 1) / members;
    co_await writable(c);  // free: everyone has published the last round
    fold(c, op, unit.type, 0, c.size - 1, lo * size, hi - lo,
         write_area(c, (hi - lo) * size));
    publish(c);
    co_await all_arrived(c);
    for (std::size_t m = 0; m < members; ++m) {
      const std::size_t mlo = n * m / members;
      const std::size_t mhi = n * (m + 1) / members;
      datatype::unpack(recv, (first + mlo) * size,
                       data_of(c, static_cast<int>(m)), (mhi - mlo) * size);
    }
  }
}

Task gather(Comm& c, Layout send, Layout recv, int root, bool in_place) {
  // Same-size blocks: no agreement round needed.
  const std::size_t total = send.bytes;
  if (total == 0 || c.size == 1) {
    if (c.rank == root && !in_place) {
      datatype::copy(send, 0, recv, static_cast<std::size_t>(root) * total,
                     total);
    }
    co_return;
  }
  if (descriptor_round(total)) {
    // The descriptor round: where the root's receive buffer is, if it is
    // contiguous and in the heap. Then each member writes its block
    // straight into it, one copy where rounds take two, and a last round
    // tells the root they are done.
    const auto members = static_cast<std::size_t>(c.size);
    std::uint64_t offset = kNotInHeap;
    co_await root_word(
        c,
        c.rank == root
            ? heap_offset_of(recv.base, total * members, recv.map == nullptr)
            : kNotInHeap,
        root, &offset);
    if (offset != kNotInHeap) {
      const std::size_t mine = static_cast<std::size_t>(c.rank) * total;
      if (c.rank != root) {
        datatype::pack(send, 0, heap_at(offset) + mine, total);
      } else if (!in_place) {
        datatype::copy(send, 0, recv, mine, total);
      }
      co_await release_root(c, root);
      co_return;
    }
  }
  const std::size_t chunk = round_bytes(c, total);
  for (std::size_t at = 0; at < total; at += chunk) {
    const std::size_t n = std::min(chunk, total - at);
    if (c.rank == root) {
      publish(c);
      // The own block while the others publish theirs.
      if (!in_place) {
        datatype::copy(send, at, recv,
                       static_cast<std::size_t>(root) * total + at, n);
      }
      co_await all_arrived(c);
      for (int m = 0; m < c.size; ++m) {
        if (m != root) {
          datatype::unpack(recv, static_cast<std::size_t>(m) * total + at,
                           data_of(c, m), n);
        }
      }
    } else {
      // Non-roots only write: they may run ahead of a slow root.
      co_await writable_for(c, n);
      datatype::pack(send, at, write_area(c, n), n);
      publish(c);
    }
  }
}

Task gatherv(Comm& c, Layout send, Blocks recv_blocks, int root,
             bool in_place) {
  std::uint64_t most = 0;
  const std::uint64_t mine =
      c.rank == root ? largest_block(recv_blocks) : send.bytes;
  co_await agree_max(c, mine, &most);
  // The root's own block (only the root has the blocks).
  const OwnCopy own =
      c.rank == root && !in_place
          ? OwnCopy{&send, 0, &recv_blocks[static_cast<std::size_t>(root)],
                    recv_blocks[static_cast<std::size_t>(root)].bytes}
          : OwnCopy{};
  // gather()'s direct path, with a place per member; the root copies
  // its own block after its descriptor round (or at once, without one).
  bool done = false;
  co_await blocks_direct(c, recv_blocks, send, root, true, most, own, &done);
  if (done || most == 0 || c.size == 1) {
    co_return;
  }
  const std::size_t chunk = round_bytes(c, most);
  for (std::size_t at = 0; at < most; at += chunk) {
    if (c.rank == root) {
      publish(c);
      co_await all_arrived(c);
      for (int m = 0; m < c.size; ++m) {
        const Layout& block = recv_blocks[static_cast<std::size_t>(m)];
        if (m != root && at < block.bytes) {
          datatype::unpack(block, at, data_of(c, m),
                           std::min(chunk, block.bytes - at));
        }
      }
    } else {
      co_await writable_for(c, chunk);  // as gather's non-roots
      const std::size_t n =
          at < send.bytes ? std::min(chunk, send.bytes - at) : 0;
      std::byte* area = write_area(c, chunk);
      if (n != 0) {
        datatype::pack(send, at, area, n);
      }
      publish(c);
    }
  }
}

namespace {

// Scatter's own-block copy on the root (its block of the send buffer).
OwnCopy own_scatter_block(const Comm& c, const Layout& send, const Layout& recv,
                          int root, bool in_place) {
  return c.rank == root && !in_place
             ? OwnCopy{&send, static_cast<std::size_t>(root) * recv.bytes,
                       &recv, recv.bytes}
             : OwnCopy{};
}

}  // namespace

Task scatter(Comm& c, Layout send, Layout recv, int root, bool in_place) {
  const std::size_t total = recv.bytes;  // per member
  const OwnCopy own = own_scatter_block(c, send, recv, root, in_place);
  if (total == 0 || c.size == 1) {
    own.run();
    co_return;
  }
  const auto members = static_cast<std::size_t>(c.size);
  if (descriptor_round(total)) {
    // The descriptor round: where the root's send data is, if contiguous
    // and in the heap. Then each member copies its block straight out of
    // it, and a last round tells the root they are done with its buffer.
    std::uint64_t offset = kNotInHeap;
    co_await root_word(
        c,
        c.rank == root
            ? heap_offset_of(send.base, total * members, send.map == nullptr)
            : kNotInHeap,
        root, &offset);
    if (offset != kNotInHeap) {
      if (c.rank != root) {
        datatype::unpack(
            recv, 0, heap_at(offset) + static_cast<std::size_t>(c.rank) * total,
            total);
      }
      own.run();
      co_await release_root(c, root);
      co_return;
    }
  }
  const std::size_t piece = piece_bytes(c, total, members);
  for (std::size_t at = 0; at < total; at += piece) {
    const std::size_t n = std::min(piece, total - at);
    if (c.rank == root) {
      // The root only writes: it may run ahead of slow readers.
      co_await writable_for(c, n * members);
      std::byte* area = write_area(c, n * members);
      for (std::size_t m = 0; m < members; ++m) {
        if (static_cast<int>(m) != root) {
          datatype::pack(send, m * total + at, area + m * n, n);
        }
      }
      publish(c, true);
      if (at == 0) {
        own.run();  // once the others have their first piece
      }
    } else {
      publish(c);
      co_await arrival(c, root);
      datatype::unpack(
          recv, at, data_of(c, root) + static_cast<std::size_t>(c.rank) * n, n);
    }
  }
}

Task scatterv(Comm& c, Blocks send_blocks, Layout recv, int root,
              bool in_place) {
  std::uint64_t most = 0;
  const std::uint64_t mine =
      c.rank == root ? largest_block(send_blocks) : recv.bytes;
  co_await agree_max(c, mine, &most);
  // The root's own block (only the root has the blocks).
  const OwnCopy own =
      c.rank == root && !in_place
          ? OwnCopy{&send_blocks[static_cast<std::size_t>(root)], 0, &recv,
                    send_blocks[static_cast<std::size_t>(root)].bytes}
          : OwnCopy{};
  // scatter()'s direct path, with a place per member; the root copies
  // its own block after its descriptor round (or at once, without one).
  bool done = false;
  co_await blocks_direct(c, send_blocks, recv, root, false, most, own, &done);
  if (done || most == 0 || c.size == 1) {
    co_return;
  }
  const auto members = static_cast<std::size_t>(c.size);
  const std::size_t piece = piece_bytes(c, most, members);
  for (std::size_t at = 0; at < most; at += piece) {
    if (c.rank == root) {
      co_await writable_for(c, piece * members);  // as scatter's root
      std::byte* area = write_area(c, piece * members);
      for (std::size_t m = 0; m < members; ++m) {
        const Layout& block = send_blocks[m];
        if (static_cast<int>(m) != root && at < block.bytes) {
          datatype::pack(block, at, area + m * piece,
                         std::min(piece, block.bytes - at));
        }
      }
      publish(c, true);
    } else {
      publish(c);
      co_await arrival(c, root);
      if (at < recv.bytes) {
        datatype::unpack(
            recv, at,
            data_of(c, root) + static_cast<std::size_t>(c.rank) * piece,
            std::min(piece, recv.bytes - at));
      }
    }
  }
}

Task allgatherv(Comm& c, Layout send, Blocks blocks, bool in_place) {
  const auto me = static_cast<std::size_t>(c.rank);
  std::size_t most = 0;
  for (const Layout& block : blocks) {
    most = std::max(most, block.bytes);
  }
  bool copy_own = !in_place;
  if (descriptor_round(most) && c.size > 1) {
    // The descriptor round: where this member's block is (its send buffer,
    // or its place in the receive buffer in place), if contiguous and in
    // the heap. When every member's is, each copies the others' blocks
    // straight from where they are, and nobody returns before all are done.
    const Layout& source = in_place ? blocks[me] : send;
    const std::uint64_t own =
        heap_offset_of(source.base, source.bytes, source.map == nullptr);
    co_await writable(c);
    std::memcpy(write_area(c, sizeof own), &own, sizeof own);
    publish(c);
    // The own block while the others publish, whichever way this goes.
    if (copy_own) {
      datatype::copy(send, 0, blocks[me], 0, blocks[me].bytes);
      copy_own = false;
    }
    co_await all_arrived(c);
    bool direct = true;
    for (int m = 0; m < c.size && direct; ++m) {
      direct = blocks[static_cast<std::size_t>(m)].bytes == 0 ||
               read_word(data_of(c, m), 0) != kNotInHeap;
    }
    if (direct) {
      for (int m = 0; m < c.size; ++m) {
        const Layout& block = blocks[static_cast<std::size_t>(m)];
        if (m != c.rank && block.bytes != 0) {
          datatype::unpack(block, 0, heap_at(read_word(data_of(c, m), 0)),
                           block.bytes);
        }
      }
      arrive(c);
      co_await all_arrived(c);
      co_return;
    }
  }
  if (copy_own) {
    datatype::copy(send, 0, blocks[me], 0, blocks[me].bytes);
  }
  if (most == 0 || c.size == 1) {
    co_return;
  }
  // What this member sends: its own block (from where it now is).
  const Layout& own = blocks[me];
  const std::size_t chunk = round_bytes(c, most);
  for (std::size_t at = 0; at < most; at += chunk) {
    co_await writable(c);
    std::byte* area = write_area(c, chunk);
    if (at < own.bytes) {
      datatype::pack(own, at, area, std::min(chunk, own.bytes - at));
    }
    publish(c);
    co_await all_arrived(c);
    for (int m = 0; m < c.size; ++m) {
      const Layout& block = blocks[static_cast<std::size_t>(m)];
      if (m != c.rank && at < block.bytes) {
        datatype::unpack(block, at, data_of(c, m),
                         std::min(chunk, block.bytes - at));
      }
    }
  }
}

Task alltoallv(Comm& c, Blocks send_blocks, Blocks recv_blocks, bool uniform) {
  const auto members = static_cast<std::size_t>(c.size);
  const auto me = static_cast<std::size_t>(c.rank);
  std::uint64_t mine = 0;
  for (std::size_t j = 0; j < members; ++j) {
    mine = std::max<std::uint64_t>(
        mine, std::max(send_blocks[j].bytes, recv_blocks[j].bytes));
  }
  std::uint64_t most = mine;
  if (!uniform) {
    co_await agree_max(c, mine, &most);
  }
  // The own block (in place, send and receive blocks are the same bytes).
  const Layout& own = recv_blocks[me];
  bool copy_own = send_blocks[me].base != own.base;
  if (most == 0 || c.size == 1) {
    if (copy_own) {
      datatype::copy(send_blocks[me], 0, own, 0, own.bytes);
    }
    co_return;
  }
  if (descriptor_round(most)) {
    // The descriptor round: whether every block this member sends is in the
    // shared heap, and where.
    co_await writable(c);
    std::byte* descriptor = write_area(c, 8 * (members + 1));
    std::uint64_t eligible = copy_own ? 1 : 0;  // in place: never
    for (std::size_t j = 0; j < members; ++j) {
      const Layout& block = send_blocks[j];
      const std::uint64_t at =
          heap_offset_of(block.base, block.bytes, block.map == nullptr);
      std::memcpy(descriptor + 8 * (1 + j), &at, sizeof at);
      if (j != me && block.bytes != 0 && at == kNotInHeap) {
        eligible = 0;
      }
    }
    std::memcpy(descriptor, &eligible, sizeof eligible);
    publish(c);
    std::size_t writes = 0;
    for (const Layout& block : recv_blocks) {
      writes += block.bytes;
    }
    const bool around = writes_around_cache(c, writes);
    // The own block in two parts, each while this member waits for the
    // others: the first while they publish, the second (direct path) while
    // they finish reading this member's buffer.
    const bool own_around =
        around && own.map == nullptr && send_blocks[me].map == nullptr;
    const std::size_t own_first =
        copy_own ? std::min(own.bytes, line_aligned_half(own.bytes)) : 0;
    auto copy_own_part = [&](std::size_t at, std::size_t bytes) {
      if (bytes == 0) {
        return;
      }
      if (own_around) {
        base::copy_around_cache(own.base + at, send_blocks[me].base + at,
                                bytes);
      } else {
        datatype::copy(send_blocks[me], at, own, at, bytes);
      }
    };
    copy_own_part(0, own_first);
    co_await all_arrived(c);
    bool direct = true;
    for (int m = 0; m < c.size && direct; ++m) {
      direct = read_word(data_of(c, m), 0) != 0;
    }
    if (!direct && copy_own) {
      copy_own_part(own_first, own.bytes - own_first);  // the rounds follow
      copy_own = false;
    }
    if (direct) {
      for (std::size_t j = 0; j < members; ++j) {
        const Layout& block = recv_blocks[j];
        if (j != me && block.bytes != 0) {
          const std::byte* from =
              heap_at(read_word(data_of(c, static_cast<int>(j)), 1 + me));
          if (around && block.map == nullptr) {
            base::copy_around_cache(block.base, from, block.bytes);
          } else {
            datatype::unpack(block, 0, from, block.bytes);
          }
        }
      }
      // Everyone reads everyone's buffer: nobody returns before all are
      // done.
      arrive(c);
      if (copy_own) {
        copy_own_part(own_first, own.bytes - own_first);
      }
      co_await all_arrived(c);
      co_return;
    }
  }
  const std::size_t others = members - 1;
  const std::size_t piece = piece_bytes(c, most, others);
  for (std::size_t at = 0; at < most; at += piece) {
    co_await writable(c);
    std::byte* area = write_area(c, piece * others);
    for (std::size_t j = 0; j < members; ++j) {
      const Layout& block = send_blocks[j];
      if (j != me && at < block.bytes) {
        datatype::pack(block, at, area + piece_index(j, me) * piece,
                       std::min(piece, block.bytes - at));
      }
    }
    publish(c);
    // This round's part of the own block, while the others publish theirs
    // (most >= own.bytes, so the rounds cover it all).
    if (copy_own && at < own.bytes) {
      datatype::copy(send_blocks[me], at, own, at,
                     std::min(piece, own.bytes - at));
    }
    co_await all_arrived(c);
    for (std::size_t j = 0; j < members; ++j) {
      const Layout& block = recv_blocks[j];
      if (j != me && at < block.bytes) {
        datatype::unpack(
            block, at,
            data_of(c, static_cast<int>(j)) + piece_index(me, j) * piece,
            std::min(piece, block.bytes - at));
      }
    }
  }
}

Task reduce_scatter(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
                    datatype::Counts counts) {
  const auto members = static_cast<std::size_t>(c.size);
  const auto me = static_cast<std::size_t>(c.rank);
  // Blocks in units, and where each starts in the send data.
  datatype::Counts units(members);
  datatype::Counts start(members);
  std::size_t most = 0;
  std::size_t next = 0;
  TypeArg unit_type = type;
  for (std::size_t j = 0; j < members; ++j) {
    const Unit u = unit_of(type, op, counts[j]);
    unit_type = u.type;
    units[j] = u.count;
    start[j] = next;
    next += u.count;
    most = std::max(most, u.count);
  }
  const std::size_t size = unit_type.packed;
  if (most == 0) {
    co_return;
  }
  if (stages_units(unit_type, op)) {
    co_await reduce_staged(
        c, send, recv, unit_type, op, next,
        StagedShare{0, c.size - 1, start[me], start[me] + units[me]});
    co_return;
  }
  if (descriptor_round(most * size) && c.size > 1) {
    // The descriptor round: whether this member's send buffer is
    // contiguous, in the shared heap and not its receive buffer (in place,
    // the result would overwrite what another member reads), and its
    // receive buffer contiguous. When everyone's is, each member folds its
    // block straight from everyone's send buffer, in fold()'s order.
    co_await writable(c);
    const std::uint64_t from =
        heap_offset_of(send.base, send.bytes, send.map == nullptr);
    std::uint64_t eligible =
        send.base != recv.base && from != kNotInHeap && recv.map == nullptr;
    const std::uint64_t words[2] = {eligible, from};
    std::memcpy(write_area(c, sizeof words), words, sizeof words);
    publish(c);
    co_await all_arrived(c);
    for (int m = 0; m < c.size && eligible != 0; ++m) {
      eligible = read_word(data_of(c, m), 0);
    }
    if (eligible != 0) {
      const std::size_t at = start[me] * size;
      const std::size_t n = units[me];
      if (n != 0) {
        const std::byte* last = heap_at(read_word(data_of(c, c.size - 1), 1));
        std::memcpy(recv.base, last + at, n * size);
        for (int m = c.size - 1; m-- > 0;) {
          const std::byte* input = heap_at(read_word(data_of(c, m), 1));
          mpi::apply_op(op, unit_type, input + at, recv.base, n);
        }
      }
      // Nobody's send buffer may change before everyone has folded.
      arrive(c);
      co_await all_arrived(c);
      co_return;
    }
  }
  const std::size_t per_round = units_per_round(c, most, size, members);
  Accumulator acc(accumulator_bytes(recv, per_round * size));
  for (std::size_t first = 0; first < most; first += per_round) {
    co_await writable(c);
    std::byte* area = write_area(c, per_round * size * members);
    for (std::size_t j = 0; j < members; ++j) {
      if (first < units[j]) {
        const std::size_t n = std::min(per_round, units[j] - first);
        datatype::pack(send, (start[j] + first) * size,
                       area + j * per_round * size, n * size);
      }
    }
    publish(c);
    co_await all_arrived(c);
    if (first < units[me]) {
      const std::size_t n = std::min(per_round, units[me] - first);
      fold_into(c, op, unit_type, 0, c.size - 1, me * per_round * size, n, recv,
                first * size, acc);
    }
  }
}

namespace {

// Scans of at least kScanChainMin bytes (on three or more members) go
// along a chain: in each round member i waits for member i - 1's prefix,
// folds its own data into it (prefix(i-1) op x(i), so in rank order) and
// publishes the result for member i + 1. Members fold one vector each
// where the one-round scan below has member i fold i of them (n(n - 1)/2
// in all), and rounds pipeline down the chain. Measured with 3, 4 and 8
// ranks on 2 cores: 8 KiB 3.6 -> 2.8-3.7 us at 4 ranks and 9.6 -> 7.5-8.0
// at 8, 64 KiB 77 -> 41 us and 1 MiB 1380 -> 900 us at 8; 1 KiB was 10-40%
// slower, since a chain's latency grows with the members. At two members
// both ways fold the same single vector.
constexpr std::size_t kScanChainMin = 8 * 1024;
// A scan's member reads the slots of the members below it, which run
// ahead, and asks for their slots this many rounds on once it has folded
// (rounds.hpp: prefetch_slots), when the data is inline there: with data
// in bulk buffers, 512 bytes at 4 ranks on 2 cores went 12% slower.
// Medians of 4-5 alternations, 8 and 64 bytes: 2 ranks 0.218 -> 0.209
// and 0.364 -> 0.339 us; 4 ranks on 2 cores 0.759 -> 0.692 and 0.877 ->
// 0.856; 8 ranks on 2 cores 2.10 -> 1.76 and 2.50 -> 2.19.
constexpr std::uint64_t kScanAhead = 2;
bool scan_chains(const Comm& c, std::size_t bytes) {
  return c.size >= 3 && bytes >= kScanChainMin;
}

Task scan_chain(Comm& c, Layout send, Layout recv, Unit unit, OpArg op,
                bool exclusive) {
  const std::size_t size = unit.type.packed;
  const std::size_t per_round = units_per_round(c, unit.count, size);
  const bool first_member = c.rank == 0;
  const int next = c.rank + 1 < c.size ? c.rank + 1 : -1;
  for (std::size_t first = 0; first < unit.count; first += per_round) {
    const std::size_t n = std::min(per_round, unit.count - first);
    const std::size_t at = first * size;
    const std::size_t bytes = n * size;
    // Only the next member reads what this one writes, so it may run
    // ahead as a scan's writers do.
    co_await writable_for(c, bytes);
    std::byte* prefix = write_area(c, bytes);
    // In an exclusive scan the last member's prefix is read by no one: it
    // only copies out its predecessor's.
    const bool folds = !exclusive || next >= 0;
    // Own data first: in place, the receive buffer is about to change.
    if (folds) {
      datatype::pack(send, at, prefix, bytes);
    }
    if (!first_member) {
      co_await arrival_next(c, c.rank - 1);
      const std::byte* below = next_data_of(c, c.rank - 1);
      if (exclusive) {
        datatype::unpack(recv, at, below, bytes);
      }
      if (folds) {
        mpi::apply_op(op, unit.type, below, prefix, n);
      }
    }
    if (!exclusive) {
      datatype::unpack(recv, at, prefix, bytes);
    }
    publish_to(c, next);
  }
}

}  // namespace

Task scan(Comm& c, Layout send, Layout recv, TypeArg type, OpArg op,
          std::size_t count, bool exclusive) {
  const Unit unit = unit_of(type, op, count);
  const std::size_t size = unit.type.packed;
  if (unit.count == 0) {
    co_return;
  }
  if (stages_units(unit.type, op)) {
    const int last = exclusive ? c.rank - 1 : c.rank;
    co_await reduce_staged(c, send, recv, unit.type, op, unit.count,
                           StagedShare{0, last, 0, unit.count});
    co_return;
  }
  if (scan_chains(c, unit.count * size)) {
    co_await scan_chain(c, send, recv, unit, op, exclusive);
    co_return;
  }
  const std::size_t per_round = units_per_round(c, unit.count, size);
  Accumulator acc(accumulator_bytes(recv, per_round * size));
  const int last = exclusive ? c.rank - 1 : c.rank;
  for (std::size_t first = 0; first < unit.count; first += per_round) {
    const std::size_t n = std::min(per_round, unit.count - first);
    // Nobody waits for the members above it, so a member may run ahead of
    // them (as a reduction's non-roots do); member 0 only writes.
    co_await writable_for(c, n * size);
    datatype::pack(send, first * size, write_area(c, n * size), n * size);
    publish(c);
    for (int m = 0; m <= last; ++m) {
      co_await arrival(c, m);
    }
    if (last >= 0) {
      fold_into(c, op, unit.type, 0, last, 0, n, recv, first * size, acc);
      if (n * size <= inline_bytes(c)) {
        prefetch_slots(c, 0, last, kScanAhead);
      }
    }
  }
}

// ---- blocking fast paths: the same single inline round, straight through

namespace {

template <typename Condition>
void wait_for(Condition condition) {
  mpi::state().engine->wait_until(condition);
}

// Waits until every member has published the current round.
void wait_all_arrived(Comm& c) {
  mpi::state().engine->wait_until(AllArrived{&c},
                                  [&c] { return poll_hint_for_all(c); });
}

// The same, where every member waits for every other (a barrier, an
// allreduce).
void wait_everyone(Comm& c) {
  wait_all_arrived(c);
  leave_all_arrived(c);
}

// A reader of a rooted round, waiting for the root alone.
void wait_for_root(Comm& c, int root) {
  note_rooted_round(c);
  mpi::state().engine->wait_until(
      [&c, root] { return arrived(c, root); },
      [&c, root] { return poll_hint_for_root(c, root); });
}

// The blocking form of writable_for(): for members that only write.
void wait_writable_for(Comm& c, std::size_t bytes) {
  wait_for([&c, bytes] {
    return bytes <= inline_bytes(c) ? writable_inline_now(c)
                                    : writable_bulk_now(c);
  });
}

}  // namespace

bool barrier_now(Comm& c) {
  arrive(c);
  wait_everyone(c);
  return true;
}

bool bcast_now(Comm& c, const Layout& data, int root) {
  // One round, not streamed: what bcast() does in its first round then.
  const std::size_t n = data.bytes;
  if (n > kBulk || streams(c, n) || descriptor_round(n)) {
    return false;
  }
  if (n == 0 || c.size == 1) {
    return true;
  }
  if (c.rank == root) {
    // The root only writes: it may run ahead of slow readers.
    wait_writable_for(c, n);
    datatype::pack(data, 0, write_area(c, n), n);
    publish(c, true);
  } else {
    publish(c);
    wait_for_root(c, root);
    datatype::unpack(data, 0, data_of(c, root), n);
  }
  return true;
}

bool gather_now(Comm& c, const Layout& send, const Layout& recv, int root,
                bool in_place) {
  const std::size_t total = send.bytes;  // per member
  if (total > kBulk || descriptor_round(total)) {
    return false;  // more than gather()'s one round, or its direct path
  }
  const auto own_at = static_cast<std::size_t>(root) * total;
  if (total == 0 || c.size == 1) {
    if (c.rank == root && !in_place) {
      datatype::copy(send, 0, recv, own_at, total);
    }
    return true;
  }
  if (c.rank == root) {
    publish(c);
    // The own block while the others publish theirs.
    if (!in_place) {
      datatype::copy(send, 0, recv, own_at, total);
    }
    wait_all_arrived(c);
    for (int m = 0; m < c.size; ++m) {
      if (m != root) {
        datatype::unpack(recv, static_cast<std::size_t>(m) * total,
                         data_of(c, m), total);
      }
    }
  } else {
    wait_writable_for(c, total);
    datatype::pack(send, 0, write_area(c, total), total);
    publish(c);
  }
  return true;
}

bool scatter_now(Comm& c, const Layout& send, const Layout& recv, int root,
                 bool in_place) {
  const std::size_t total = recv.bytes;  // per member
  const auto members = static_cast<std::size_t>(c.size);
  if (total > piece_bytes(c, total, members) || descriptor_round(total)) {
    return false;  // more than scatter()'s one round, or its direct path
  }
  const OwnCopy own = own_scatter_block(c, send, recv, root, in_place);
  if (total == 0 || c.size == 1) {
    own.run();
    return true;
  }
  if (c.rank == root) {
    wait_writable_for(c, total * members);
    std::byte* area = write_area(c, total * members);
    for (std::size_t m = 0; m < members; ++m) {
      if (static_cast<int>(m) != root) {
        datatype::pack(send, m * total, area + m * total, total);
      }
    }
    publish(c, true);
    own.run();  // once the others have theirs
  } else {
    publish(c);
    wait_for_root(c, root);
    datatype::unpack(
        recv, 0, data_of(c, root) + static_cast<std::size_t>(c.rank) * total,
        total);
  }
  return true;
}

bool reduce_now(Comm& c, const Layout& send, const Layout& recv,
                const TypeArg& type, const OpArg& op, std::size_t count,
                int root) {
  const Unit unit = unit_of(type, op, count);
  const std::size_t bytes = unit.count * unit.type.packed;
  if (bytes > kBulk || (recv.map != nullptr && c.rank == root)) {
    return false;  // more than reduce()'s one round, or a folding buffer
  }
  if (bytes == 0) {
    return true;
  }
  // Non-roots only write: they may run ahead of a slow root.
  wait_writable_for(c, bytes);
  datatype::pack(send, 0, write_area(c, bytes), bytes);
  publish(c);
  if (c.rank == root) {
    wait_all_arrived(c);
    fold(c, op, unit.type, 0, c.size - 1, 0, unit.count, recv.base);
  }
  return true;
}

bool allreduce_now(Comm& c, const Layout& send, const Layout& recv,
                   const TypeArg& type, const OpArg& op, std::size_t count) {
  const Unit unit = unit_of(type, op, count);
  const std::size_t bytes = unit.count * unit.type.packed;
  if (bytes > kBulk || descriptor_round(bytes) || recv.map != nullptr ||
      !folds_all(bytes, static_cast<std::size_t>(c.size), unit.count)) {
    return false;  // not allreduce()'s one round that folds everything
  }
  if (bytes == 0) {
    return true;
  }
  wait_for([&c] { return writable_now(c); });
  publish_share(c, send, 0, bytes);
  wait_everyone(c);
  fold(c, op, unit.type, 0, c.size - 1, 0, unit.count, recv.base);
  return true;
}

bool reduce_scatter_block_now(Comm& c, const Layout& send, const Layout& recv,
                              const TypeArg& type, const OpArg& op,
                              std::size_t count) {
  const Unit unit = unit_of(type, op, count);
  const std::size_t size = unit.type.packed;
  const auto members = static_cast<std::size_t>(c.size);
  const std::size_t per_round = units_per_round(c, unit.count, size, members);
  if (per_round < unit.count || recv.map != nullptr ||
      descriptor_round(unit.count * size) || stages_units(unit.type, op)) {
    return false;  // not reduce_scatter()'s one round, or a fold buffer
  }
  if (unit.count == 0) {
    return true;
  }
  // reduce_scatter()'s one round, straight through: block j of the send
  // data at j * per_round units.
  const std::size_t block = unit.count * size;
  const std::size_t stride = per_round * size;
  wait_for([&c] { return writable_now(c); });
  std::byte* area = write_area(c, stride * members);
  for (std::size_t j = 0; j < members; ++j) {
    datatype::pack(send, j * block, area + j * stride, block);
  }
  publish(c);
  wait_everyone(c);
  fold(c, op, unit.type, 0, c.size - 1,
       static_cast<std::size_t>(c.rank) * stride, unit.count, recv.base);
  return true;
}

bool scan_now(Comm& c, const Layout& send, const Layout& recv,
              const TypeArg& type, const OpArg& op, std::size_t count,
              bool exclusive) {
  const Unit unit = unit_of(type, op, count);
  const std::size_t bytes = unit.count * unit.type.packed;
  if (bytes > kBulk || recv.map != nullptr ||
      units_per_round(c, unit.count, unit.type.packed) < unit.count ||
      scan_chains(c, bytes)) {
    return false;  // more than scan()'s one round, a folding buffer or a chain
  }
  if (bytes == 0) {
    return true;
  }
  // scan()'s one round, straight through.
  wait_writable_for(c, bytes);
  datatype::pack(send, 0, write_area(c, bytes), bytes);
  publish(c);
  const int last = exclusive ? c.rank - 1 : c.rank;
  if (last >= 0) {
    int next = 0;  // members below `next` have arrived
    wait_for([&c, &next, last] {
      while (next <= last && arrived(c, next)) {
        ++next;
      }
      return next > last;
    });
    fold(c, op, unit.type, 0, last, 0, unit.count, recv.base);
    if (bytes <= inline_bytes(c)) {
      prefetch_slots(c, 0, last, kScanAhead);
    }
  }
  return true;
}

bool allreduce_small_fits(Comm& c, std::size_t bytes) {
  return c.size >= 2 && bytes <= inline_bytes(c) && !spans_numa_nodes(c);
}

void allreduce_small_now(Comm& c, const void* send, void* recv,
                         std::size_t bytes, std::size_t count,
                         datatype::ReduceFn reduce) {
  wait_for([&c] { return writable_now(c); });
  std::memcpy(write_area(c, bytes), send, bytes);
  publish(c);
  wait_everyone(c);
  // fold()'s order: the last member's value, then each lower member's
  // folded in from the left.
  const int last = c.size - 1;
  std::memcpy(recv, data_of(c, last), bytes);
  for (int m = last - 1; m >= 0; --m) {
    reduce(data_of(c, m), recv, count);
  }
}

bool allgather_now(Comm& c, const std::byte* send, std::byte* recv,
                   std::size_t block) {
  const auto me = static_cast<std::size_t>(c.rank);
  std::byte* own = recv + me * block;
  if (block == 0 || c.size == 1) {  // a zero count may come with null buffers
    if (send != nullptr && block != 0) {
      std::memcpy(own, send, block);
    }
    return true;
  }
  if (block > kBulk || descriptor_round(block)) {
    return false;  // more than allgatherv()'s one round, or its direct path
  }
  // allgatherv()'s one round, straight through.
  const std::byte* mine = send != nullptr ? send : own;
  wait_for([&c] { return writable_now(c); });
  std::memcpy(write_area(c, block), mine, block);
  publish(c);
  // The own block while the others publish theirs.
  if (send != nullptr) {
    std::memcpy(own, send, block);
  }
  wait_everyone(c);
  for (std::size_t m = 0; m < static_cast<std::size_t>(c.size); ++m) {
    if (m != me) {
      std::memcpy(recv + m * block, data_of(c, static_cast<int>(m)), block);
    }
  }
  return true;
}

bool alltoall_now(Comm& c, const std::byte* send, std::byte* recv,
                  std::size_t block) {
  const auto members = static_cast<std::size_t>(c.size);
  const auto me = static_cast<std::size_t>(c.rank);
  const std::size_t others = members - 1;
  if (others == 0 || block == 0) {  // a zero count may come with null buffers
    if (send != recv && block != 0) {
      std::memcpy(recv + me * block, send + me * block, block);
    }
    return true;
  }
  // alltoallv's rounds for blocks of this size: only one of them here, and
  // not its direct path.
  const std::size_t piece = piece_bytes(c, block, others);
  if (block > piece || descriptor_round(block)) {
    return false;
  }
  wait_for([&c] { return writable_now(c); });
  std::byte* area = write_area(c, piece * others);
  for (std::size_t j = 0; j < members; ++j) {
    if (j != me) {
      std::memcpy(area + piece_index(j, me) * piece, send + j * block, block);
    }
  }
  publish(c);
  // The own block while the others publish theirs.
  if (send != recv) {
    std::memcpy(recv + me * block, send + me * block, block);
  }
  wait_everyone(c);
  for (std::size_t j = 0; j < members; ++j) {
    if (j != me) {
      std::memcpy(recv + j * block,
                  data_of(c, static_cast<int>(j)) + piece_index(me, j) * piece,
                  block);
    }
  }
  return true;
}

}  // namespace shmpi::coll
