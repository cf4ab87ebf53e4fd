// SPDX-License-Identifier: MIT
// Out-of-line pack/unpack for non-contiguous layouts. No constructor makes a
// TypeMap yet (derived datatypes arrive with the collectives issue), so
// nothing can reach these; they exist so protocols are written against the
// final interface.
#include "datatype/pack.hpp"

#include "base/assert.hpp"

namespace shmpi::datatype {

void pack_noncontiguous(const Layout& /*layout*/, std::size_t /*offset*/,
                        void* /*destination*/, std::size_t /*bytes*/) noexcept {
  SHMPI_UNREACHABLE("non-contiguous layout without derived datatypes");
}

void unpack_noncontiguous(const Layout& /*layout*/, std::size_t /*offset*/,
                          const void* /*source*/,
                          std::size_t /*bytes*/) noexcept {
  SHMPI_UNREACHABLE("non-contiguous layout without derived datatypes");
}

}  // namespace shmpi::datatype
