// SPDX-License-Identifier: MIT
// How MPI_T calls return strings (MPI 4.0 section 15.3.3): into the
// caller's buffer of *len bytes, truncated with a terminator, and *len set
// to the string's length plus one. A null buffer or *len == 0 returns only
// the length; a null len returns nothing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string_view>

namespace shmpi::mpi::tool {

inline void return_string(std::string_view text, char* buffer, int* len) {
  if (len == nullptr) {
    return;
  }
  if (buffer != nullptr && *len > 0) {
    const std::size_t copied =
        std::min(text.size(), static_cast<std::size_t>(*len) - 1);
    std::memcpy(buffer, text.data(), copied);
    buffer[copied] = '\0';
  }
  *len = static_cast<int>(text.size()) + 1;
}

}  // namespace shmpi::mpi::tool
