// SPDX-License-Identifier: MIT
// io::FileView: the mapping of a view's stream of data bytes onto file
// offsets (MPI 4.0 §14.3) for the default view and filetypes with holes,
// against a reference that tiles the filetype's type map byte by byte; and
// check_filetype's rule that displacements be non-negative and
// nondecreasing.
#include "io/file_view.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <tuple>
#include <vector>

namespace shmpi::io {
namespace {

using datatype::DescPtr;

DescPtr bytes(std::uint64_t n) {
  const datatype::BasicType* byte =
      datatype::find_predefined(reinterpret_cast<std::uintptr_t>(MPI_BYTE));
  return datatype::make_contiguous(n, datatype::basic_desc(*byte));
}

// The file offset of every data byte of the first `tiles` tiles, in stream
// order, from the type's segments (not the TypeMap the view uses).
std::vector<std::int64_t> reference(std::int64_t disp,
                                    const datatype::TypeDesc& type,
                                    std::uint64_t tiles) {
  std::vector<std::int64_t> out;
  for (std::uint64_t k = 0; k < tiles; ++k) {
    const std::int64_t tile =
        disp + static_cast<std::int64_t>(k) * type.extent();
    for (const datatype::Segment& s : type.segments) {
      for (std::uint64_t b = 0; b < s.count; ++b) {
        for (std::uint64_t i = 0; i < s.length; ++i) {
          out.push_back(tile + s.disp +
                        static_cast<std::int64_t>(b) * s.stride +
                        static_cast<std::int64_t>(i));
        }
      }
    }
  }
  return out;
}

using Piece = std::tuple<std::int64_t, std::uint64_t, std::uint64_t>;

std::vector<Piece> runs(const FileView& view, std::uint64_t position,
                        std::uint64_t length) {
  std::vector<Piece> out;
  view.for_each_run(position, length,
                    [&](std::int64_t at, std::uint64_t from, std::uint64_t n) {
                      out.emplace_back(at, from, n);
                      return true;
                    });
  return out;
}

// Every stream window of the first tiles maps as the reference says: byte
// by byte through file_offset, and in runs that cover the window in order,
// merge whatever touches, and agree with span().
void expect_matches_reference(std::int64_t disp, const DescPtr& type) {
  const FileView view(disp, type);
  const std::vector<std::int64_t> ref = reference(disp, *type, 4);
  for (std::uint64_t p = 0; p < ref.size(); ++p) {
    ASSERT_EQ(view.file_offset(p), ref[p]) << "stream byte " << p;
  }
  for (std::uint64_t first = 0; first < ref.size(); ++first) {
    for (std::uint64_t n = 1; first + n <= ref.size(); ++n) {
      std::uint64_t covered = first;
      std::int64_t previous_end = -1;
      for (const auto& [at, from, length] : runs(view, first, n)) {
        ASSERT_EQ(from, covered) << "runs out of stream order";
        ASSERT_NE(at, previous_end) << "touching runs were not merged";
        for (std::uint64_t i = 0; i < length; ++i) {
          ASSERT_EQ(at + static_cast<std::int64_t>(i), ref[from + i]);
        }
        covered += length;
        previous_end = at + static_cast<std::int64_t>(length);
      }
      ASSERT_EQ(covered, first + n);
      const FileView::Span span = view.span(first, n);
      EXPECT_EQ(span.first, ref[first]);
      EXPECT_EQ(span.end, ref[first + n - 1] + 1);
    }
  }
}

TEST(FileView, DefaultViewIsTheFileAsBytes) {
  const FileView view;
  EXPECT_EQ(view.disp(), 0);
  EXPECT_EQ(view.file_offset(0), 0);
  EXPECT_EQ(view.file_offset(12345), 12345);
  EXPECT_EQ(runs(view, 7, 100), (std::vector<Piece>{{7, 7, 100}}));
  EXPECT_EQ(view.stream_before(0), 0u);
  EXPECT_EQ(view.stream_before(4096), 4096u);
  const FileView::Span span = view.span(10, 5);
  EXPECT_EQ(span.first, 10);
  EXPECT_EQ(span.end, 15);
}

TEST(FileView, ZeroBytesCallNoRun) {
  const FileView view(0, datatype::make_resized(bytes(4), 0, 8));
  EXPECT_TRUE(runs(view, 3, 0).empty());
}

TEST(FileView, DisplacementShiftsAContiguousFiletype) {
  const FileView view(100, bytes(4));
  EXPECT_EQ(view.file_offset(0), 100);
  EXPECT_EQ(view.file_offset(9), 109);
  // Tiles touch: one run however many tiles.
  EXPECT_EQ(runs(view, 2, 10), (std::vector<Piece>{{102, 2, 10}}));
  EXPECT_EQ(view.stream_before(50), 0u);
  EXPECT_EQ(view.stream_before(104), 4u);
}

TEST(FileView, ContiguousFiletypeWithLargerExtentLeavesHoles) {
  // 4 data bytes, extent 10: data at [0,4), [10,14), [20,24), ...
  const DescPtr type = datatype::make_resized(bytes(4), 0, 10);
  const FileView view(0, type);
  EXPECT_EQ(view.file_offset(3), 3);
  // The end of a tile's data is the next tile's first byte.
  EXPECT_EQ(view.file_offset(4), 10);
  EXPECT_EQ(runs(view, 2, 6), (std::vector<Piece>{{2, 2, 2}, {10, 4, 4}}));
  EXPECT_EQ(view.stream_before(4), 4u);
  EXPECT_EQ(view.stream_before(9), 4u);
  EXPECT_EQ(view.stream_before(12), 6u);
  EXPECT_EQ(view.stream_before(30), 12u);
  expect_matches_reference(0, type);
  expect_matches_reference(7, type);
}

TEST(FileView, ResizedIntWithHoleBetweenElements) {
  // An etype of 4 bytes and a filetype of one of them every 8 bytes.
  const DescPtr type = datatype::make_resized(bytes(4), 0, 8);
  const FileView view(16, type);
  EXPECT_EQ(view.file_offset(4 * 3), 16 + 8 * 3);
  EXPECT_EQ(runs(view, 0, 12),
            (std::vector<Piece>{{16, 0, 4}, {24, 4, 4}, {32, 8, 4}}));
  expect_matches_reference(16, type);
}

TEST(FileView, VectorRunsMergeAcrossTiles) {
  // Blocks of 2 at 0, 5, 10 (extent 12): the last block of a tile touches
  // the first of the next, [10,12) + [12,14).
  const DescPtr type = datatype::make_hvector(3, 2, 5, bytes(1));
  ASSERT_EQ(type->extent(), 12);
  const FileView view(0, type);
  EXPECT_EQ(runs(view, 4, 4), (std::vector<Piece>{{10, 4, 4}}));
  EXPECT_EQ(runs(view, 0, 12),
            (std::vector<Piece>{
                {0, 0, 2}, {5, 2, 2}, {10, 4, 4}, {17, 8, 2}, {22, 10, 2}}));
  EXPECT_EQ(view.stream_before(6), 3u);
  EXPECT_EQ(view.stream_before(12), 6u);
  expect_matches_reference(0, type);
}

TEST(FileView, StridedBlocksOfEachRankInterleave) {
  // Rank r of 3 sees blocks of 4 bytes at 4r, 4r + 12, ...: the classic
  // interleaved vector filetype, resized to its stride.
  for (std::int64_t r = 0; r < 3; ++r) {
    const DescPtr block = datatype::make_hvector(1, 4, 0, bytes(1));
    const DescPtr type = datatype::make_resized(
        datatype::make_hindexed(std::vector<std::uint64_t>{1},
                                std::vector<std::int64_t>{4 * r}, block),
        0, 12);
    const FileView view(0, type);
    EXPECT_EQ(view.file_offset(0), 4 * r);
    EXPECT_EQ(view.file_offset(4), 12 + 4 * r);
    expect_matches_reference(0, type);
  }
}

TEST(FileView, IndexedFiletypeKeepsTypeMapOrder) {
  // Blocks of 1 at 2 and 3 at 8: lb 2, so tiles are 9 bytes apart and the
  // first data byte is at disp + 2.
  const DescPtr type =
      datatype::make_hindexed(std::vector<std::uint64_t>{1, 3},
                              std::vector<std::int64_t>{2, 8}, bytes(1));
  ASSERT_EQ(type->extent(), 9);
  const FileView view(0, type);
  EXPECT_EQ(view.file_offset(0), 2);
  EXPECT_EQ(view.file_offset(1), 8);
  EXPECT_EQ(view.file_offset(4), 11);
  // [8,11) and the next tile's [11,12) touch.
  EXPECT_EQ(runs(view, 1, 4), (std::vector<Piece>{{8, 1, 4}}));
  expect_matches_reference(0, type);
  expect_matches_reference(5, type);
}

TEST(FileView, SubarrayFiletype) {
  // The 2x3 block at (1, 2) of a 4x6 array of 2-byte elements.
  const std::vector<std::uint64_t> sizes{4, 6};
  const std::vector<std::uint64_t> subsizes{2, 3};
  const std::vector<std::uint64_t> starts{1, 2};
  const DescPtr type =
      datatype::make_subarray(sizes, subsizes, starts, true, bytes(2));
  ASSERT_EQ(type->extent(), 48);
  const FileView view(0, type);
  EXPECT_EQ(view.file_offset(0), (1 * 6 + 2) * 2);
  EXPECT_EQ(view.file_offset(6), (2 * 6 + 2) * 2);
  EXPECT_EQ(view.file_offset(12), 48 + (1 * 6 + 2) * 2);
  expect_matches_reference(0, type);
}

TEST(FileView, CheckFiletypeAcceptsNondecreasingData) {
  EXPECT_EQ(check_filetype(*bytes(4)), nullptr);
  EXPECT_EQ(check_filetype(*datatype::make_hvector(3, 2, 5, bytes(1))),
            nullptr);
  // Zero-length gaps and touching blocks are nondecreasing.
  EXPECT_EQ(check_filetype(*datatype::make_hindexed(
                std::vector<std::uint64_t>{2, 2},
                std::vector<std::int64_t>{0, 2}, bytes(1))),
            nullptr);
}

TEST(FileView, CheckFiletypeRejectsNoData) {
  EXPECT_NE(check_filetype(*bytes(0)), nullptr);
}

TEST(FileView, CheckFiletypeRejectsNegativeDisplacement) {
  EXPECT_NE(check_filetype(*datatype::make_hindexed(
                std::vector<std::uint64_t>{1}, std::vector<std::int64_t>{-4},
                bytes(4))),
            nullptr);
}

TEST(FileView, CheckFiletypeRejectsDecreasingDisplacements) {
  EXPECT_NE(check_filetype(*datatype::make_hindexed(
                std::vector<std::uint64_t>{1, 1},
                std::vector<std::int64_t>{8, 0}, bytes(4))),
            nullptr);
  // A negative stride decreases too.
  EXPECT_NE(check_filetype(*datatype::make_hindexed(
                std::vector<std::uint64_t>{1}, std::vector<std::int64_t>{16},
                datatype::make_hvector(2, 1, -8, bytes(4)))),
            nullptr);
}

TEST(FileView, CheckFiletypeRejectsOverlappingBlocks) {
  // Blocks of 4 bytes every 2 bytes.
  EXPECT_NE(check_filetype(*datatype::make_hvector(2, 4, 2, bytes(1))),
            nullptr);
  EXPECT_NE(check_filetype(*datatype::make_hindexed(
                std::vector<std::uint64_t>{4, 4},
                std::vector<std::int64_t>{0, 2}, bytes(1))),
            nullptr);
}

}  // namespace
}  // namespace shmpi::io
