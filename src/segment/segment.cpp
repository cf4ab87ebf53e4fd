// SPDX-License-Identifier: MIT
#include "segment/segment.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <new>
#include <utility>

#include "segment/shared_heap.hpp"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace shmpi::segment {

namespace {

constexpr int kErrNoMem = 39;  // MPI_ERR_NO_MEM (mpi.h)
constexpr int kErrOther = 16;  // MPI_ERR_OTHER
constexpr int kErrArg = 13;    // MPI_ERR_ARG

std::byte* map_fd(int fd, std::size_t bytes) {
  void* address =
      ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return address == MAP_FAILED ? nullptr : static_cast<std::byte*>(address);
}

}  // namespace

Segment::Segment(Segment&& other) noexcept { *this = std::move(other); }

Segment& Segment::operator=(Segment&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = std::exchange(other.fd_, -1);
    owns_fd_ = std::exchange(other.owns_fd_, false);
    base_ = std::exchange(other.base_, nullptr);
    layout_ = other.layout_;
    heap_ = std::move(other.heap_);
  }
  return *this;
}

Segment::~Segment() { release(); }

void Segment::release() noexcept {
  heap_.reset();
  if (base_ != nullptr) {
    ::munmap(base_, layout_.total_bytes);
    base_ = nullptr;
  }
  if (owns_fd_ && fd_ >= 0) {
    ::close(fd_);
  }
  fd_ = -1;
}

Result<Segment> Segment::create(const SegmentConfig& config,
                                std::int32_t launcher_pid) {
  const char* why = nullptr;
  if (!validate_config(config, &why)) {
    return Err{kErrArg, why};
  }
  Segment segment;
  segment.layout_ = compute_layout(config);
  segment.fd_ = ::memfd_create("shmpi", MFD_CLOEXEC);
  if (segment.fd_ < 0) {
    return Err{kErrOther, "memfd_create failed"};
  }
  segment.owns_fd_ = true;
  if (::ftruncate(segment.fd_,
                  static_cast<off_t>(segment.layout_.total_bytes)) != 0) {
    return Err{kErrNoMem, "cannot size the shared segment (ftruncate failed)"};
  }
  segment.base_ = map_fd(segment.fd_, segment.layout_.total_bytes);
  if (segment.base_ == nullptr) {
    return Err{kErrNoMem, "cannot map the shared segment"};
  }
  // The header page and the rank table are small and touched by everyone:
  // populate them here so a shortage shows before any rank starts.
  if (auto populated = segment.populate(
          0, segment.layout_.scratch_offset + segment.layout_.scratch_bytes);
      !populated) {
    return populated.error();
  }
  auto* header = new (segment.base_) SegmentHeader{};
  header->magic = kSegmentMagic;
  header->layout_version = kLayoutVersion;
  header->nranks = config.nranks;
  header->size_bytes = segment.layout_.total_bytes;
  header->job_id =
      static_cast<std::uint64_t>(
          std::chrono::steady_clock::now().time_since_epoch().count()) ^
      (static_cast<std::uint64_t>(::getpid()) << 40);
  header->launcher_pid = launcher_pid;
  header->config = config;
  header->abort_flag.store(0, std::memory_order_relaxed);
  header->abort_code.store(0, std::memory_order_relaxed);
  header->abort_rank.store(-1, std::memory_order_relaxed);
  header->sleepers.store(0, std::memory_order_relaxed);
  for (std::uint32_t rank = 0; rank < config.capacity; ++rank) {
    auto* info =
        new (segment.base_ + segment.layout_.rank_info_offset(rank)) RankInfo{};
    info->pid.store(0, std::memory_order_relaxed);
    info->state.store(static_cast<std::uint32_t>(RankState::kEmpty),
                      std::memory_order_relaxed);
    info->core = -1;
    info->numa_node = -1;
    info->gpid = rank;  // process group 0, rank in it
  }
  try {
    segment.heap_ =
        SharedHeap::create(segment.base_ + segment.layout_.heap_offset,
                           segment.layout_.heap_bytes);
  } catch (...) {
    return Err{kErrNoMem, "cannot build the shared heap"};
  }
  // Everything above is published to the ranks by fork/exec (and to threads
  // of this process by the release in whatever hands the segment over).
  std::atomic_thread_fence(std::memory_order_release);
  return segment;
}

Result<Segment> Segment::attach(int fd) {
  struct stat info {};
  if (::fstat(fd, &info) != 0 || info.st_size < static_cast<off_t>(kPageSize)) {
    ::close(fd);
    return Err{kErrOther, "SHMPI_SEGMENT_FD does not name a shmpi segment"};
  }
  Segment segment;
  segment.fd_ = fd;
  segment.owns_fd_ = true;
  auto size = static_cast<std::size_t>(info.st_size);
  segment.base_ = map_fd(fd, size);
  if (segment.base_ == nullptr) {
    return Err{kErrNoMem, "cannot map the shared segment"};
  }
  const auto& header = *reinterpret_cast<const SegmentHeader*>(segment.base_);
  if (header.magic != kSegmentMagic ||
      header.layout_version != kLayoutVersion) {
    ::munmap(segment.base_, size);
    segment.base_ = nullptr;
    return Err{
        kErrOther,
        "shared segment has a different layout version (mixed shmpi builds?)"};
  }
  segment.layout_ = compute_layout(header.config);
  if (segment.layout_.total_bytes != size || header.size_bytes != size) {
    ::munmap(segment.base_, size);
    segment.base_ = nullptr;
    return Err{kErrOther, "shared segment size does not match its layout"};
  }
  try {
    segment.heap_ =
        SharedHeap::open(segment.base_ + segment.layout_.heap_offset,
                         segment.layout_.heap_bytes);
  } catch (...) {
    return Err{kErrOther, "cannot attach to the shared heap"};
  }
  return segment;
}

Result<void> Segment::populate(std::size_t offset, std::size_t bytes) const {
  std::size_t begin = offset / kPageSize * kPageSize;
  std::size_t end = align_up(offset + bytes, kPageSize);
  if (::madvise(base_ + begin, end - begin, MADV_POPULATE_WRITE) == 0) {
    return {};
  }
  if (errno == EINVAL) {
    // Kernel older than 5.14: touch each page instead (a shortage then shows
    // as SIGBUS, which we cannot turn into an error).
    for (std::size_t page = begin; page < end; page += kPageSize) {
      auto* word = reinterpret_cast<volatile unsigned char*>(base_ + page);
      *word = *word;
    }
    return {};
  }
  return Err{
      kErrNoMem,
      "not enough memory for the shared segment (MADV_POPULATE_WRITE failed)"};
}

void* Segment::allocate_populated(std::size_t bytes,
                                  std::size_t alignment) const {
  void* memory = heap().allocate_aligned(bytes, alignment);
  if (memory != nullptr && bytes > 0 && !populate(offset_of(memory), bytes)) {
    heap().deallocate(memory);
    return nullptr;
  }
  return memory;
}

Result<void> Segment::populate_rank_region(std::uint32_t rank) const {
  return populate(layout_.region_offset(rank), layout_.region_bytes);
}

}  // namespace shmpi::segment
