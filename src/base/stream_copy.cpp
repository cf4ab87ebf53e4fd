// SPDX-License-Identifier: MIT
#include "base/stream_copy.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace shmpi::base {

void copy_around_cache(void* destination, const void* source,
                       std::size_t bytes) noexcept {
#if defined(__x86_64__)
  auto* to = static_cast<char*>(destination);
  const auto* from = static_cast<const char*>(source);
  // Non-temporal stores need 16-byte aligned addresses: plain copies up to
  // the first aligned byte and after the last whole 64 bytes.
  const std::size_t head = std::min<std::size_t>(
      bytes, (16 - reinterpret_cast<std::uintptr_t>(to) % 16) % 16);
  std::memcpy(to, from, head);
  to += head;
  from += head;
  bytes -= head;
  const std::size_t body = bytes - bytes % 64;
  for (std::size_t i = 0; i < body; i += 64) {
    const __m128i a =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i));
    const __m128i b =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i + 16));
    const __m128i c =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i + 32));
    const __m128i d =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(to + i), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(to + i + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(to + i + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(to + i + 48), d);
  }
  std::memcpy(to + body, from + body, bytes - body);
  // The streamed stores before any later store (a round's release).
  _mm_sfence();
#else
  std::memcpy(destination, source, bytes);
#endif
}

}  // namespace shmpi::base
