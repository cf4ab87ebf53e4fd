// SPDX-License-Identifier: MIT
// A datatype's type signature (MPI 4.0 §5.1) walked as runs of one
// predefined type, in type map order: what converting data to and from
// another representation needs (MPI-IO, MPI 4.0 §14.5). A unit is one
// element of a predefined type, so a value-index pair is one unit (of two
// basic elements).
//
// The walk follows the type's parts (TypeDesc::parts) and takes a part
// made of one predefined type as one run, so a million doubles are one run
// however they were built; skipping to a unit costs the depth of the type,
// not the units before it.
#pragma once

#include <cstdint>

#include "datatype/predefined.hpp"
#include "datatype/type_map.hpp"

namespace shmpi::datatype {

// Units in one element of `type`.
[[nodiscard]] std::uint64_t signature_units(const TypeDesc& type) noexcept;

// Calls run(const BasicType& type, std::uint64_t n) for the runs making up
// units [first, first + n) of elements of `type` laid end to end (`first`
// may lie past the first element), in order, until run returns false.
// `per_element` is signature_units(type). Returns whether every run was
// visited.
template <class Run>
bool for_each_signature_run(const TypeDesc& type, std::uint64_t per_element,
                            std::uint64_t first, std::uint64_t n, Run&& run);

namespace detail {

// Units [skip, skip + n) of one element of `type`.
template <class Run>
bool signature_runs(const TypeDesc& type, std::uint64_t skip, std::uint64_t n,
                    Run& run) {
  if (n == 0) {
    return true;
  }
  if (type.element != nullptr && !type.mixed) {
    return run(*type.element, n);
  }
  for (const Part& part : type.parts) {
    const TypeDesc& child = *part.child;
    const std::uint64_t per = signature_units(child);
    const std::uint64_t total = per * part.copies;
    if (skip >= total) {
      skip -= total;
      continue;
    }
    std::uint64_t copy = skip / per;
    std::uint64_t within = skip % per;
    skip = 0;
    if (child.element != nullptr && !child.mixed) {
      // All copies are one run.
      const std::uint64_t left = total - copy * per - within;
      const std::uint64_t take = n < left ? n : left;
      if (!run(*child.element, take)) {
        return false;
      }
      n -= take;
    } else {
      for (; copy < part.copies && n > 0; ++copy) {
        const std::uint64_t left = per - within;
        const std::uint64_t take = n < left ? n : left;
        if (!signature_runs(child, within, take, run)) {
          return false;
        }
        n -= take;
        within = 0;
      }
    }
    if (n == 0) {
      return true;
    }
  }
  return true;
}

}  // namespace detail

template <class Run>
bool for_each_signature_run(const TypeDesc& type, std::uint64_t per_element,
                            std::uint64_t first, std::uint64_t n, Run&& run) {
  if (per_element == 0) {
    return true;
  }
  std::uint64_t within = first % per_element;
  while (n > 0) {
    const std::uint64_t left = per_element - within;
    const std::uint64_t take = n < left ? n : left;
    if (!detail::signature_runs(type, within, take, run)) {
      return false;
    }
    n -= take;
    within = 0;
  }
  return true;
}

}  // namespace shmpi::datatype
