// SPDX-License-Identifier: MIT
// Neighbour lists of virtual topologies built by hand (mpi/topology.hpp)
// and the tags the neighbourhood collectives give their blocks
// (mpi/coll_neighbor.hpp): on every Cartesian grid tried, each block sent
// toward a neighbour is received by exactly one block there, the one for
// the opposite direction of the same dimension, even where one process is
// the neighbour both ways (periodic extent 1 or 2).
#include "mpi/topology.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "mpi/coll_neighbor.hpp"

namespace shmpi::mpi {

namespace {

constexpr int kNull = MPI_PROC_NULL;

Topology cart(std::vector<int> dims, std::vector<int> periods) {
  Topology t;
  t.kind = MPI_CART;
  t.dims = std::move(dims);
  t.periods = std::move(periods);
  return t;
}

int size_of(const Topology& t) {
  int size = 1;
  for (int d : t.dims) {
    size *= d;
  }
  return size;
}

std::vector<int> sources_of(const Topology& t, int rank) {
  std::vector<int> sources;
  std::vector<int> destinations;
  neighbor_lists(t, rank, &sources, &destinations);
  EXPECT_EQ(sources, destinations) << "rank " << rank;
  return sources;
}

TEST(NeighborLists, OneDimension) {
  EXPECT_EQ(sources_of(cart({5}, {0}), 0), (std::vector<int>{kNull, 1}));
  EXPECT_EQ(sources_of(cart({5}, {0}), 2), (std::vector<int>{1, 3}));
  EXPECT_EQ(sources_of(cart({5}, {0}), 4), (std::vector<int>{3, kNull}));
  EXPECT_EQ(sources_of(cart({5}, {1}), 0), (std::vector<int>{4, 1}));
  EXPECT_EQ(sources_of(cart({5}, {1}), 4), (std::vector<int>{3, 0}));
  EXPECT_EQ(sources_of(cart({2}, {1}), 0), (std::vector<int>{1, 1}));
  EXPECT_EQ(sources_of(cart({1}, {1}), 0), (std::vector<int>{0, 0}));
  EXPECT_EQ(sources_of(cart({1}, {0}), 0), (std::vector<int>{kNull, kNull}));
}

TEST(NeighborLists, TwoDimensionsRowMajor) {
  // 3 x 2: rank = 2 * row + column.
  const Topology open = cart({3, 2}, {0, 0});
  EXPECT_EQ(sources_of(open, 0), (std::vector<int>{kNull, 2, kNull, 1}));
  EXPECT_EQ(sources_of(open, 3), (std::vector<int>{1, 5, 2, kNull}));
  const Topology wrap = cart({3, 2}, {1, 1});
  EXPECT_EQ(sources_of(wrap, 0), (std::vector<int>{4, 2, 1, 1}));
  EXPECT_EQ(sources_of(wrap, 5), (std::vector<int>{3, 1, 4, 4}));
}

TEST(NeighborLists, Graphs) {
  Topology g;
  g.kind = MPI_GRAPH;
  g.index = {2, 3, 6};
  g.edges = {1, 2, 0, 0, 2, 2};
  EXPECT_EQ(sources_of(g, 0), (std::vector<int>{1, 2}));
  EXPECT_EQ(sources_of(g, 1), (std::vector<int>{0}));
  EXPECT_EQ(sources_of(g, 2), (std::vector<int>{0, 2, 2}));
  Topology d;
  d.kind = MPI_DIST_GRAPH;
  d.sources = {3, 3, 1};
  d.destinations = {0};
  std::vector<int> sources;
  std::vector<int> destinations;
  neighbor_lists(d, 7, &sources, &destinations);
  EXPECT_EQ(sources, d.sources);
  EXPECT_EQ(destinations, d.destinations);
}

// Every send block of every rank matches exactly one receive block at its
// destination (same source, same tag), the opposite direction's, and
// every receive block with a neighbour is matched exactly once.
void expect_blocks_pair_up(const Topology& t) {
  const int size = size_of(t);
  std::vector<std::vector<int>> lists(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) {
    lists[static_cast<std::size_t>(r)] = sources_of(t, r);
  }
  std::vector<std::vector<int>> matched(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) {
    matched[static_cast<std::size_t>(r)].assign(
        lists[static_cast<std::size_t>(r)].size(), 0);
  }
  for (int r = 0; r < size; ++r) {
    const std::vector<int>& out = lists[static_cast<std::size_t>(r)];
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (out[i] == kNull) {
        continue;
      }
      const std::vector<int>& in = lists[static_cast<std::size_t>(out[i])];
      int hits = 0;
      for (std::size_t j = 0; j < in.size(); ++j) {
        if (in[j] == r &&
            neighbor::recv_tag(true, j) == neighbor::send_tag(true, i)) {
          ++hits;
          EXPECT_EQ(j, i ^ 1U) << "rank " << r << " block " << i;
          ++matched[static_cast<std::size_t>(out[i])][j];
        }
      }
      EXPECT_EQ(hits, 1) << "rank " << r << " block " << i << " to " << out[i];
    }
  }
  for (int r = 0; r < size; ++r) {
    const std::vector<int>& in = lists[static_cast<std::size_t>(r)];
    for (std::size_t j = 0; j < in.size(); ++j) {
      EXPECT_EQ(matched[static_cast<std::size_t>(r)][j], in[j] == kNull ? 0 : 1)
          << "rank " << r << " receive block " << j;
    }
  }
}

TEST(NeighborTags, CartesianBlocksPairUpWithTheOppositeDirection) {
  const std::vector<std::vector<int>> shapes = {
      {1}, {2}, {3}, {5}, {1, 1}, {2, 2}, {1, 3}, {3, 2}, {2, 1, 2}, {1, 1, 2}};
  for (const std::vector<int>& dims : shapes) {
    const auto n = dims.size();
    for (unsigned mask = 0; mask < (1U << n); ++mask) {
      std::vector<int> periods(n);
      for (std::size_t d = 0; d < n; ++d) {
        periods[d] = static_cast<int>((mask >> d) & 1U);
      }
      SCOPED_TRACE(::testing::Message()
                   << "dims " << ::testing::PrintToString(dims) << " periods "
                   << ::testing::PrintToString(periods));
      expect_blocks_pair_up(cart(dims, periods));
    }
  }
}

TEST(NeighborTags, GraphsUseOneTag) {
  EXPECT_EQ(neighbor::send_tag(false, 0), neighbor::recv_tag(false, 3));
  EXPECT_EQ(neighbor::send_tag(false, 5), neighbor::kTagGraph);
}

}  // namespace
}  // namespace shmpi::mpi
