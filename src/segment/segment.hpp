// SPDX-License-Identifier: MIT
// Segment: the job's one shared mapping, backed by a memfd. The launcher
// creates it (and the children inherit the descriptor across exec); a rank
// attaches by descriptor. When the last process holding the memfd exits the
// kernel frees it, so nothing can be left behind in /dev/shm.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "base/result.hpp"
#include "segment/header.hpp"
#include "segment/layout.hpp"

namespace shmpi::segment {

class SharedHeap;

class Segment {
 public:
  // Creates the memfd (close-on-exec; the launcher clears that flag in each
  // child), sizes it, maps it and writes the header and rank table. Memory is
  // not populated here: each rank populates its own region.
  static Result<Segment> create(const SegmentConfig& config,
                                std::int32_t launcher_pid);
  // Maps an inherited descriptor and checks magic, version and size. Takes
  // ownership of `fd`: it is closed with the segment, or at once on failure.
  static Result<Segment> attach(int fd);

  Segment(Segment&& other) noexcept;
  Segment& operator=(Segment&& other) noexcept;
  Segment(const Segment&) = delete;
  Segment& operator=(const Segment&) = delete;
  ~Segment();

  // MADV_POPULATE_WRITE over the rank's own region: places its pages on the
  // calling thread's NUMA node and turns a memory shortage into a clear
  // MPI_ERR_NO_MEM now instead of a SIGBUS later.
  Result<void> populate_rank_region(std::uint32_t rank) const;
  // Populates [offset, offset + bytes) (page-rounded); used for heap blocks.
  Result<void> populate(std::size_t offset, std::size_t bytes) const;
  // A block of the shared heap, populated (a shortage shows now, not as
  // SIGBUS later), or nullptr when the heap or the memory is short.
  void* allocate_populated(std::size_t bytes, std::size_t alignment) const;

  int fd() const { return fd_; }
  std::byte* base() const { return base_; }
  const SegmentLayout& layout() const { return layout_; }
  SegmentHeader& header() const {
    return *reinterpret_cast<SegmentHeader*>(base_);
  }
  RankInfo& rank_info(std::uint32_t rank) const {
    return *reinterpret_cast<RankInfo*>(base_ + layout_.rank_info_offset(rank));
  }
  template <typename T>
  T* at(std::size_t offset) const {
    return reinterpret_cast<T*>(base_ + offset);
  }
  // Offset of a pointer into the segment, or SIZE_MAX if it is outside.
  std::size_t offset_of(const void* pointer) const {
    auto p = reinterpret_cast<const std::byte*>(pointer);
    return (p >= base_ && p < base_ + layout_.total_bytes)
               ? static_cast<std::size_t>(p - base_)
               : SIZE_MAX;
  }
  bool in_heap(const void* pointer, std::size_t bytes) const {
    std::size_t offset = offset_of(pointer);
    return offset != SIZE_MAX && offset >= layout_.heap_offset &&
           offset + bytes <= layout_.heap_offset + layout_.heap_bytes;
  }
  SharedHeap& heap() const { return *heap_; }

 private:
  Segment() = default;
  void release() noexcept;

  int fd_ = -1;
  bool owns_fd_ = false;
  std::byte* base_ = nullptr;
  SegmentLayout layout_{};
  std::unique_ptr<SharedHeap> heap_;
};

}  // namespace shmpi::segment
