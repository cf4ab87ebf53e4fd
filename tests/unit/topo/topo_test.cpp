// SPDX-License-Identifier: MIT
// Placement arithmetic on synthetic multi-NUMA machines, and binding on the
// real one (in a forked child, so the test process keeps its affinity).
#include "topo/topo.hpp"

#include <gtest/gtest.h>
#include <linux/mempolicy.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>

namespace shmpi::topo {
namespace {

// Two packages, each one NUMA node of four two-way SMT cores.
constexpr const char* kTwoNodes = "package:2 numa:1 core:4 pu:2";

Topology two_nodes() {
  auto loaded = Topology::load_synthetic(kTwoNodes);
  EXPECT_TRUE(loaded.has_value());
  return std::move(loaded.value());
}

TEST(Topology, SyntheticMachineCountsCoresAndNodes) {
  Topology topology = two_nodes();
  EXPECT_TRUE(topology.is_synthetic());
  EXPECT_EQ(topology.core_count(), 8);
  EXPECT_EQ(topology.numa_count(), 2);
  EXPECT_EQ(topology.numa_node_of_core(0), 0);
  EXPECT_EQ(topology.numa_node_of_core(3), 0);
  EXPECT_EQ(topology.numa_node_of_core(4), 1);
  EXPECT_EQ(topology.numa_node_of_core(7), 1);
}

TEST(Topology, NumaNodeOfCoreOutOfRangeIsMinusOne) {
  Topology topology = two_nodes();
  EXPECT_EQ(topology.numa_node_of_core(-1), -1);
  EXPECT_EQ(topology.numa_node_of_core(8), -1);
}

TEST(Topology, CorePolicyPlacesRanksRoundRobin) {
  Topology topology = two_nodes();
  struct Case {
    int rank;
    int core;
    int node;
  };
  // Around the wrap point: ranks outnumber the eight cores.
  const Case cases[] = {{0, 0, 0}, {3, 3, 0},  {4, 4, 1},  {7, 7, 1},
                        {8, 0, 0}, {12, 4, 1}, {15, 7, 1}, {16, 0, 0}};
  for (const Case& c : cases) {
    Placement placement = topology.placement_for(c.rank, 20, BindPolicy::kCore);
    EXPECT_EQ(placement.core, c.core) << "rank " << c.rank;
    EXPECT_EQ(placement.numa_node, c.node) << "rank " << c.rank;
  }
}

TEST(Topology, NumaPolicyPicksTheNodeOfTheRanksCore) {
  Topology topology = two_nodes();
  for (int rank = 0; rank < 16; ++rank) {
    Placement placement = topology.placement_for(rank, 16, BindPolicy::kNuma);
    EXPECT_EQ(placement.core, -1);
    EXPECT_EQ(placement.numa_node, (rank % 8) / 4) << "rank " << rank;
  }
}

// The machine of the MPI tests' 4-node case (tests/mpi/manifest.txt): two
// packages of two NUMA nodes of two cores. Eight ranks fill it, two per node,
// as shmpirun --bind-to core or numa records them in the rank table.
TEST(Topology, EightRanksOnTwoPackagesOfTwoNodesOfTwoCores) {
  auto loaded = Topology::load_synthetic("package:2 numa:2 core:2 pu:1");
  ASSERT_TRUE(loaded.has_value());
  const Topology& topology = loaded.value();
  EXPECT_EQ(topology.core_count(), 8);
  EXPECT_EQ(topology.numa_count(), 4);
  const int expected_node[8] = {0, 0, 1, 1, 2, 2, 3, 3};
  for (int rank = 0; rank < 8; ++rank) {
    Placement core = topology.placement_for(rank, 8, BindPolicy::kCore);
    EXPECT_EQ(core.core, rank) << "rank " << rank;
    EXPECT_EQ(core.numa_node, expected_node[rank]) << "rank " << rank;
    Placement numa = topology.placement_for(rank, 8, BindPolicy::kNuma);
    EXPECT_EQ(numa.core, -1) << "rank " << rank;
    EXPECT_EQ(numa.numa_node, expected_node[rank]) << "rank " << rank;
  }
}

// More ranks than synthetic cores: the ranks alternate between the nodes of
// a two-core, two-node machine, as in the MPI tests' wrap case.
TEST(Topology, RanksWrapAroundTwoSingleCoreNodes) {
  auto loaded = Topology::load_synthetic("numa:2 core:1 pu:1");
  ASSERT_TRUE(loaded.has_value());
  for (int rank = 0; rank < 4; ++rank) {
    EXPECT_EQ(
        loaded.value().placement_for(rank, 4, BindPolicy::kCore).numa_node,
        rank % 2)
        << "rank " << rank;
  }
}

TEST(Topology, NonePolicyLeavesRanksUnbound) {
  Topology topology = two_nodes();
  Placement placement = topology.placement_for(5, 8, BindPolicy::kNone);
  EXPECT_EQ(placement.core, -1);
  EXPECT_EQ(placement.numa_node, -1);
}

TEST(Topology, BindingOnSyntheticMachineReportsPlacementWithoutBinding) {
  Topology topology = two_nodes();
  auto bound = topology.bind_current_process(6, 8, BindPolicy::kCore);
  ASSERT_TRUE(bound.has_value());
  EXPECT_EQ(bound.value().core, 6);
  EXPECT_EQ(bound.value().numa_node, 1);
  EXPECT_EQ(topology.current_numa_node(), -1);
}

TEST(Topology, HwlocSyntheticEnvironmentSelectsSyntheticMachine) {
  ASSERT_EQ(::setenv("HWLOC_SYNTHETIC", "numa:4 core:2 pu:1", 1), 0);
  auto loaded = Topology::load();
  ::unsetenv("HWLOC_SYNTHETIC");
  ASSERT_TRUE(loaded.has_value());
  EXPECT_TRUE(loaded.value().is_synthetic());
  EXPECT_EQ(loaded.value().numa_count(), 4);
  EXPECT_EQ(loaded.value().core_count(), 8);
  EXPECT_EQ(loaded.value().placement_for(5, 8, BindPolicy::kNuma).numa_node, 2);
}

TEST(Topology, L2CacheSizeIsUnknownOnSyntheticMachines) {
  EXPECT_EQ(two_nodes().l2_cache_bytes(), 0U);
}

TEST(Topology, L2CacheSizeOfRealMachineIsPlausible) {
  auto loaded = Topology::load();
  ASSERT_TRUE(loaded.has_value());
  // 0 where hwloc sees no caches (some virtual machines); else a cache's
  // size, between 64 KiB and 1 GiB on anything this runs on.
  const std::size_t bytes = loaded.value().l2_cache_bytes();
  if (bytes != 0) {
    EXPECT_GE(bytes, std::size_t{64} << 10);
    EXPECT_LE(bytes, std::size_t{1} << 30);
  }
}

TEST(Topology, BadSyntheticDescriptionIsAnError) {
  auto loaded = Topology::load_synthetic("not a topology");
  EXPECT_FALSE(loaded.has_value());
}

TEST(Topology, RealMachineBindsRankToItsCore) {
  auto loaded = Topology::load();
  ASSERT_TRUE(loaded.has_value());
  const Topology& topology = loaded.value();
  ASSERT_FALSE(topology.is_synthetic());
  ASSERT_GE(topology.core_count(), 1);
  ASSERT_GE(topology.numa_count(), 1);
  const int rank = topology.core_count();  // wraps round to core 0
  cpu_set_t before;
  ASSERT_EQ(::sched_getaffinity(0, sizeof before, &before), 0);
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto bound =
        topology.bind_current_process(rank, rank + 1, BindPolicy::kCore);
    if (!bound || bound.value().core != 0) {
      ::_exit(1);
    }
    cpu_set_t allowed;
    if (::sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
      ::_exit(2);
    }
    // Bound to one core: fewer CPUs than before unless there is only one.
    const bool narrowed = topology.core_count() == 1
                              ? CPU_COUNT(&allowed) == CPU_COUNT(&before)
                              : CPU_COUNT(&allowed) < CPU_COUNT(&before);
    if (CPU_COUNT(&allowed) < 1 || !narrowed) {
      ::_exit(3);
    }
    ::sched_yield();
    ::_exit(topology.current_numa_node() == bound.value().numa_node ? 0 : 4);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

// The launcher's placement of rank regions: a policy on a shared memfd
// mapping (not page-aligned on purpose), which the kernel then reports for
// the pages a child touches.
TEST(Topology, BindMemoryPlacesASharedMappingOnANode) {
  auto loaded = Topology::load();
  ASSERT_TRUE(loaded.has_value());
  const Topology& topology = loaded.value();
  const int fd = ::memfd_create("topo_test", MFD_CLOEXEC);
  ASSERT_GE(fd, 0);
  constexpr std::size_t kBytes = 1 << 20;
  ASSERT_EQ(::ftruncate(fd, kBytes), 0);
  void* map =
      ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ASSERT_NE(map, MAP_FAILED);
  auto* bytes = static_cast<std::byte*>(map);
  const int last = topology.numa_count() - 1;
  if (!topology.bind_memory(bytes + 100, kBytes / 2, last)) {
    ::munmap(map, kBytes);
    ::close(fd);
    GTEST_SKIP() << "this kernel refuses mbind (a container?)";
  }
  EXPECT_FALSE(topology.bind_memory(bytes, kBytes, last + 1).has_value());
  EXPECT_FALSE(topology.bind_memory(bytes, kBytes, -1).has_value());
  bytes[200] = std::byte{1};  // first touch, after the policy
  int node = -1;
  ASSERT_EQ(::syscall(SYS_get_mempolicy, &node, nullptr, 0, bytes + 200,
                      MPOL_F_NODE | MPOL_F_ADDR),
            0);
  EXPECT_EQ(node, last);  // logical == OS index on a plain machine
  ::munmap(map, kBytes);
  ::close(fd);
  // Synthetic machines bind nothing and say so by succeeding.
  Topology synthetic = two_nodes();
  std::byte local[64];
  EXPECT_TRUE(synthetic.bind_memory(local, sizeof local, 1).has_value());
}

TEST(Topology, ConvenienceFunctionsUseTheProcessTopology) {
  EXPECT_GE(core_count(), 1);
  EXPECT_GE(numa_count(), 1);
  EXPECT_GE(current_numa_node(), 0);
}

}  // namespace
}  // namespace shmpi::topo
