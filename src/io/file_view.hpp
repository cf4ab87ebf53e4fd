// SPDX-License-Identifier: MIT
// A file view (MPI 4.0 §14.3): the part of a file a process sees, as one
// stream of data bytes. The view starts `disp` bytes into the file and
// tiles the filetype from there: tile k begins at disp + k * extent, and
// its data bytes (the filetype's type map, in order) are stream bytes
// [k * packed, (k + 1) * packed). The holes between them are not seen.
//
// Positions here are stream bytes; the MPI layer converts etype offsets
// (offset * etype size). Only the native representation is laid out this
// way: the file holds the bytes the memory holds.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>

#include "datatype/type_map.hpp"

namespace shmpi::io {

class FileView {
 public:
  // The default view: the file as a stream of bytes from its start.
  FileView() = default;
  // `filetype` must have data (packed > 0) and no negative or decreasing
  // displacements (check_filetype()).
  FileView(std::int64_t disp, datatype::DescPtr filetype);

  std::int64_t disp() const { return disp_; }

  // Whether the tiles touch and hold one block each: the stream is one run
  // of the file, whatever range a call takes.
  bool contiguous() const {
    return map_ == nullptr && extent_ == static_cast<std::int64_t>(packed_);
  }

  // The file offset of stream byte `position`: where it lies in its tile
  // (MPI_File_get_byte_offset). A position at the end of a tile's data is
  // the next tile's first data byte.
  [[nodiscard]] std::int64_t file_offset(std::uint64_t position) const;

  // How many stream bytes lie before file offset `offset`: the stream
  // position of the first data byte at or after it (MPI_SEEK_END: the end
  // of the file).
  [[nodiscard]] std::uint64_t stream_before(std::int64_t offset) const;

  // Calls run(file_offset, stream_position, bytes) for each run of file
  // bytes holding stream bytes [position, position + bytes), in stream
  // order; runs that touch in the file are merged. Stops early when run
  // returns false.
  template <class Run>
  void for_each_run(std::uint64_t position, std::uint64_t bytes,
                    Run&& run) const;

  // The first and one past the last file byte that stream bytes
  // [position, position + bytes) touch (bytes > 0): the range a lock must
  // cover.
  struct Span {
    std::int64_t first = 0;
    std::int64_t end = 0;
  };
  [[nodiscard]] Span span(std::uint64_t position, std::uint64_t bytes) const;

 private:
  // One contiguous piece of a tile: `length` bytes at file offset `at`
  // (from the tile's start), holding the tile's stream bytes from `start`.
  struct Piece {
    std::int64_t at;
    std::uint64_t length;
  };
  // The piece holding tile-relative stream byte `r` (< packed_), clipped to
  // start there.
  [[nodiscard]] Piece piece_at(std::uint64_t r) const;

  std::int64_t disp_ = 0;
  datatype::DescPtr filetype_;  // nullptr: bytes (packed 1, extent 1)
  std::uint64_t packed_ = 1;
  std::int64_t extent_ = 1;
  std::int64_t true_lb_ = 0;
  const datatype::TypeMap* map_ = nullptr;  // nullptr: one block a tile
};

// Why `filetype` cannot be a filetype, or nullptr when it can: it must hold
// data, and its data must lie at non-negative, nondecreasing displacements
// (MPI 4.0 §14.3: "absolute addresses ... monotonically nondecreasing").
[[nodiscard]] const char* check_filetype(const datatype::TypeDesc& filetype);

template <class Run>
void FileView::for_each_run(std::uint64_t position, std::uint64_t bytes,
                            Run&& run) const {
  if (bytes == 0) {
    return;
  }
  if (contiguous()) {
    run(disp_ + true_lb_ + static_cast<std::int64_t>(position), position,
        bytes);
    return;
  }
  // Where `position` falls, found once; then each piece steps to the next
  // (block, segment, tile) without the division and search piece_at costs:
  // a view of small blocks has a run every few bytes.
  const std::uint64_t r = position % packed_;
  std::int64_t tile_at =
      disp_ + static_cast<std::int64_t>(position / packed_) * extent_ +
      true_lb_;
  std::size_t segment = 0;
  std::uint64_t block = 0;
  std::uint64_t within = r;
  if (map_ != nullptr) {
    const auto& starts = map_->starts;
    segment = static_cast<std::size_t>(
        std::upper_bound(starts.begin(), starts.end(), r) - starts.begin() - 1);
    const std::uint64_t off = r - starts[segment];
    block = off / map_->segments[segment].length;
    within = off % map_->segments[segment].length;
  }
  std::int64_t pending_at = 0;
  std::uint64_t pending_from = position;
  std::uint64_t pending_bytes = 0;
  while (bytes > 0) {
    std::int64_t at = tile_at + static_cast<std::int64_t>(within);
    std::uint64_t length = packed_ - within;
    if (map_ != nullptr) {
      const datatype::Segment& seg = map_->segments[segment];
      at += seg.disp + static_cast<std::int64_t>(block) * seg.stride;
      length = seg.length - within;
    }
    const std::uint64_t take = length < bytes ? length : bytes;
    if (pending_bytes != 0 &&
        pending_at + static_cast<std::int64_t>(pending_bytes) == at) {
      pending_bytes += take;
    } else {
      if (pending_bytes != 0 && !run(pending_at, pending_from, pending_bytes)) {
        return;
      }
      pending_at = at;
      pending_from = position;
      pending_bytes = take;
    }
    position += take;
    bytes -= take;
    // The piece is used up (or the call is): step to the next one.
    within = 0;
    bool next_tile = map_ == nullptr;
    if (!next_tile && ++block == map_->segments[segment].count) {
      block = 0;
      next_tile = ++segment == map_->segments.size();
    }
    if (next_tile) {
      segment = 0;
      tile_at += extent_;
    }
  }
  run(pending_at, pending_from, pending_bytes);
}

}  // namespace shmpi::io
