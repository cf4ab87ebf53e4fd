// SPDX-License-Identifier: MIT
// datatype::for_each_signature_run: a datatype's type signature as runs of
// one predefined type, from any unit, across elements laid end to end,
// against the signature expanded element by element.
#include "datatype/signature.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace shmpi::datatype {
namespace {

const BasicType& basic(MPI_Datatype handle) {
  return *find_predefined(reinterpret_cast<std::uintptr_t>(handle));
}

const DescPtr& desc(MPI_Datatype handle) { return basic_desc(basic(handle)); }

using Runs = std::vector<std::pair<std::uint16_t, std::uint64_t>>;

Runs runs(const TypeDesc& type, std::uint64_t first, std::uint64_t n) {
  Runs out;
  for_each_signature_run(type, signature_units(type), first, n,
                         [&](const BasicType& t, std::uint64_t count) {
                           if (!out.empty() && out.back().first == t.id) {
                             out.back().second += count;
                           } else {
                             out.emplace_back(t.id, count);
                           }
                           return true;
                         });
  return out;
}

std::uint16_t id(MPI_Datatype handle) { return basic(handle).id; }

// The signature one unit at a time, for comparison.
std::vector<std::uint16_t> units(const TypeDesc& type, std::uint64_t first,
                                 std::uint64_t n) {
  std::vector<std::uint16_t> out;
  for (const auto& [type_id, count] : runs(type, first, n)) {
    out.insert(out.end(), count, type_id);
  }
  return out;
}

TEST(DatatypeSignature, PredefinedTypeIsOneUnit) {
  EXPECT_EQ(signature_units(*desc(MPI_INT)), 1u);
  EXPECT_EQ(runs(*desc(MPI_INT), 0, 5), (Runs{{id(MPI_INT), 5}}));
  // A value-index pair is one unit (of two basic elements).
  EXPECT_EQ(signature_units(*desc(MPI_DOUBLE_INT)), 1u);
  EXPECT_EQ(runs(*desc(MPI_DOUBLE_INT), 2, 3), (Runs{{id(MPI_DOUBLE_INT), 3}}));
}

TEST(DatatypeSignature, HomogeneousTypeIsOneRun) {
  const DescPtr doubles = make_contiguous(1000000, desc(MPI_DOUBLE));
  EXPECT_EQ(signature_units(*doubles), 1000000u);
  std::uint64_t calls = 0;
  for_each_signature_run(*doubles, 1000000, 500000, 1500000,
                         [&](const BasicType& t, std::uint64_t n) {
                           EXPECT_EQ(t.id, id(MPI_DOUBLE));
                           EXPECT_GT(n, 0u);
                           ++calls;
                           return true;
                         });
  // One run per element touched, not per double.
  EXPECT_EQ(calls, 2u);
}

TEST(DatatypeSignature, MixedStructInTypeMapOrder) {
  const std::vector<std::uint64_t> lengths{1, 2};
  const std::vector<std::int64_t> displacements{0, 8};
  const std::vector<DescPtr> types{desc(MPI_INT), desc(MPI_DOUBLE)};
  const DescPtr pair = make_struct(lengths, displacements, types);
  const DescPtr three = make_contiguous(3, pair);
  EXPECT_EQ(signature_units(*three), 9u);
  const std::uint16_t i = id(MPI_INT);
  const std::uint16_t d = id(MPI_DOUBLE);
  EXPECT_EQ(units(*three, 0, 9),
            (std::vector<std::uint16_t>{i, d, d, i, d, d, i, d, d}));
  // From any unit, across elements of `three` end to end.
  const std::vector<std::uint16_t> all = units(*three, 0, 18);
  for (std::uint64_t first = 0; first < 18; ++first) {
    for (std::uint64_t n = 0; first + n <= 18; ++n) {
      EXPECT_EQ(units(*three, first, n),
                std::vector<std::uint16_t>(all.begin() + first,
                                           all.begin() + first + n))
          << "units [" << first << ", " << first + n << ")";
    }
  }
}

TEST(DatatypeSignature, ResizedAndEmptyParts) {
  const DescPtr nothing = make_contiguous(0, desc(MPI_INT));
  EXPECT_EQ(signature_units(*nothing), 0u);
  EXPECT_TRUE(runs(*nothing, 0, 0).empty());
  const std::vector<std::uint64_t> lengths{2, 1, 1};
  const std::vector<std::int64_t> displacements{0, 16, 24};
  const std::vector<DescPtr> types{desc(MPI_SHORT), nothing,
                                   make_resized(desc(MPI_CHAR), 0, 4)};
  const DescPtr mixed = make_struct(lengths, displacements, types);
  EXPECT_EQ(signature_units(*mixed), 3u);
  EXPECT_EQ(runs(*mixed, 1, 2), (Runs{{id(MPI_SHORT), 1}, {id(MPI_CHAR), 1}}));
}

TEST(DatatypeSignature, StopsWhenTheRunSaysSo) {
  const std::vector<std::uint64_t> lengths{1, 1};
  const std::vector<std::int64_t> displacements{0, 4};
  const std::vector<DescPtr> types{desc(MPI_INT), desc(MPI_FLOAT)};
  const DescPtr pair = make_struct(lengths, displacements, types);
  int calls = 0;
  const bool all = for_each_signature_run(
      *pair, 2, 0, 10,
      [&](const BasicType&, std::uint64_t) { return ++calls < 3; });
  EXPECT_FALSE(all);
  EXPECT_EQ(calls, 3);
}

}  // namespace
}  // namespace shmpi::datatype
