// SPDX-License-Identifier: MIT
#include "datatype/signature.hpp"

namespace shmpi::datatype {

std::uint64_t signature_units(const TypeDesc& type) noexcept {
  if (type.element != nullptr && !type.mixed) {
    return type.element_count;
  }
  std::uint64_t units = 0;
  for (const Part& part : type.parts) {
    units += part.copies * signature_units(*part.child);
  }
  return units;
}

}  // namespace shmpi::datatype
