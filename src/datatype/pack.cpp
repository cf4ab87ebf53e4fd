// SPDX-License-Identifier: MIT
// The walker for non-contiguous layouts: copies a window [offset, offset +
// bytes) of the packed form, starting mid-stream from a cursor computed from
// the offset (element, segment by binary search, block, byte in block), so a
// protocol copying a message in small chunks pays O(log segments) per chunk,
// not a walk from the start.
#include "datatype/pack.hpp"

#include <algorithm>
#include <cstdint>

#include "datatype/type_map.hpp"

namespace shmpi::datatype {

namespace {

// Copies `blocks` blocks of `length` bytes between memory (stride apart) and
// the packed stream. Small power-of-two blocks get fixed-size copies the
// compiler turns into single moves.
template <bool kToPacked>
void copy_blocks(std::byte* memory, std::int64_t stride, std::uint64_t length,
                 std::uint64_t blocks, std::byte* stream) {
  auto run = [&]<std::size_t kSize>() {
    for (std::uint64_t k = 0; k < blocks; ++k) {
      if constexpr (kToPacked) {
        std::memcpy(stream, memory, kSize);
      } else {
        std::memcpy(memory, stream, kSize);
      }
      stream += kSize;
      memory += stride;
    }
  };
  switch (length) {
    case 4:
      run.template operator()<4>();
      return;
    case 8:
      run.template operator()<8>();
      return;
    case 12:  // MPI_DOUBLE_INT and MPI_LONG_INT, packed
      run.template operator()<12>();
      return;
    case 16:
      run.template operator()<16>();
      return;
    default:
      break;
  }
  for (std::uint64_t k = 0; k < blocks; ++k) {
    if constexpr (kToPacked) {
      std::memcpy(stream, memory, length);
    } else {
      std::memcpy(memory, stream, length);
    }
    stream += length;
    memory += stride;
  }
}

template <bool kToPacked>
void walk(const Layout& layout, std::size_t offset, std::byte* stream,
          std::size_t bytes) {
  if (bytes == 0) {
    return;
  }
  const TypeMap& map = *layout.map;
  const std::uint64_t element = offset / map.packed;
  const std::uint64_t in_element = offset % map.packed;
  std::size_t si = static_cast<std::size_t>(
      std::upper_bound(map.starts.begin(), map.starts.end(), in_element) -
      map.starts.begin() - 1);
  const Segment* s = &map.segments[si];
  const std::uint64_t in_segment = in_element - map.starts[si];
  std::uint64_t block = in_segment / s->length;
  std::uint64_t at = in_segment % s->length;  // byte within the block
  std::byte* element_base =
      layout.base + static_cast<std::int64_t>(element) * map.extent;
  const std::size_t segment_count = map.segments.size();
  while (bytes > 0) {
    std::byte* memory =
        element_base + s->disp + static_cast<std::int64_t>(block) * s->stride;
    if (at != 0 || bytes < s->length) {
      // A partial block: the window starts or ends inside it.
      const std::size_t n = std::min<std::uint64_t>(s->length - at, bytes);
      if constexpr (kToPacked) {
        std::memcpy(stream, memory + at, n);
      } else {
        std::memcpy(memory + at, stream, n);
      }
      stream += n;
      bytes -= n;
      at += n;
      if (at < s->length) {
        return;  // the window ended inside this block
      }
      at = 0;
      ++block;
    } else if (segment_count == 1 && s->count == 1) {
      // One block per element (a padded pair type, a resized contiguous
      // type): successive elements' blocks are `extent` apart, so every
      // whole block left in the window goes as one strided run instead of
      // one pass of this loop per element.
      const std::uint64_t blocks = bytes / s->length;
      copy_blocks<kToPacked>(memory, map.extent, s->length, blocks, stream);
      stream += blocks * s->length;
      bytes -= blocks * s->length;
      element_base += static_cast<std::int64_t>(blocks) * map.extent;
      continue;  // still at block 0 of the only segment
    } else {
      const std::uint64_t blocks =
          std::min<std::uint64_t>(s->count - block, bytes / s->length);
      copy_blocks<kToPacked>(memory, s->stride, s->length, blocks, stream);
      stream += blocks * s->length;
      bytes -= blocks * s->length;
      block += blocks;
    }
    if (block == s->count) {
      block = 0;
      if (++si == segment_count) {
        si = 0;
        element_base += map.extent;
      }
      s = &map.segments[si];
    }
  }
}

// Copies `elements` whole elements of `map` from memory to memory (both
// layouts the same map): block by block, without packing in between. One
// block per element (a padded pair type) goes as one strided run.
void copy_elements(const TypeMap& map, const std::byte* from, std::byte* to,
                   std::uint64_t elements) {
  if (map.pair_id != 0 && elements > 0) {
    // A padded pair type's elements are C structs, whose padding bytes C
    // leaves unspecified (C11 6.2.6.1p6): one copy of the whole span, up
    // to the last element's index (not its tail padding, which may lie
    // past the buffer). A copy of 16-byte structs instead of 12-byte
    // blocks: the 4096-element ping-pong takes 5.5 us instead of 8.3.
    const Segment& last = map.segments.back();
    const std::uint64_t end =
        static_cast<std::uint64_t>(last.disp) +
        (last.count - 1) * static_cast<std::uint64_t>(last.stride) +
        last.length;
    std::memcpy(to, from,
                (elements - 1) * static_cast<std::uint64_t>(map.extent) + end);
    return;
  }
  if (map.segments.size() == 1 && map.segments[0].count == 1) {
    const Segment& s = map.segments[0];
    auto run = [&]<std::size_t kSize>(std::size_t length) {
      for (std::uint64_t k = 0; k < elements; ++k) {
        const std::int64_t at = static_cast<std::int64_t>(k) * map.extent;
        std::memcpy(to + at + s.disp, from + at + s.disp,
                    kSize != 0 ? kSize : length);
      }
    };
    switch (s.length) {
      case 12:  // MPI_DOUBLE_INT and MPI_LONG_INT
        run.template operator()<12>(12);
        return;
      case 20:  // MPI_LONG_DOUBLE_INT
        run.template operator()<20>(20);
        return;
      default:
        run.template operator()<0>(s.length);
        return;
    }
  }
  for (std::uint64_t k = 0; k < elements; ++k) {
    const std::int64_t at = static_cast<std::int64_t>(k) * map.extent;
    for (const Segment& s : map.segments) {
      for (std::uint64_t b = 0; b < s.count; ++b) {
        const std::int64_t block =
            at + s.disp + static_cast<std::int64_t>(b) * s.stride;
        std::memcpy(to + block, from + block, s.length);
      }
    }
  }
}

}  // namespace

void pack_noncontiguous(const Layout& layout, std::size_t offset,
                        void* destination, std::size_t bytes) noexcept {
  walk<true>(layout, offset, static_cast<std::byte*>(destination), bytes);
}

void unpack_noncontiguous(const Layout& layout, std::size_t offset,
                          const void* source, std::size_t bytes) noexcept {
  walk<false>(layout, offset,
              static_cast<std::byte*>(const_cast<void*>(source)), bytes);
}

namespace {

// copy() when both sides have a map: out of line, so that the contiguous
// cases above take no 16 KiB frame.
[[gnu::noinline]] void copy_both_mapped(const Layout& from, std::size_t from_at,
                                        const Layout& to, std::size_t to_at,
                                        std::size_t bytes) noexcept {
  if (from.map == to.map && from_at == to_at &&
      from_at % from.map->packed == 0 && bytes >= from.map->packed) {
    // The same map on both sides (a padded pair type sent and received as
    // itself): whole elements go memory to memory, the rest below.
    const TypeMap& map = *from.map;
    const std::uint64_t first = from_at / map.packed;
    const std::uint64_t elements = bytes / map.packed;
    const auto skip = static_cast<std::int64_t>(first) * map.extent;
    copy_elements(map, from.base + skip, to.base + skip, elements);
    from_at += elements * map.packed;
    to_at += elements * map.packed;
    bytes -= elements * map.packed;
  }
  constexpr std::size_t kChunk = 16384;
  alignas(16) std::byte bounce[kChunk];
  for (std::size_t done = 0; done < bytes; done += kChunk) {
    const std::size_t n = std::min(kChunk, bytes - done);
    pack_noncontiguous(from, from_at + done, bounce, n);
    unpack_noncontiguous(to, to_at + done, bounce, n);
  }
}

}  // namespace

void copy(const Layout& from, std::size_t from_at, const Layout& to,
          std::size_t to_at, std::size_t bytes) noexcept {
  if (bytes == 0) {
    return;
  }
  if (from.map == nullptr) {
    if (to.map == nullptr) {
      std::memmove(to.base + to_at, from.base + from_at, bytes);
    } else {
      unpack_noncontiguous(to, to_at, from.base + from_at, bytes);
    }
    return;
  }
  if (to.map == nullptr) {
    pack_noncontiguous(from, from_at, to.base + to_at, bytes);
    return;
  }
  copy_both_mapped(from, from_at, to, to_at, bytes);
}

}  // namespace shmpi::datatype
