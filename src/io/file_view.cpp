// SPDX-License-Identifier: MIT
#include "io/file_view.hpp"

#include <algorithm>
#include <utility>

namespace shmpi::io {

FileView::FileView(std::int64_t disp, datatype::DescPtr filetype)
    : disp_(disp), filetype_(std::move(filetype)) {
  packed_ = filetype_->packed;
  extent_ = filetype_->extent();
  true_lb_ = filetype_->true_lb;
  map_ = filetype_->map.get();
}

FileView::Piece FileView::piece_at(std::uint64_t r) const {
  if (map_ == nullptr) {
    return Piece{true_lb_ + static_cast<std::int64_t>(r), packed_ - r};
  }
  // The last segment starting at or before r.
  const auto& starts = map_->starts;
  const std::size_t s = static_cast<std::size_t>(
      std::upper_bound(starts.begin(), starts.end(), r) - starts.begin() - 1);
  const datatype::Segment& seg = map_->segments[s];
  const std::uint64_t off = r - starts[s];
  const std::uint64_t block = off / seg.length;
  const std::uint64_t within = off % seg.length;
  return Piece{true_lb_ + seg.disp +
                   static_cast<std::int64_t>(block) * seg.stride +
                   static_cast<std::int64_t>(within),
               seg.length - within};
}

std::int64_t FileView::file_offset(std::uint64_t position) const {
  const std::uint64_t tile = position / packed_;
  return disp_ + static_cast<std::int64_t>(tile) * extent_ +
         piece_at(position % packed_).at;
}

std::uint64_t FileView::stream_before(std::int64_t offset) const {
  if (offset <= disp_) {
    return 0;
  }
  const std::int64_t relative = offset - disp_;
  if (map_ == nullptr && extent_ == static_cast<std::int64_t>(packed_)) {
    const std::int64_t data = relative - true_lb_;
    return data > 0 ? static_cast<std::uint64_t>(data) : 0;
  }
  const std::uint64_t tile = static_cast<std::uint64_t>(relative / extent_);
  const std::int64_t within = relative % extent_;
  // Data bytes of one tile at tile offsets below `within`.
  auto below = [within](std::int64_t at, std::uint64_t length) {
    if (within <= at) {
      return std::uint64_t{0};
    }
    const auto reach = static_cast<std::uint64_t>(within - at);
    return reach < length ? reach : length;
  };
  std::uint64_t count = 0;
  if (map_ == nullptr) {
    count = below(true_lb_, packed_);
  } else {
    for (const datatype::Segment& seg : map_->segments) {
      for (std::uint64_t b = 0; b < seg.count; ++b) {
        const std::int64_t at =
            true_lb_ + seg.disp + static_cast<std::int64_t>(b) * seg.stride;
        if (at >= within) {
          break;  // displacements never decrease
        }
        count += below(at, seg.length);
      }
    }
  }
  return tile * packed_ + count;
}

FileView::Span FileView::span(std::uint64_t position,
                              std::uint64_t bytes) const {
  // Displacements never decrease (check_filetype), so the last byte is the
  // furthest.
  return Span{file_offset(position), file_offset(position + bytes - 1) + 1};
}

const char* check_filetype(const datatype::TypeDesc& filetype) {
  if (filetype.packed == 0) {
    return "the filetype holds no data";
  }
  if (filetype.true_lb < 0) {
    return "the filetype has data at a negative displacement";
  }
  if (filetype.map == nullptr) {
    return nullptr;
  }
  std::int64_t end = 0;  // one past the furthest byte so far
  for (const datatype::Segment& seg : filetype.map->segments) {
    if (seg.count > 1 && seg.stride < static_cast<std::int64_t>(seg.length)) {
      return "the filetype's displacements decrease or its blocks overlap";
    }
    const std::int64_t first = filetype.true_lb + seg.disp;
    if (first < end) {
      return "the filetype's displacements decrease or its blocks overlap";
    }
    end = first + static_cast<std::int64_t>(seg.count - 1) * seg.stride +
          static_cast<std::int64_t>(seg.length);
  }
  return nullptr;
}

}  // namespace shmpi::io
