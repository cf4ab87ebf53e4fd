// SPDX-License-Identifier: MIT
// boost::container::small_vector, included through here. GCC 12 warns
// that moving one may read past its inline buffer (-Wstringop-overread):
// it cannot see that the inline elements are copied only when they fit.
// The warning points into the boost header, so it is silenced for that
// header's code only; the link-time optimiser, which ignores pragmas,
// gets the same option for libshmpi (src/mpi/CMakeLists.txt).
#pragma once

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overread"
#include <boost/container/small_vector.hpp>
#pragma GCC diagnostic pop
