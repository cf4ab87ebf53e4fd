// SPDX-License-Identifier: MIT
#include "runtime/knobs.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "p2p/engine.hpp"
#include "segment/header.hpp"
#include "segment/layout.hpp"

namespace shmpi::runtime {
namespace {

// The segment header's configuration, read with pread: the memfd is not
// mapped yet before MPI_Init. False if it cannot (`config` is then left
// alone).
bool read_segment_config(const char* fd_text,
                         segment::SegmentConfig* config) noexcept {
  char* end = nullptr;
  errno = 0;
  const long fd = std::strtol(fd_text, &end, 10);
  if (errno != 0 || *end != '\0' || fd < 0 || fd > 0x7fffffff) {
    return false;
  }
  // The header holds atomics, so its plain fields are read by offset out
  // of a copy of its bytes (both are written once before ranks start).
  using segment::SegmentHeader;
  constexpr std::size_t kBytes =
      offsetof(SegmentHeader, config) + sizeof(segment::SegmentConfig);
  unsigned char bytes[kBytes];
  const ssize_t n = ::pread(static_cast<int>(fd), bytes, kBytes, 0);
  if (n != static_cast<ssize_t>(kBytes)) {
    return false;
  }
  std::uint64_t magic = 0;
  std::memcpy(&magic, bytes + offsetof(SegmentHeader, magic), sizeof magic);
  std::uint32_t version = 0;
  std::memcpy(&version, bytes + offsetof(SegmentHeader, layout_version),
              sizeof version);
  if (magic != segment::kSegmentMagic || version != segment::kLayoutVersion) {
    return false;
  }
  static_assert(std::is_trivially_copyable_v<segment::SegmentConfig>);
  std::memcpy(config, bytes + offsetof(SegmentHeader, config), sizeof *config);
  return true;
}

}  // namespace

Knobs knobs_from_environment() noexcept {
  const p2p::EngineConfig defaults;
  Knobs knobs;
  knobs.eager_max = defaults.eager_max;
  knobs.ring_eager_max = defaults.ring_eager_max;
  knobs.sleep_timeout_ns = defaults.sleep_timeout_ns;
  if (const char* value = std::getenv("SHMPI_RING_EAGER_MAX")) {
    knobs.ring_eager_max = std::strtoull(value, nullptr, 10);
  }
  if (const char* value = std::getenv("SHMPI_EAGER_MAX")) {
    knobs.eager_max = std::strtoull(value, nullptr, 10);
  }
  if (const char* value = std::getenv("SHMPI_SLEEP_TIMEOUT_MS")) {
    knobs.sleep_timeout_ns =
        static_cast<std::int64_t>(std::strtoull(value, nullptr, 10)) *
        1'000'000;
  }
  knobs.light_fences = std::getenv("SHMPI_NO_LIGHT_FENCES") == nullptr;
  const char* fd_text = std::getenv("SHMPI_SEGMENT_FD");
  knobs.launched = fd_text != nullptr && *fd_text != '\0';
  const char* shared = std::getenv("SHMPI_SHARED_MALLOC");
  knobs.shared_malloc =
      knobs.launched && (shared == nullptr || std::strcmp(shared, "0") != 0);
  if (knobs.launched) {
    if (!read_segment_config(fd_text, &knobs.segment)) {
      knobs.segment.heap_bytes = 0;
    }
  } else {
    knobs.segment.nranks = 1;
    knobs.segment.capacity = 1;
    knobs.segment.heap_bytes = kSingletonHeapBytes;
  }
  knobs.ring_eager_max =
      std::min(knobs.ring_eager_max,
               p2p::Engine::ring_eager_limit(knobs.segment.ring_cells));
  return knobs;
}

}  // namespace shmpi::runtime
