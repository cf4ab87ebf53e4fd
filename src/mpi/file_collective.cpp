// SPDX-License-Identifier: MIT
#include "mpi/file_collective.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "datatype/pack.hpp"
#include "io/posix_file.hpp"
#include "mpi/detail/pmpi.hpp"
#include "mpi/file_write_guard.hpp"
#include "segment/segment.hpp"
#include "segment/shared_heap.hpp"

namespace shmpi::mpi {

namespace {

// When it pays: some member's write is at least kMinRuns runs averaging
// under kSmallRunBytes. Measured with 1 MiB per member in an interleaved
// view, 2 ranks on 2 cores (docs/design.md "Collective buffering"): the
// aggregated path costs about 0.6 ms whatever the runs; a pwrite per run
// costs 0.95 ms at 2 KiB runs and 0.5 ms at 4 KiB.
constexpr std::uint64_t kMinRuns = 64;
constexpr std::uint64_t kSmallRunBytes = 4096;
// A domain is at least this big, so that a small span has fewer
// aggregators than members; domain bounds are page multiples from the
// span's start.
constexpr std::uint64_t kMinDomainBytes = 512u << 10;
constexpr std::uint64_t kPageBytes = 4096;
// An aggregator assembles its domain in pieces of at most this many bytes.
constexpr std::uint64_t kPieceBytes = 16u << 20;

// One file run of a member's data, in the member's block: `at` is the file
// offset, `from` where its bytes start in the member's packed data. Its
// length is the next run's `from` minus its own (the last run's: the
// member's bytes minus its own). Runs are in stream order, which is
// increasing file order (filetype displacements never decrease), so
// aggregators binary-search them by `at`.
struct Run {
  std::int64_t at;
  std::uint64_t from;
};
static_assert(sizeof(Run) == 16 && alignof(Run) == 8,
              "an array of runs starts the block (64-byte aligned) and the "
              "packed data follows it at a multiple of 16");
static_assert(std::is_trivially_copyable_v<Run> &&
                  std::is_standard_layout_v<Run>,
              "runs are read by other processes through the segment");

// A member's block in the shared heap: Run[runs], then the packed data.
// What each member publishes about it, in one allgather.
struct Published {
  std::uint64_t failed = 0;        // 1: no shared heap for the block
  std::uint64_t block_offset = 0;  // segment offset (runs > 0)
  std::uint64_t runs = 0;
  std::uint64_t bytes = 0;  // packed data bytes
  std::int64_t first = 0;   // the file span [first, end) (runs > 0)
  std::int64_t end = 0;
};
static_assert(sizeof(Published) == 48 &&
                  std::is_trivially_copyable_v<Published>,
              "allgathered as bytes between processes of one build");

// Bits [first, end) of a coverage bitmap set.
void mark(std::vector<std::uint64_t>& bits, std::uint64_t first,
          std::uint64_t end) {
  while (first < end) {
    const std::uint64_t bit = first % 64;
    const std::uint64_t n = std::min<std::uint64_t>(64 - bit, end - first);
    const std::uint64_t mask =
        n == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << n) - 1) << bit;
    bits[first / 64] |= mask;
    first += n;
  }
}

// The first bit at or after `from` that equals `set`, or `limit`.
std::uint64_t next_bit(const std::vector<std::uint64_t>& bits,
                       std::uint64_t from, std::uint64_t limit, bool set) {
  while (from < limit) {
    const std::uint64_t word = set ? bits[from / 64] : ~bits[from / 64];
    const std::uint64_t rest = word >> (from % 64);
    if (rest != 0) {
      return std::min(
          limit, from + static_cast<std::uint64_t>(std::countr_zero(rest)));
    }
    from += 64 - from % 64;
  }
  return limit;
}

// The aggregator's part: file bytes [first, end) assembled from every
// member's runs that touch them and written where some member wrote. 0 or
// the errno of the first failed write.
int write_domain(const File& file, const segment::Segment& segment,
                 const std::vector<Published>& members, std::int64_t first,
                 std::int64_t end) {
  const auto domain = static_cast<std::uint64_t>(end - first);
  std::vector<std::byte> buffer(std::min(domain, kPieceBytes));
  std::vector<std::uint64_t> covered((buffer.size() + 63) / 64);
  for (std::int64_t a = first; a < end;
       a += static_cast<std::int64_t>(kPieceBytes)) {
    const std::int64_t b =
        std::min(end, a + static_cast<std::int64_t>(kPieceBytes));
    const auto piece = static_cast<std::uint64_t>(b - a);
    std::fill(covered.begin(), covered.end(), 0);
    // In rank order: where two members wrote the same byte, the higher
    // rank's data stays, as if the members wrote in rank order.
    for (const Published& m : members) {
      if (m.runs == 0 || m.end <= a || m.first >= b) {
        continue;
      }
      const Run* runs = segment.at<Run>(m.block_offset);
      const Run* last = runs + m.runs;
      const std::byte* packed =
          segment.at<std::byte>(m.block_offset + m.runs * sizeof(Run));
      // The last run starting at or before a may reach into the piece.
      const Run* r = std::upper_bound(
          runs, last, a,
          [](std::int64_t at, const Run& run) { return at < run.at; });
      if (r != runs) {
        --r;
      }
      for (; r != last && r->at < b; ++r) {
        const std::uint64_t next = r + 1 != last ? r[1].from : m.bytes;
        const std::int64_t run_end =
            r->at + static_cast<std::int64_t>(next - r->from);
        const std::int64_t s = std::max(r->at, a);
        const std::int64_t e = std::min(run_end, b);
        if (s >= e) {
          continue;
        }
        std::memcpy(buffer.data() + (s - a),
                    packed + r->from + static_cast<std::uint64_t>(s - r->at),
                    static_cast<std::size_t>(e - s));
        mark(covered, static_cast<std::uint64_t>(s - a),
             static_cast<std::uint64_t>(e - a));
      }
    }
    // Only what some member wrote: the holes keep what the file holds, and
    // a concurrent writer of them is not overwritten.
    // Announced as a plain write (mpi/file_write_guard.hpp): an
    // independent sieving writer may be rewriting part of the piece.
    PlainWriteGuard announced(file, a, a + static_cast<std::int64_t>(piece));
    for (std::uint64_t s = next_bit(covered, 0, piece, true); s < piece;) {
      const std::uint64_t e = next_bit(covered, s, piece, false);
      const std::int64_t n = io::write_at(file.fd, buffer.data() + s, e - s,
                                          a + static_cast<std::int64_t>(s));
      if (n < 0) {
        return static_cast<int>(-n);
      }
      s = next_bit(covered, e, piece, true);
    }
  }
  return 0;
}

// The members' domains: [lo, hi) cut into `count` page-multiple domains,
// domain d written by rank d * size / count. Returns this rank's domain,
// empty when it aggregates none.
struct Domain {
  std::int64_t first = 0;
  std::int64_t end = 0;
};
Domain my_domain(std::int64_t lo, std::int64_t hi, int size, int rank) {
  const auto span = static_cast<std::uint64_t>(hi - lo);
  std::uint64_t count =
      std::clamp<std::uint64_t>((span + kMinDomainBytes - 1) / kMinDomainBytes,
                                1, static_cast<std::uint64_t>(size));
  std::uint64_t length = (span + count - 1) / count;
  length = (length + kPageBytes - 1) / kPageBytes * kPageBytes;
  count = (span + length - 1) / length;
  for (std::uint64_t d = 0; d < count; ++d) {
    if (d * static_cast<std::uint64_t>(size) / count ==
        static_cast<std::uint64_t>(rank)) {
      const std::int64_t first = lo + static_cast<std::int64_t>(d * length);
      return Domain{first,
                    std::min(hi, first + static_cast<std::int64_t>(length))};
    }
  }
  return Domain{};
}

// The votes on buffering, in the order MAX decides them.
constexpr std::int64_t kNotWanted = 0;
constexpr std::int64_t kWanted = 1;
constexpr std::int64_t kDeclined = 2;

// Whether collective writes on `file` vote on buffering; every member
// decides alike. Not in another data representation, nor in atomic mode
// (set_view and set_atomicity agree on both), where each member's write
// must appear whole to other accesses, which writing it in the
// aggregators' pieces would not give; nor when every member's view is
// contiguous (set_view agrees on it), which makes every call one run.
bool votes(const File& file) {
  return file.representation == nullptr &&
         !file.atomic.load(std::memory_order_relaxed) && !file.views_contiguous;
}

}  // namespace

void collective_write_decline(File& file) noexcept {
  // collective_write() votes only on these files; on the others no member
  // waits for anything.
  if (!votes(file)) {
    return;
  }
  std::int64_t vote = kDeclined;
  PMPI_Allreduce(MPI_IN_PLACE, &vote, 1, MPI_INT64_T, MPI_MAX,
                 file.comm->handle);
}

int collective_write(File& file, MPI_Offset offset, const FileData& data,
                     const TypeArg& type, MPI_Status* status, MPI_Offset* moved,
                     const char* function) noexcept {
  if (!votes(file)) {
    return transfer(file, true, offset, data, type, status, moved, function);
  }
  const std::uint64_t bytes = type.bytes(static_cast<std::size_t>(data.count));
  const std::uint64_t position =
      static_cast<std::uint64_t>(offset) * file.etype_size;
  std::uint64_t runs = 0;
  file.view.for_each_run(position, bytes,
                         [&runs](std::int64_t, std::uint64_t, std::uint64_t) {
                           ++runs;
                           return true;
                         });
  // Whether it pays: one member with many small runs is enough, since
  // everyone waits for the slowest member. A member that failed its checks
  // votes kDeclined (collective_write_decline), which outweighs the rest.
  std::int64_t wants =
      runs >= kMinRuns && bytes < runs * kSmallRunBytes ? kWanted : kNotWanted;
  const MPI_Comm comm = file.comm->handle;
  if (int rc =
          PMPI_Allreduce(MPI_IN_PLACE, &wants, 1, MPI_INT64_T, MPI_MAX, comm);
      rc != MPI_SUCCESS) {
    return rc;  // raised on the file already (Comm::file)
  }
  if (wants != kWanted) {
    return transfer(file, true, offset, data, type, status, moved, function);
  }

  // Pack the data and list the runs in a block of the shared heap.
  const segment::Segment& segment = state().runtime->segment();
  Published mine;
  std::byte* block = nullptr;
  if (runs > 0) {
    block = static_cast<std::byte*>(
        segment.allocate_populated(runs * sizeof(Run) + bytes, 64));
    if (block == nullptr) {
      mine.failed = 1;
    } else {
      auto* list = reinterpret_cast<Run*>(block);  // NOLINT: heap block
      std::byte* packed = block + runs * sizeof(Run);
      datatype::pack(
          type.layout(data.buffer, static_cast<std::size_t>(data.count)), 0,
          packed, bytes);
      std::uint64_t i = 0;
      file.view.for_each_run(
          position, bytes,
          [&](std::int64_t at, std::uint64_t from, std::uint64_t) {
            list[i++] = Run{at, from - position};
            return true;
          });
      mine.block_offset = segment.offset_of(block);
      mine.runs = runs;
      mine.bytes = bytes;
      mine.first = list[0].at;
      const Run& tail = list[runs - 1];
      mine.end = tail.at + static_cast<std::int64_t>(bytes - tail.from);
    }
  }
  // The allgather publishes the blocks: shmpi's collectives order each
  // member's writes before it contributes before every member's reads
  // after it receives.
  std::vector<Published> members(static_cast<std::size_t>(file.comm->size));
  int rc = PMPI_Allgather(&mine, sizeof mine, MPI_BYTE, members.data(),
                          sizeof mine, MPI_BYTE, comm);
  const bool any_failed =
      std::any_of(members.begin(), members.end(),
                  [](const Published& m) { return m.failed != 0; });
  if (rc != MPI_SUCCESS || any_failed) {
    // Every member saw the same list, so all fall back together.
    if (block != nullptr) {
      segment.heap().deallocate(block);
    }
    if (rc != MPI_SUCCESS) {
      return rc;
    }
    return transfer(file, true, offset, data, type, status, moved, function);
  }

  std::int64_t lo = INT64_MAX;
  std::int64_t hi = INT64_MIN;
  for (const Published& m : members) {
    if (m.runs > 0) {
      lo = std::min(lo, m.first);
      hi = std::max(hi, m.end);
    }
  }
  // Some member has runs (it wanted this path), so the span is not empty.
  const Domain domain = my_domain(lo, hi, file.comm->size, file.comm->rank);
  int error_number = 0;
  if (domain.first < domain.end) {
    // The other members' blocks are read here, and freed by them after
    // the allreduce below.
    const segment::SharedHeap::ForeignUse use(segment.heap());
    error_number =
        write_domain(file, segment, members, domain.first, domain.end);
  }
  // Ends the call before any member frees its block, and gives every
  // member the first failure (the largest errno).
  int any_error = error_number;
  rc = PMPI_Allreduce(MPI_IN_PLACE, &any_error, 1, MPI_INT, MPI_MAX, comm);
  if (block != nullptr) {
    segment.heap().deallocate(block);
  }
  if (rc != MPI_SUCCESS) {
    return rc;
  }
  if (any_error != 0) {
    return fail_file(&file, io_error_class(any_error), function, "%s%s",
                     error_number != 0 ? "" : "another member's part: ",
                     std::strerror(any_error));
  }
  *moved = static_cast<MPI_Offset>(bytes / file.etype_size);
  set_io_status(status, static_cast<MPI_Count>(bytes));
  return MPI_SUCCESS;
}

}  // namespace shmpi::mpi
