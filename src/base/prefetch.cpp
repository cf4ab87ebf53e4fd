// SPDX-License-Identifier: MIT
#include "base/prefetch.hpp"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace shmpi::base {

bool has_prefetchw() noexcept {
#if defined(__x86_64__)
  static const bool has = [] {
    unsigned eax = 0;
    unsigned ebx = 0;
    unsigned ecx = 0;
    unsigned edx = 0;
    return __get_cpuid(0x80000001U, &eax, &ebx, &ecx, &edx) != 0 &&
           (ecx & (1U << 8)) != 0;
  }();
  return has;
#else
  return true;
#endif
}

}  // namespace shmpi::base
