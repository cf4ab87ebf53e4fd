// SPDX-License-Identifier: MIT
// Segment: create on a memfd, attach through the descriptor (in this process
// and in a forked child), populate, and leave nothing in /dev/shm.
#include "segment/segment.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "segment/header.hpp"
#include "segment/shared_heap.hpp"
#include "support/test_env.hpp"

namespace shmpi::segment {
namespace {

constexpr int kErrArg = 13;  // MPI_ERR_ARG (mpi.h)

SegmentConfig small_config(std::uint32_t nranks = 4,
                           std::uint32_t capacity = 6) {
  SegmentConfig config;
  config.nranks = nranks;
  config.capacity = capacity;
  config.ring_cells = 16;
  config.chunk_bytes = 4096;
  config.chunks_per_rank = 4;
  config.rendezvous_slots = 4;
  config.heap_bytes = 1 << 20;
  return config;
}

Segment create_or_die(const SegmentConfig& config,
                      std::int32_t launcher_pid = 1234) {
  auto created = Segment::create(config, launcher_pid);
  if (!created) {
    ADD_FAILURE() << "create failed: " << created.error().what;
    std::abort();
  }
  return std::move(created).value();
}

// Attach takes ownership of the descriptor it is given, so tests hand it a
// duplicate of the creator's.
Result<Segment> attach_dup(const Segment& segment) {
  return Segment::attach(::dup(segment.fd()));
}

std::set<std::string> dev_shm_entries() {
  std::set<std::string> names;
  if (DIR* dir = ::opendir("/dev/shm"); dir != nullptr) {
    while (dirent* entry = ::readdir(dir)) {
      names.insert(entry->d_name);
    }
    ::closedir(dir);
  }
  return names;
}

// Fraction of the pages of [offset, offset + bytes) that are resident.
double resident_fraction(const Segment& segment, std::size_t offset,
                         std::size_t bytes) {
  std::vector<unsigned char> pages((bytes + kPageSize - 1) / kPageSize);
  if (::mincore(segment.base() + offset, bytes, pages.data()) != 0) {
    return -1.0;
  }
  std::size_t resident = 0;
  for (unsigned char page : pages) {
    resident += page & 1u;
  }
  return static_cast<double>(resident) / static_cast<double>(pages.size());
}

TEST(Segment, CreateWritesHeaderAndRankTable) {
  const SegmentConfig config = small_config();
  Segment segment = create_or_die(config, 4321);
  const SegmentHeader& header = segment.header();
  EXPECT_EQ(header.magic, kSegmentMagic);
  EXPECT_EQ(header.layout_version, kLayoutVersion);
  EXPECT_EQ(header.nranks, config.nranks);
  EXPECT_EQ(header.size_bytes, segment.layout().total_bytes);
  EXPECT_EQ(header.launcher_pid, 4321);
  EXPECT_EQ(header.config.capacity, config.capacity);
  EXPECT_EQ(header.config.ring_cells, config.ring_cells);
  EXPECT_EQ(header.config.heap_bytes, config.heap_bytes);
  EXPECT_EQ(header.abort_flag.load(), 0u);
  EXPECT_EQ(header.abort_code.load(), 0);
  EXPECT_EQ(header.abort_rank.load(), -1);
  for (std::uint32_t rank = 0; rank < config.capacity; ++rank) {
    const RankInfo& info = segment.rank_info(rank);
    EXPECT_EQ(info.pid.load(), 0);
    EXPECT_EQ(info.state.load(), static_cast<std::uint32_t>(RankState::kEmpty));
    EXPECT_EQ(info.core, -1);
    EXPECT_EQ(info.numa_node, -1);
    EXPECT_EQ(info.gpid, rank);
  }
}

TEST(Segment, CreateRejectsABadConfigWithErrArg) {
  SegmentConfig config = small_config();
  config.ring_cells = 12;
  auto created = Segment::create(config, 0);
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().mpi_class, kErrArg);
  EXPECT_FALSE(created.error().what.empty());
}

TEST(Segment, DescriptorIsAnAnonymousCloseOnExecMemfd) {
  Segment segment = create_or_die(small_config());
  ASSERT_GE(segment.fd(), 0);
  EXPECT_NE(::fcntl(segment.fd(), F_GETFD) & FD_CLOEXEC, 0);
  char target[256] = {};
  std::string link = "/proc/self/fd/" + std::to_string(segment.fd());
  ssize_t length = ::readlink(link.c_str(), target, sizeof target - 1);
  ASSERT_GT(length, 0);
  EXPECT_EQ(std::string(target).rfind("/memfd:", 0), 0u) << target;
}

TEST(Segment, AttachInTheSameProcessSeesTheSameHeader) {
  Segment creator = create_or_die(small_config());
  auto attached = attach_dup(creator);
  ASSERT_TRUE(attached) << attached.error().what;
  Segment& other = attached.value();
  EXPECT_NE(other.base(), creator.base()) << "a second, independent mapping";
  EXPECT_EQ(std::memcmp(&other.header(), &creator.header(),
                        offsetof(SegmentHeader, abort_flag)),
            0);
  EXPECT_EQ(other.layout().total_bytes, creator.layout().total_bytes);
  EXPECT_EQ(other.layout().ring_offset(2, 3),
            creator.layout().ring_offset(2, 3));
  EXPECT_EQ(other.layout().heap_offset, creator.layout().heap_offset);

  // Both mappings are views of one memory.
  creator.rank_info(2).pid.store(777);
  EXPECT_EQ(other.rank_info(2).pid.load(), 777);
  other.header().abort_code.store(9);
  EXPECT_EQ(creator.header().abort_code.load(), 9);
}

TEST(Segment, AttachInAForkedChildSeesTheSameHeader) {
  Segment creator = create_or_die(small_config());
  const int fd = creator.fd();
  const std::uint64_t job_id = creator.header().job_id;
  pid_t child = test::fork_child([&] {
    // The child maps the inherited descriptor afresh, as a rank does.
    auto attached = Segment::attach(::dup(fd));
    if (!attached) {
      return 10;
    }
    Segment& segment = attached.value();
    if (segment.header().job_id != job_id || segment.header().nranks != 4 ||
        segment.layout().total_bytes != segment.header().size_bytes) {
      return 11;
    }
    segment.rank_info(1).pid.store(static_cast<std::int32_t>(::getpid()));
    segment.rank_info(1).state.store(
        static_cast<std::uint32_t>(RankState::kRunning));
    return 0;
  });
  ASSERT_GT(child, 0);
  EXPECT_EQ(test::wait_child(child), 0);
  EXPECT_EQ(creator.rank_info(1).pid.load(), child);
  EXPECT_EQ(creator.rank_info(1).state.load(),
            static_cast<std::uint32_t>(RankState::kRunning));
}

TEST(Segment, AttachRejectsAForeignDescriptor) {
  // A memfd of the right minimum size but without the magic.
  int fd = ::memfd_create("not-shmpi", MFD_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, 1 << 20), 0);
  auto attached = Segment::attach(fd);
  EXPECT_FALSE(attached);

  // Too small to hold a header.
  int tiny = ::memfd_create("tiny", MFD_CLOEXEC);
  ASSERT_GE(tiny, 0);
  EXPECT_FALSE(Segment::attach(tiny));
  // attach() closes the descriptor on some failures and not on others.
  for (int leftover : {fd, tiny}) {
    if (::fcntl(leftover, F_GETFD) >= 0) {
      ::close(leftover);
    }
  }
}

TEST(Segment, AttachRejectsAnotherLayoutVersion) {
  Segment creator = create_or_die(small_config());
  creator.header().layout_version = kLayoutVersion + 1;
  auto attached = attach_dup(creator);
  EXPECT_FALSE(attached);
  creator.header().layout_version = kLayoutVersion;
  EXPECT_TRUE(attach_dup(creator));
}

TEST(Segment, AttachRejectsASizeMismatch) {
  Segment creator = create_or_die(small_config());
  ASSERT_EQ(
      ::ftruncate(creator.fd(),
                  static_cast<off_t>(creator.layout().total_bytes + kPageSize)),
      0);
  EXPECT_FALSE(attach_dup(creator));
}

TEST(Segment, PopulateMakesTheRankRegionResident) {
  Segment segment = create_or_die(small_config());
  const SegmentLayout& layout = segment.layout();
  // create() populates the header, rank table and scratch, nothing else.
  EXPECT_EQ(resident_fraction(segment, 0,
                              layout.scratch_offset + layout.scratch_bytes),
            1.0);
  EXPECT_EQ(
      resident_fraction(segment, layout.region_offset(2), layout.region_bytes),
      0.0);

  auto populated = segment.populate_rank_region(2);
  ASSERT_TRUE(populated) << populated.error().what;
  EXPECT_EQ(
      resident_fraction(segment, layout.region_offset(2), layout.region_bytes),
      1.0);
  EXPECT_EQ(
      resident_fraction(segment, layout.region_offset(3), layout.region_bytes),
      0.0);

  // An unaligned heap range is rounded out to whole pages.
  auto heap = segment.populate(layout.heap_offset + 100, 2 * kPageSize);
  ASSERT_TRUE(heap) << heap.error().what;
  EXPECT_EQ(resident_fraction(segment, layout.heap_offset, 3 * kPageSize), 1.0);
}

TEST(Segment, EveryRankCanPopulateItsRegion) {
  Segment segment = create_or_die(small_config());
  for (std::uint32_t rank = 0; rank < segment.layout().config.capacity;
       ++rank) {
    auto populated = segment.populate_rank_region(rank);
    EXPECT_TRUE(populated) << "rank " << rank;
  }
}

TEST(Segment, MoveTransfersTheMapping) {
  Segment first = create_or_die(small_config());
  std::byte* base = first.base();
  const int fd = first.fd();
  Segment second = std::move(first);
  EXPECT_EQ(second.base(), base);
  EXPECT_EQ(second.fd(), fd);
  EXPECT_EQ(
      first.base(),
      nullptr);  // NOLINT(bugprone-use-after-move): checks the moved-from state
  EXPECT_EQ(second.header().magic, kSegmentMagic);
}

TEST(Segment, OffsetOfAndInHeap) {
  Segment segment = create_or_die(small_config());
  const SegmentLayout& layout = segment.layout();
  EXPECT_EQ(segment.offset_of(segment.base()), 0u);
  EXPECT_EQ(segment.offset_of(segment.base() + layout.ring_offset(1, 2)),
            layout.ring_offset(1, 2));
  int outside = 0;
  EXPECT_EQ(segment.offset_of(&outside), SIZE_MAX);
  EXPECT_EQ(segment.offset_of(segment.base() + layout.total_bytes), SIZE_MAX);
  EXPECT_TRUE(
      segment.in_heap(segment.base() + layout.heap_offset, layout.heap_bytes));
  EXPECT_FALSE(segment.in_heap(segment.base() + layout.heap_offset,
                               layout.heap_bytes + 1));
  EXPECT_FALSE(segment.in_heap(segment.base() + layout.heap_offset - 1, 1));
}

TEST(Segment, LeavesNoFileInDevShm) {
  const std::set<std::string> before = dev_shm_entries();
  {
    Segment creator = create_or_die(small_config());
    ASSERT_TRUE(creator.populate_rank_region(0));
    auto attached = attach_dup(creator);
    ASSERT_TRUE(attached);
    void* block = creator.heap().allocate(1000);
    EXPECT_NE(block, nullptr);
    pid_t child = test::fork_child([fd = creator.fd()] {
      auto segment = Segment::attach(::dup(fd));
      return segment && segment.value().populate_rank_region(1) ? 0 : 1;
    });
    EXPECT_EQ(test::wait_child(child), 0);
    EXPECT_EQ(dev_shm_entries(), before) << "while the segment is alive";
    creator.heap().deallocate(block);
  }
  EXPECT_EQ(dev_shm_entries(), before) << "after the segment is gone";
}

}  // namespace
}  // namespace shmpi::segment
